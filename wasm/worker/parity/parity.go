// Package parity holds what the Worker is compared with: the native site
// handler over dist/ (the handler of `retrylab serve`) and the table of API
// requests that both must answer with the same bytes, derived from the
// calculator declarations so that a new calculator or parameter is covered
// without a new line here. wasm/worker/e2e and `make bench` use it.
package parity

import (
	"math"
	"net/url"
	"strconv"
	"strings"

	"retrylab/core/calc"
	"retrylab/site/load"
)

// Request is one API request of the table.
type Request struct {
	Calc  string
	Query url.Values
	// Bad names the parameter a bad request gets wrong (the 400 answer must
	// name it); empty for a good request.
	Bad string
}

// Path returns the request's path and query: /api/v1/NAME?QUERY.
func (r Request) Path() string {
	p := "/api/v1/" + r.Calc
	if q := r.Query.Encode(); q != "" {
		p += "?" + q
	}
	return p
}

// Good returns the good requests of c: its defaults, then one request per
// parameter that sets only that parameter to another value of its range
// (every choice of a Choice). A good request may still be refused by a rule
// that links parameters; the comparison holds for any answer.
func Good(c *calc.Calculator) []Request {
	reqs := []Request{{Calc: c.Name, Query: url.Values{}}}
	for _, p := range c.Params {
		for _, v := range alternatives(p) {
			reqs = append(reqs, Request{Calc: c.Name, Query: url.Values{p.Name: {v}}})
		}
	}
	return reqs
}

// alternatives returns values of p other than its default.
func alternatives(p calc.Param) []string {
	switch p.Kind {
	case calc.Int, calc.Float:
		if v, ok := altNumber(p, p.Default); ok {
			return []string{v}
		}
	case calc.IntList, calc.FloatList:
		parts := strings.Split(p.Default, ",")
		if p.Default == "" {
			parts = []string{""}
		}
		last := len(parts) - 1
		if v, ok := altNumber(p, parts[last]); ok {
			parts[last] = v
			return []string{strings.Join(parts, ",")}
		}
	case calc.Bool:
		if p.Default == "true" {
			return []string{"false"}
		}
		return []string{"true"}
	case calc.Choice:
		var alts []string
		for _, ch := range p.Choices {
			if ch != p.Default {
				alts = append(alts, ch)
			}
		}
		return alts
	case calc.BigInt:
		return []string{"-1", "123456789012345678901234567890"}
	case calc.Text:
		return []string{"retrylab-test"}
	case calc.JSON:
		return []string{`{"b":[1,2.5,"é",null,12345678901234567890],"a":true,"<&>":"\ud83d\ude00"}`}
	}
	return nil
}

// altNumber returns a number in p's range other than def: twice def, half
// of it, def+1 or the lower bound, the first that fits.
func altNumber(p calc.Param, def string) (string, bool) {
	d, err := strconv.ParseFloat(def, 64)
	if err != nil {
		d = 1
		if p.Min.Set {
			d = p.Min.V
		}
	}
	integer := p.Kind == calc.Int || p.Kind == calc.IntList
	for _, v := range []float64{d * 2, d / 2, d + 1, p.Min.V} {
		if integer {
			v = math.Round(v)
		}
		if v != d && inRange(p, v) {
			return calc.FormatFloat(v), true
		}
	}
	return "", false
}

func inRange(p calc.Param, v float64) bool {
	if p.Min.Set && (v < p.Min.V || p.Min.Open && v == p.Min.V) {
		return false
	}
	if p.Max.Set && (v > p.Max.V || p.Max.Open && v == p.Max.V) {
		return false
	}
	return true
}

// Bad returns requests of c that must get 400: per parameter a value of the
// wrong kind and, where the range is bounded, one outside it; then an
// unknown parameter and a repeated one.
func Bad(c *calc.Calculator) []Request {
	var reqs []Request
	add := func(name string, q url.Values) { reqs = append(reqs, Request{Calc: c.Name, Query: q, Bad: name}) }
	for _, p := range c.Params {
		one := func(v string) { add(p.Name, url.Values{p.Name: {v}}) }
		switch p.Kind {
		case calc.Int, calc.Float, calc.IntList, calc.FloatList:
			one("abc")
			if p.Max.Set {
				one(calc.FormatFloat(math.Abs(p.Max.V)*2 + 1))
			} else if p.Min.Set {
				one(calc.FormatFloat(p.Min.V - 1))
			}
			if p.Kind == calc.Int || p.Kind == calc.IntList {
				one("1.5")
			}
		case calc.Bool:
			one("maybe")
		case calc.Choice:
			one("no-such-choice")
		case calc.BigInt:
			one("12x")
		case calc.JSON:
			one("{")
		case calc.Text:
			n := p.MaxLen
			if n == 0 {
				n = 4096
			}
			one(strings.Repeat("x", n+1))
		}
	}
	add("no_such_param", url.Values{"no_such_param": {"1"}})
	if len(c.Params) > 0 {
		p := c.Params[0]
		add(p.Name, url.Values{p.Name: {p.Default, p.Default}})
	}
	return reqs
}

// Mix returns the requests of the load test: the pages and assets given,
// each calculator at its defaults, a bad request (400) and an unknown path
// (404).
func Mix(reg *calc.Registry, pages []string) []load.Target {
	var t []load.Target
	for _, p := range pages {
		t = append(t, load.Target{Path: p, Status: 200})
	}
	for _, c := range reg.List() {
		t = append(t, load.Target{Path: Request{Calc: c.Name, Query: url.Values{}}.Path(), Status: 200})
	}
	if cs := reg.List(); len(cs) > 0 {
		if bad := Bad(cs[0]); len(bad) > 0 {
			t = append(t, load.Target{Path: bad[0].Path(), Status: 400})
		}
	}
	t = append(t, load.Target{Path: "/api/v1/no-such-calculator", Status: 404})
	return t
}
