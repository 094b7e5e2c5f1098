//go:build js && wasm

package playground

import (
	"retrylab/core/standin"
	"strings"

	"retrylab/core/calc"
	"retrylab/site/locale"
	render "retrylab/site/widget"
)

// citeSpec is one citation to render: the field of the result and the
// format (wasm/playground/DOM.md, "Citations in prose").
type citeSpec struct {
	_             standin.NoEqual // not comparable
	field, format string
}

// outcome is one recompute rendered: the output's HTML and, for each
// citation, its text and JSON value; ok[i] false means the field is
// missing from this result, and the citation keeps its text.
type outcome struct {
	html          string
	texts, values []string
	ok            []bool
}

// evaluate runs c on a, with memo (calc.Memo: nil keeps nothing), and
// renders its output and citations in loc, the
// work of a recompute that needs no DOM: the main thread and the worker
// (worker.go) both run it. An error is a refusal of the calculator
// (*calc.Error) or a bug of the renderer. lap(i), when not nil, marks the
// end of step i (0: run, 1: render) for the benchmark.
func evaluate(set *render.Set, c *calc.Calculator, a calc.Args, memo *calc.Memo, views []string, cites []citeSpec, loc locale.Locale, lap func(int)) (outcome, error) {
	a = set.RunArgs(c, a.WithMemo(memo), views) // the trace a flow view draws
	raw, err := c.Run(a)
	if err != nil {
		return outcome{}, err
	}
	res, err := set.Encode(raw)
	if err != nil {
		panic(err) // a result that does not encode is a bug of the calculator
	}
	if lap != nil {
		lap(0)
	}
	// the output's comparison keeps its variant run, which the
	// citations of the variant read: one run of it, not two
	html, drawn, hasDrawn, err := set.RenderOutputVariant(c, a, res, views, loc)
	if err != nil {
		return outcome{}, err
	}
	o := outcome{html: html, texts: make([]string, len(cites)), values: make([]string, len(cites)), ok: make([]bool, len(cites))}
	var variant render.Encoded // the comparison's result, run once for its citations
	tried, varied := false, false
	for i, ci := range cites {
		cres, field := res, ci.field
		if f, isCmp := strings.CutPrefix(field, render.CompareCite); isCmp { // {=ID.compare.FIELD}
			if !tried {
				tried = true
				v, ok, err := drawn, hasDrawn, error(nil)
				if !ok {
					v, ok, err = set.Variant(c, a, raw, views)
				}
				if ok && err == nil {
					if variant, err = set.Encode(v); err != nil {
						panic(err) // as for res
					}
					varied = true
				}
			}
			if !varied {
				continue // no variant for this input: the citation keeps its text
			}
			cres, field = variant, f
		}
		text, value, err := set.CiteShown(c, cres, field, ci.format, loc)
		if err != nil {
			continue // the build checked every citation; a field missing from this result keeps its text
		}
		o.texts[i], o.values[i], o.ok[i] = text, value, true
	}
	if lap != nil {
		lap(1)
	}
	return o, nil
}
