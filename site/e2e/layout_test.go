//go:build e2e && layout

package e2e

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestLayout is the layout check of issue 30: every widget of every page,
// on a 375×812 phone with touch and a 1280×800 desktop, at the page's
// values, in the light and the dark scheme (the scheme is switched in
// place: the geometry is the same, the colours are checked again). One
// browser, one tab per window size. A failure names the page, the widget
// and the elements (LayoutProbe). Colour contrast is axe's (TestAxe, both
// schemes) and the palette's (site/widget TestPaletteContrast).
func TestLayout(t *testing.T) {
	for _, sz := range LayoutSizes {
		t.Run(sz.Name, func(t *testing.T) {
			ctx := tab(t)
			for _, p := range widgetPages(t) {
				if err := Emulate(ctx, sz, "light"); err != nil {
					t.Fatal(err)
				}
				openRetry(t, ctx, p)
				for _, scheme := range []string{"light", "dark"} {
					if scheme == "dark" {
						if err := Emulate(ctx, sz, scheme); err != nil {
							t.Fatal(err)
						}
					}
					probs, err := chromedp.Run(ctx, chromedp.Evaluate[[]LayoutProblem](fmt.Sprintf("(%s)(%v, %v)", LayoutProbe, sz.Touch, scheme == "dark")))
					if err != nil {
						t.Fatalf("%s: %v", p.Path, err)
					}
					for _, pr := range probs {
						where := p.Path
						if pr.Widget != "" {
							where += "#" + pr.Widget
						}
						t.Errorf("%s %s %s: %s", sz.Name, scheme, where, pr.What)
					}
					if len(probs) > 0 && testing.Verbose() {
						t.Logf("%s %s %s: %d problems", sz.Name, scheme, p.Path, len(probs))
					}
				}
			}
		})
	}
}

// openRetry opens p, once more when the first load loses its execution
// context (a navigation racing the emulation's change).
func openRetry(t *testing.T, ctx context.Context, p Page) {
	t.Helper()
	err := chromedp.Do(ctx, chromedp.Navigate(pageURL(p, "")), WaitReady(30*time.Second))
	if err != nil {
		err = chromedp.Do(ctx, chromedp.Navigate(pageURL(p, "")), WaitReady(30*time.Second))
	}
	if err != nil {
		t.Fatalf("%s: %v", p.Path, err)
	}
}
