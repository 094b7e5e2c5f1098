package pages

import (
	"fmt"
	"sort"
	"strings"

	"retrylab/site/markdown"
)

// CheckParity compares the translations of every page: the same widget
// and calc blocks (kind, calculator, id and parameters) in the same order,
// and the same citations (ID.FIELD|FORMAT, counted, in any order, since
// languages order a sentence differently). langs[0] is the reference. It
// returns one message per difference, "file: message".
func CheckParity(pages map[string]map[string]*markdown.Page, langs []string) []string {
	var out []string
	ref := langs[0]
	for _, slug := range sortedKeys(pages[ref]) {
		rp := pages[ref][slug]
		rw, rc := widgetList(rp), citationList(rp)
		for _, lang := range langs[1:] {
			p, ok := pages[lang][slug]
			if !ok {
				out = append(out, fmt.Sprintf("%s: no %s translation", rp.File, lang))
				continue
			}
			w, c := widgetList(p), citationList(p)
			for i := 0; i < max(len(rw), len(w)); i++ {
				switch {
				case i >= len(w):
					out = append(out, fmt.Sprintf("%s: lacks block %d of %s: %s", p.File, i+1, rp.File, rw[i]))
				case i >= len(rw):
					out = append(out, fmt.Sprintf("%s: block %d (%s) is not in %s", p.File, i+1, w[i], rp.File))
				case w[i] != rw[i]:
					out = append(out, fmt.Sprintf("%s: block %d is %s; in %s it is %s", p.File, i+1, w[i], rp.File, rw[i]))
				}
			}
			if missing, extra := diff(rc, c); len(missing)+len(extra) > 0 {
				msg := p.File + ":"
				if len(missing) > 0 {
					msg += fmt.Sprintf(" lacks citations of %s: %s;", rp.File, strings.Join(missing, " "))
				}
				if len(extra) > 0 {
					msg += fmt.Sprintf(" has citations %s does not: %s;", rp.File, strings.Join(extra, " "))
				}
				out = append(out, strings.TrimSuffix(msg, ";"))
			}
		}
	}
	return out
}

func widgetList(p *markdown.Page) []string {
	var out []string
	for _, w := range p.Widgets {
		s := w.Kind + " " + w.Calc.Name + " id=" + w.ID
		if q := w.Params.Encode(); q != "" {
			s += " " + q
		}
		if len(w.Views) > 0 {
			s += " view=" + strings.Join(w.Views, ",")
		}
		out = append(out, s)
	}
	return out
}

func citationList(p *markdown.Page) []string {
	var out []string
	for _, c := range p.Citations {
		s := "{=" + c.Ref()
		if c.Format != "" {
			s += "|" + c.Format
		}
		out = append(out, s+"}")
	}
	sort.Strings(out)
	return out
}

// diff returns the elements of a missing from b and those of b not in a
// (both sorted, as multisets).
func diff(a, b []string) (missing, extra []string) {
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j >= len(b) || i < len(a) && a[i] < b[j]:
			missing = append(missing, a[i])
			i++
		case i >= len(a) || b[j] < a[i]:
			extra = append(extra, b[j])
			j++
		default:
			i++
			j++
		}
	}
	return missing, extra
}
