//go:build e2e

package e2e

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"retrylab/core/calc"
)

// TestGroupedNumber types a number grouped as the page writes its results
// ("12.345" in Italian and Spanish, "12,345" in Chinese: a result copied
// into a field) into a numeric control of the first widget page of each
// language: the widget computes with the whole number, not 12.345, and the
// URL keeps the calculator's text of it (wasm/playground numberText).
func TestGroupedNumber(t *testing.T) {
	for _, p := range firstWidgetPages(t, 1) {
		t.Run(p.Name(), func(t *testing.T) {
			ctx := tab(t)
			loc, ws := openWidgets(t, ctx, p, "")
			for _, w := range ws {
				c, page := w.calc(t)
				for _, prm := range c.Params {
					if prm.Kind != calc.Int && prm.Kind != calc.Float {
						continue
					}
					for _, v := range []int64{12345, 2500} {
						text := loc.Int(v)
						if !strings.ContainsAny(text, ".,") {
							continue // not grouped in this language (Spanish: 2500)
						}
						values := cloneValues(page)
						values.Set(prm.Name, strconv.FormatInt(v, 10))
						if a, err := c.Parse(values); err != nil {
							continue
						} else if _, err := c.Run(a); err != nil {
							continue // refused together with another parameter
						}
						setValue(t, ctx, w.ID, prm.Name, text)
						expectWidget(t, ctx, w, c, values, loc)
						key := url.QueryEscape(w.ID+"."+prm.Name) + "=" + strconv.FormatInt(v, 10)
						waitJS(t, ctx, "the URL state "+key, fmt.Sprintf(`location.search.includes(%q)`, key))
						return
					}
				}
			}
			t.Fatalf("%s: no widget has a numeric parameter that takes 12345 or 2500", p.Path)
		})
	}
}
