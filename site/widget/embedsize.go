package widget

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// EmbedWidth is the width, in CSS pixels, of the frame the embed snippet
// offers (width 100%, max-width 48rem): the width EmbedHeight estimates
// for and the oEmbed answers give when the consumer sets no maxwidth.
const EmbedWidth = 768

// EmbedHeight estimates, in CSS pixels, the height of an embed page
// (/LANG/embed/NAME/) whose widget is html (widget.Render's markup, or the
// embed page itself) in a frame width pixels wide, so that a pasted
// iframe, or an oEmbed consumer that runs no script, starts near the
// widget's height rather than at a fixed one. It is an estimate from the
// markup and the stylesheets' sizes (site/widget/widget.css,
// site/assets/style.css, embed.css: 17 px text at line-height 1.6, the
// form's 14rem columns, charts 100% wide up to 40rem at their viewBox's
// aspect ratio, 0.8rem help text), not a layout: fonts, wrapping and the
// browser differ. The resize script (embed.js) then sets the frame to the
// height the embed page reports; site/e2e's TestEmbedSnippetFits measures
// both in Chromium.
func EmbedHeight(html string, width int) int {
	const (
		line     = 27.2 // 17 px × 1.6
		small    = 22.4 // 0.875rem × 1.6
		helpLine = 20.5 // 0.8rem × 1.6
		rowGap   = 12.0
		colGap   = 16.0
		colMin   = 224.0 // 14rem
	)
	// The embed's main (0.5rem padding) and the widget's border and padding.
	html, closed := withoutDetails(html)
	inner := float64(width) - 2*8 - 2*17
	inner = max(inner, 160)
	h := 2*8 + 2*17.0
	h += line + 8                     // the title
	h += small*0.9 + 7                // the line under the widget (embed-from)
	h += (line + 8) * float64(closed) // a closed details: its summary
	// The form: fields in columns of at least 14rem.
	cols := max(1, int((inner+colGap)/(colMin+colGap)))
	colW := (inner - colGap*float64(cols-1)) / float64(cols)
	var fields []float64
	for _, f := range blocks(html, `<div class="widget-field"`, "</div>") {
		fh := small + 4 // the label
		switch {
		case strings.Contains(f, "<textarea"):
			fh += 3*line + 10
		case strings.Contains(f, `class="widget-slider"`) && colW < 8*16+200:
			fh += 34 + 4 + 22 // input, then the slider on a line of its own
		default:
			fh += 34
		}
		for _, help := range blocks(f, `<p class="widget-help"`, "</p>") {
			fh += 4 + helpLine*textLines(help, colW, 12.8)
		}
		fields = append(fields, fh)
	}
	for i := 0; i < len(fields); i += cols {
		row := 0.0
		for _, fh := range fields[i:min(len(fields), i+cols)] {
			row = max(row, fh)
		}
		h += row + rowGap
	}
	if strings.Contains(html, `<div class="widget-actions"`) {
		h += 36
	}
	h += 16 // the output's margin
	// Charts: 100% of the width up to 40rem, at the viewBox's ratio.
	chartW := min(inner, 640)
	for _, fig := range blocks(html, `<figure class="widget-chart`, "</figure>") {
		// each picture of the figure (a flow has one per lane, at most
		// 36rem wide: widget.css .chart.flow)
		for _, svg := range blocks(fig, "<svg", ">") {
			if w, vh, ok := viewBox(svg); ok && w > 0 {
				cw := chartW
				if strings.Contains(svg, `class="chart flow"`) {
					cw = min(inner, 576)
				}
				h += cw * vh / w
			}
		}
		for _, cap := range blocks(fig, "<figcaption", "</figcaption>") {
			if strings.HasPrefix(cap, `<figcaption class="widget-fig-title"`) { // a flow's title
				h += 16 + line*textLines(cap, inner, 17)
				continue
			}
			h += small * textLines(cap, inner, 14)
		}
		for _, title := range blocks(fig, `<p class="widget-fig-title"`, "</p>") {
			h += 16 + line*textLines(title, inner, 17) // its margins, its lines
		}
		h += 16
	}
	// Visible tables: each row as tall as its longest cell wraps in an
	// equal share of the width, the caption, the margin.
	for _, t := range blocks(html, `<table class="widget-table"`, "</table>") {
		for _, row := range blocks(t, "<tr", "</tr>") {
			cells := append(blocks(row, "<th", "</th>"), blocks(row, "<td", "</td>")...)
			lines := 1.0
			for _, c := range cells {
				lines = max(lines, textLines(c, inner/float64(len(cells))-12, 17))
			}
			h += line * lines
		}
		h += 16
		if strings.Contains(t, "<caption") {
			h += line
		}
	}
	h += (small + 16) * float64(strings.Count(html, `<p class="widget-note"`))
	for _, pre := range blocks(html, `<pre class="widget-metrics"`, "</pre>") {
		h += 17*float64(strings.Count(pre, "\n")+1) + 18
	}
	// The sums above come out about a tenth below what Chromium lays out
	// (fonts, wrapped labels; measured on every embed at 768 px,
	// 2026-12-03): the last factor.
	return int(h*1.1 + 0.999)
}

// withoutDetails drops from html the content of every details element
// (the widget's "more parameters" and "more results", a chart's data
// table), which a reader of the embed sees closed, as its summary alone,
// and counts the outermost ones: the embed page is written at the
// calculator's defaults, where none is open, and the values of the
// frame's query do not open one (an article's widget opens its "more
// parameters" when one of them is not the default). A details inside
// another goes with it; one left open at the end of html (no
// </details> for it) is kept whole.
func withoutDetails(html string) (string, int) {
	var b strings.Builder
	n := 0
	for {
		i := strings.Index(html, "<details")
		if i < 0 {
			b.WriteString(html)
			return b.String(), n
		}
		b.WriteString(html[:i])
		// its end: the </details> that brings the depth back to zero
		rest, depth, end := html[i+len("<details"):], 1, -1
		for at := 0; depth > 0; {
			o := strings.Index(rest[at:], "<details")
			c := strings.Index(rest[at:], "</details>")
			if c < 0 {
				break
			}
			if o >= 0 && o < c {
				depth++
				at += o + len("<details")
				continue
			}
			depth--
			at += c + len("</details>")
			if depth == 0 {
				end = at
			}
		}
		if end < 0 {
			b.WriteString(html[i:])
			return b.String(), n
		}
		n++
		html = rest[end:]
	}
}

// blocks returns the pieces of s that start with open and end at the
// first close after it (no nesting: the widget's fields, figures and
// tables hold no element of their own kind).
func blocks(s, open, close string) []string {
	var out []string
	for {
		i := strings.Index(s, open)
		if i < 0 {
			return out
		}
		s = s[i:]
		j := strings.Index(s, close)
		if j < 0 {
			return append(out, s)
		}
		out = append(out, s[:j])
		s = s[j+len(close):]
	}
}

// viewBox reads the width and height of the first viewBox="0 0 W H" in s.
func viewBox(s string) (w, h float64, ok bool) {
	i := strings.Index(s, `viewBox="0 0 `)
	if i < 0 {
		return 0, 0, false
	}
	f := strings.Fields(strings.SplitN(s[i+len(`viewBox="0 0 `):], `"`, 2)[0])
	if len(f) != 2 {
		return 0, 0, false
	}
	w, e1 := strconv.ParseFloat(f[0], 64)
	h, e2 := strconv.ParseFloat(f[1], 64)
	return w, h, e1 == nil && e2 == nil
}

// textLines estimates the lines the text of markup s takes in a box width
// pixels wide at font size px: half an em a character, a full em for the
// wide (CJK) ones.
func textLines(s string, width, px float64) float64 {
	w, in := 0.0, false
	for _, r := range s {
		switch {
		case r == '<':
			in = true
		case r == '>':
			in = false
		case in:
		case r >= 0x2E80 || utf8.RuneLen(r) > 2:
			w += px
		default:
			w += px * 0.5
		}
	}
	if w == 0 {
		return 0
	}
	return float64(int(w/width) + 1)
}
