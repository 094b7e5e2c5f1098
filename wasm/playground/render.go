//go:build js && wasm

package main

import (
	"retrylab/calc"
	"retrylab/site/locale"
	render "retrylab/site/widget"
)

// decode encodes a result to JSON once, for renderOutput and every cite.
func decode(res any) (any, error) { return render.Decode(res) }

// renderOutput is the output of a widget, rendered by site/widget exactly
// as the build renders it.
func renderOutput(c *calc.Calculator, a calc.Args, res any, views []string, loc locale.Locale) (string, error) {
	return render.RenderOutput(c, a, res, views, loc)
}

// cite is the text and the JSON value of one citation of res.
func cite(c *calc.Calculator, res any, field, format string, loc locale.Locale) (text, value string, err error) {
	return render.Cite(c, res, field, format, loc)
}
