//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestLayout is the layout check of issue 30: every widget of every page
// that holds one, on a 375×812 phone with touch and a 1280×800 desktop,
// in four states of one page load per page and window: the page's values
// in the light scheme, the same in the dark scheme (switched in place),
// then every player scrubbed to the middle of its run (mid-play) in the
// dark and again in the light scheme. Each state runs the whole probe
// (LayoutProbe: overlaps, text leaving its figure or the viewport,
// numbers on two lines, sideways scroll, 44×44 px controls on the phone,
// legend swatches, NaN in a text), and on the phone no control under the
// widget's sticky picture (CoveredProbe) and axe-core on the widgets, in the
// light scheme as loaded (AxeAll: target-size included) and, its colour
// contrast, in the dark one (AxeContrast); a problem found in several
// states is reported once, with the states. A failure names the window, the page, the widget and the
// elements. On the desktop, axe is TestAxe's (every page, both schemes);
// colour contrast is also the palette's (site/widget TestPaletteContrast).
func TestLayout(t *testing.T) {
	pages := widgetPages(t)
	for _, sz := range LayoutSizes {
		t.Run(sz.Name, func(t *testing.T) {
			ctx := tab(t)
			if err := Emulate(ctx, sz, "light"); err != nil {
				t.Fatal(err)
			}
			for _, p := range pages {
				layoutPage(t, ctx, sz, p)
			}
		})
	}
}

// layoutPage checks one page in the window sz: one load, four states.
func layoutPage(t *testing.T, ctx context.Context, sz Size, p Page) {
	t.Helper()
	if err := Emulate(ctx, sz, "light"); err != nil {
		t.Fatal(err)
	}
	openRetry(t, ctx, p)
	found := map[string][]string{} // problem → the states that show it
	var order []string
	// record notes the problems a probe found in state
	record := func(probs []LayoutProblem, state string) {
		for _, pr := range probs {
			where := p.Path
			if pr.Widget != "" {
				where += "#" + pr.Widget
			}
			k := where + ": " + pr.What
			if _, ok := found[k]; !ok {
				order = append(order, k)
			}
			if n := len(found[k]); n == 0 || found[k][n-1] != state {
				found[k] = append(found[k], state)
			}
		}
	}
	probe := func(state string) {
		probs, err := chromedp.Run(ctx, chromedp.Evaluate[[]LayoutProblem](fmt.Sprintf("(%s)(%v, false)", LayoutProbe, sz.Touch)))
		if err != nil {
			t.Fatalf("%s %s %s: %v", sz.Name, state, p.Path, err)
		}
		record(probs, state)
	}
	// axe on the phone's widgets (TestAxe runs it on the desktop's pages)
	axeProbe := func(state, opts string) {
		probs, err := chromedp.Run(ctx, chromedp.Evaluate[[]LayoutProblem]("("+AxeProbe+")("+opts+")", chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("%s %s %s: axe: %v", sz.Name, state, p.Path, err)
		}
		record(probs, state)
	}
	scheme := func(s string) {
		if err := Emulate(ctx, sz, s); err != nil {
			t.Fatal(err)
		}
	}
	probe("light")
	if sz.Touch {
		// the phone, the page as loaded (scrolled to the top), as
		// Lighthouse's accessibility audit sees it: axe on the widgets,
		// target-size included (a touch target partly under a sticky
		// picture, say, even below the screen)
		if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](string(axeSource(t))+";0")); err != nil {
			t.Fatalf("injecting axe-core: %v", err)
		}
		axeProbe("light, as loaded", AxeAll)
		// the phone: no control under the widget's sticky picture
		probs, err := chromedp.Run(ctx, chromedp.Evaluate[[]LayoutProblem]("("+CoveredProbe+")()", chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("%s %s: %v", sz.Name, p.Path, err)
		}
		record(probs, "light")
	}
	scheme("dark")
	probe("dark")
	if sz.Touch {
		axeProbe("dark", AxeContrast) // the rule that depends on the scheme
	}
	if midPlay(t, ctx, p) {
		probe("dark mid-play")
		scheme("light")
		probe("light mid-play")
	}
	for _, k := range order {
		t.Errorf("%s %s [%s]", sz.Name, k, strings.Join(found[k], ", "))
	}
}

// midPlay scrubs every player of the page to the middle of its run and
// waits until each widget shows that time (its data-t); false when the
// page has no player.
func midPlay(t *testing.T, ctx context.Context, p Page) bool {
	t.Helper()
	ids, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`(() => {
  const ids = [];
  for (const s of document.querySelectorAll('[data-widget] [data-player]:not([hidden]) input[data-action="scrub"]')) {
    const w = s.closest('[data-widget]');
    const mid = (parseFloat(s.min) + parseFloat(s.max)) / 2;
    s.value = String(mid);
    s.dispatchEvent(new Event('input', {bubbles: true}));
    w.setAttribute('data-layout-mid', String(Math.round(parseFloat(s.value) * 1000) / 1000));
    ids.push(w.id);
  }
  return ids;
})()`))
	if err != nil {
		t.Fatalf("%s: scrubbing to mid-play: %v", p.Path, err)
	}
	if len(ids) == 0 {
		return false
	}
	// the state it means: every scrubbed widget at its middle time, then
	// two frames drawn
	wctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	if _, err := chromedp.Run(wctx, chromedp.PollFunction[bool](`() => [...document.querySelectorAll('[data-layout-mid]')].every(w => w.getAttribute('data-t') === w.getAttribute('data-layout-mid'))`, chromedp.WithPollingInterval(10*time.Millisecond))); err != nil {
		late, _ := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('[data-layout-mid]')].filter(w => w.getAttribute('data-t') !== w.getAttribute('data-layout-mid')).map(w => w.id + ' data-t=' + w.getAttribute('data-t') + ', want ' + w.getAttribute('data-layout-mid'))`))
		sort.Strings(late)
		t.Fatalf("%s: the players did not reach mid-play: %s (%v)", p.Path, strings.Join(late, "; "), err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`, chromedp.EvalAwaitPromise)); err != nil {
		t.Fatalf("%s: frames: %v", p.Path, err)
	}
	return true
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
