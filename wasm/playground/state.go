package playground

import (
	"math"
	"strconv"
	"strings"

	"retrylab/core/calc"
	"retrylab/core/standin/query"
)

// The URL state of a page: every widget's parameters that differ from the
// page's own values, as query keys prefixed by the widget's id
// ("?jitter-1.seed=7&a.q=0.9"), so that several widgets share one URL. An
// empty value ("?jitter-1.cap_ms=") means "absent": the page sets an
// optional parameter that the reader cleared. Keys without a known widget
// prefix (debug-panic, bench, a tracker's) are kept as they are.

// widgetQuery returns the parameters of widget id in the page query q,
// without the prefix. An empty value stays in the result: it means absent.
func widgetQuery(q query.Values, id string) query.Values {
	out := query.Values{}
	prefix := id + "."
	for k, vs := range q {
		if name, ok := strings.CutPrefix(k, prefix); ok && name != "" && len(vs) > 0 {
			out[name] = []string{vs[len(vs)-1]}
		}
	}
	return out
}

// overlay returns base with the parameters of over applied: a non-empty
// value replaces, an empty value removes (the optional parameter becomes
// absent). Neither argument is modified.
func overlay(base, over query.Values) query.Values {
	out := query.Values{}
	for k, vs := range base {
		out[k] = append([]string(nil), vs...)
	}
	for k, vs := range over {
		if len(vs) == 0 {
			continue
		}
		if v := vs[len(vs)-1]; v == "" {
			delete(out, k)
		} else {
			out[k] = []string{v}
		}
	}
	return out
}

// pageValues returns the widget's starting values: the page's
// data-defaults, then each parameter's declared default for those the page
// leaves out (an optional parameter without default stays absent).
func pageValues(c *calc.Calculator, defaults query.Values) query.Values {
	out := query.Values{}
	for _, p := range c.Params {
		if v, ok := defaults[p.Name]; ok && len(v) > 0 {
			out[p.Name] = []string{v[len(v)-1]}
		} else if p.Default != "" {
			out[p.Name] = []string{p.Default}
		}
	}
	return out
}

// diff returns the query that turns the page's values into cur, both as
// canonical text (calc.Args.Query of Args in which every value was given):
// the parameters whose text differs, and an empty value for those cur
// leaves absent.
func diff(c *calc.Calculator, page, cur query.Values) query.Values {
	out := query.Values{}
	for _, p := range c.Params {
		cv, cok := cur[p.Name]
		pv, pok := page[p.Name]
		switch {
		case cok && (!pok || cv[0] != pv[0]):
			out[p.Name] = []string{cv[0]}
		case !cok && pok:
			out[p.Name] = []string{""}
		}
	}
	return out
}

// setWidget replaces the keys of widget id in q by d (prefixed); it
// modifies q.
func setWidget(q query.Values, id string, d query.Values) {
	prefix := id + "."
	for k := range q {
		if strings.HasPrefix(k, prefix) {
			delete(q, k)
		}
	}
	for k, vs := range d {
		q[prefix+k] = append([]string(nil), vs...)
	}
}

// encodeSearch writes q as a location.search: "" when empty, else "?"
// and the keys in sorted order.
func encodeSearch(q query.Values) string {
	if len(q) == 0 {
		return ""
	}
	return "?" + query.Encode(q)
}

// withSearch replaces the query of a link (keeping its fragment) by search.
func withSearch(href, search string) string {
	frag := ""
	if i := strings.IndexByte(href, '#'); i >= 0 {
		href, frag = href[:i], href[i:]
	}
	if i := strings.IndexByte(href, '?'); i >= 0 {
		href = href[:i]
	}
	return href + search + frag
}

// canonical parses values and returns the Args and the canonical text of
// every value present (all of them count as given).
func canonical(c *calc.Calculator, values query.Values) (calc.Args, query.Values, error) {
	a, err := c.Parse(values)
	if err != nil {
		return a, nil, err
	}
	return a, a.Query(), nil
}

// boolText reports whether the text of a Bool parameter is true, with the
// spellings calc accepts.
func boolText(s string) bool {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true", "1", "yes", "on":
		return true
	}
	return false
}

// validNumber reports whether s is a valid floating-point number as HTML
// defines it for the value of an <input type="number"> or "range" (an
// optional '-', digits with an optional fraction or a fraction alone, an
// optional exponent) whose value is finite. Setting such an input to any
// other text makes the browser drop it and log "The specified value …
// cannot be parsed, or is out of range"; writeControls leaves the input
// empty instead, and the widget's message names the text.
func validNumber(s string) bool {
	i, digits := 0, 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		frac := 0
		for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			frac++
		}
		if frac == 0 {
			return false
		}
		digits += frac
	}
	if digits == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			i++
		}
		exp := 0
		for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			exp++
		}
		if exp == 0 {
			return false
		}
	}
	if i != len(s) {
		return false
	}
	f, err := strconv.ParseFloat(s, 64)
	return err == nil && !math.IsInf(f, 0)
}

// numberText is the calculator's text of a number field on a page whose
// decimal mark is decimal ("," or "."): that mark, or the other one, read
// as a point ("0,7" → "0.7"); a number grouped as the page groups its
// numbers read whole ("300.000" on a page with a decimal comma, "300,000"
// on one with a decimal point: 300000), so a result copied into a field
// keeps its value. A group is three digits after a first of one to three
// that is not 0: "0.125" and "1.5" are decimals everywhere.
func numberText(s, decimal string) string {
	s = strings.TrimSpace(s)
	mark, group := byte('.'), byte(',')
	if decimal == "," {
		mark, group = ',', '.'
	}
	body := strings.TrimLeft(s, "+-")
	end := strings.IndexByte(body, mark)
	if end < 0 {
		end = len(body)
	}
	// groups end 4, 8, … bytes before the decimals: a group mark there and
	// only there, digits elsewhere
	ok := strings.IndexByte(body[:end], group) > 0 && body[0] != '0'
	for k := 0; k < end && ok; k++ {
		at := (end-k)%4 == 0
		ok = (body[k] == group) == at && (at || '0' <= body[k] && body[k] <= '9')
	}
	if ok {
		s = strings.ReplaceAll(s, string(group), "")
	}
	return strings.Replace(s, ",", ".", 1)
}
