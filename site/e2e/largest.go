package e2e

import (
	"errors"
	"fmt"
	"math"
	"net/url"
	"regexp"

	"retrylab/core/calc"
)

// LargestAccepted sets every bounded numeric parameter to its maximum and
// backs off (bisecting toward the page's value) each parameter the
// calculator refuses, until it accepts: the largest work a reader can ask
// for.
func LargestAccepted(c *calc.Calculator, page url.Values) url.Values {
	v := cloneValues(page)
	for _, p := range c.Params {
		if (p.Kind == calc.Int || p.Kind == calc.Float) && p.Max.Set && !p.Max.Open {
			v.Set(p.Name, calc.FormatFloat(p.Max.V))
		}
	}
	for tries := 0; tries < 200; tries++ {
		_, err := c.Compute(v)
		if err == nil {
			return v
		}
		var ce *calc.Error
		if !errors.As(err, &ce) || ce.Param == "" || c.Param(ce.Param) == nil {
			break
		}
		p := c.Param(ce.Param)
		cur, lo := num(v.Get(p.Name)), num(page.Get(p.Name))
		if v.Get(p.Name) == page.Get(p.Name) || math.IsNaN(cur) || math.IsNaN(lo) {
			// the refusal names a parameter at the page's value: lower the
			// largest other one instead
			if !lowerLargest(c, v, page) {
				break
			}
			continue
		}
		next := lo + (cur-lo)/2
		if p.Kind == calc.Int {
			next = math.Floor(next)
		}
		if next == cur || next <= lo {
			v.Set(p.Name, page.Get(p.Name))
		} else {
			v.Set(p.Name, calc.FormatFloat(next))
		}
	}
	return page
}

// lowerLargest halves the parameter furthest above its page value.
func lowerLargest(c *calc.Calculator, v, page url.Values) bool {
	best, ratio := "", 1.0
	for _, p := range c.Params {
		cur, lo := num(v.Get(p.Name)), num(page.Get(p.Name))
		if math.IsNaN(cur) || math.IsNaN(lo) || cur <= lo {
			continue
		}
		r := cur / math.Max(math.Abs(lo), 1)
		if r > ratio {
			best, ratio = p.Name, r
		}
	}
	if best == "" {
		return false
	}
	p := c.Param(best)
	cur, lo := num(v.Get(best)), num(page.Get(best))
	next := lo + (cur-lo)/2
	if p.Kind == calc.Int {
		next = math.Floor(next)
	}
	v.Set(best, calc.FormatFloat(next))
	return true
}

func num(s string) float64 {
	var f float64
	if _, err := fmt.Sscan(s, &f); err != nil {
		return math.NaN()
	}
	return f
}

// DataWasm finds the module a built page loads: the loader's data-wasm
// attribute, on its own script tag (site/assets/app.js). TestModuleBudget
// and wasmbench's size section read it.
var DataWasm = regexp.MustCompile(`data-wasm="([^"]+\.wasm)"`)
