//go:build e2e

package e2e

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"retrylab/core/calc"
)

// TestReseed clicks "new seed" on every widget that has a seed, on one
// page per language: the seed control holds a fresh integer drawn in the
// browser, the result is the calculator's for that seed, and the URL has
// it.
func TestReseed(t *testing.T) {
	found := 0
	for _, p := range pagesWith(t, `data-action="reseed"`) {
		t.Run(p.Name(), func(t *testing.T) {
			ctx := tab(t)
			loc, ws := openWidgets(t, ctx, p, "")
			for _, w := range ws {
				c, page := w.calc(t)
				if c.Param("seed") == nil {
					continue
				}
				found++
				seen := map[string]bool{page.Get("seed"): true}
				for i := 0; i < 2; i++ {
					before := eval[string](t, ctx, controlValue(w.ID, "seed"))
					clickSeen(t, ctx, fmt.Sprintf(`[id=%q] button[data-action="reseed"]`, w.ID))
					waitJS(t, ctx, w.ID+" new seed", fmt.Sprintf(`%s !== %q`, controlValue(w.ID, "seed"), before))
					seed := eval[string](t, ctx, controlValue(w.ID, "seed"))
					if _, err := strconv.ParseUint(seed, 10, 64); err != nil || seen[seed] {
						t.Fatalf("%s: new seed %q (seen before: %v)", w.ID, seed, seen[seed])
					}
					seen[seed] = true
					values := cloneValues(page)
					values.Set("seed", seed)
					expectWidget(t, ctx, w, c, values, loc)
					key := url.QueryEscape(w.ID+".seed") + "=" + seed
					waitJS(t, ctx, "the seed in the URL", fmt.Sprintf(`location.search.includes(%q)`, key))
				}
			}
		})
	}
	if found == 0 {
		t.Error("no widget with a seed")
	}
}

// TestSlider moves the slider of every slidable parameter of one widget
// per page and language: the number field follows, the result is the
// calculator's; typing into the field moves the slider back.
func TestSlider(t *testing.T) {
	for _, p := range pagesWith(t, `data-slider-for=`) {
		t.Run(p.Name(), func(t *testing.T) {
			ctx := tab(t)
			loc, ws := openWidgets(t, ctx, p, "")
			moved := 0
			for _, w := range ws {
				c, page := w.calc(t)
				for _, prm := range c.Params {
					if prm.Kind != calc.Int && prm.Kind != calc.Float {
						continue
					}
					sel := fmt.Sprintf(`[id=%q] input[data-slider-for=%q]`, w.ID, prm.Name)
					type rng struct {
						Min   string `json:"min"`
						Max   string `json:"max"`
						Value string `json:"value"`
					}
					r, err := chromedp.Run(ctx, chromedp.Evaluate[*rng](fmt.Sprintf(`((s) => s && s.checkVisibility() ? {min: s.min, max: s.max, value: s.value} : null)(document.querySelector(%q))`, sel)))
					if err != nil {
						t.Fatal(err)
					}
					if r == nil {
						continue // no slider, or not shown (a widget the page does not show yet)
					}
					// the slider's own maximum: a value the range input holds exactly
					values := cloneValues(page)
					values.Set(prm.Name, r.Max)
					if _, err := c.Compute(values); err != nil || r.Max == r.Value {
						continue // a limit another parameter forbids, or no move
					}
					if err := chromedp.Do(ctx, chromedp.SetValue(chromedp.CSS(sel), r.Max)); err != nil {
						t.Fatal(err)
					}
					waitJS(t, ctx, "the field to follow the slider", fmt.Sprintf(`%s === %q`, controlValue(w.ID, prm.Name), r.Max))
					expectWidget(t, ctx, w, c, values, loc)
					// and back: the field moves the slider
					setValue(t, ctx, w.ID, prm.Name, page.Get(prm.Name))
					waitJS(t, ctx, "the slider to follow the field", fmt.Sprintf(`document.querySelector(%q).value === %q`, sel, r.Value))
					expectWidget(t, ctx, w, c, page, loc)
					moved++
					break
				}
			}
			if moved == 0 {
				t.Errorf("%s: no slider moved", p.Path)
			}
		})
	}
}

// pagesWith returns, for each language, the first article page (else
// embed page) whose HTML contains marker.
func pagesWith(t *testing.T, marker string) []Page {
	t.Helper()
	return firstPages(t, marker, func(html string) bool { return strings.Contains(html, marker) })
}
