//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The time views, the comparison and the disclosures of issue 17
// (site/widget/timeviews.go, compare.go, more.go; site/assets/player.js).

// pagesWithWidget is, per language, the first page holding the widget id.
func pagesWithWidget(t *testing.T, id string) []Page {
	t.Helper()
	return firstPages(t, "widget "+id, func(html string) bool { return strings.Contains(html, `id="`+id+`" data-defaults=`) })
}

// dataT reads the time the widget shows (its root's data-t), NaN when none.
func dataT(t *testing.T, ctx context.Context, id string) float64 {
	t.Helper()
	s := eval[string](t, ctx, fmt.Sprintf(`document.getElementById(%q).getAttribute('data-t') || 'NaN'`, id))
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("%s data-t %q", id, s)
	}
	return v
}

// frames waits for n animation frames of the page: a wait on the page's
// own clock, not a sleep.
func frames(t *testing.T, ctx context.Context, n int) {
	t.Helper()
	js := fmt.Sprintf(`new Promise(r => { let k = %d; const f = () => (--k > 0 ? requestAnimationFrame(f) : r(true)); requestAnimationFrame(f); })`, n)
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](js, chromedp.EvalAwaitPromise)); err != nil {
		t.Fatalf("%d frames: %v", n, err)
	}
}

// TestPlay: on the jitter, backoff and dispatch widgets, play makes
// data-t grow, pause (from the keyboard) stops it and shows the moment
// (future elements hidden, or flow marks on their way), the scrubber sets
// it; the console stays silent (tab).
func TestPlay(t *testing.T) { testPlay(t, "jit", "bo", "disp") }

// TestPlayLimiter: the same on the time view of the two buckets (limits'
// play view, rate-limits' Figure 2).
func TestPlayLimiter(t *testing.T) { testPlay(t, "limt") }

func testPlay(t *testing.T, ids ...string) {
	for _, id := range ids {
		for _, p := range pagesWithWidget(t, id) {
			t.Run(id+"-"+p.Name(), func(t *testing.T) {
				ctx := tab(t)
				open(t, ctx, p, "")
				root := fmt.Sprintf(`document.getElementById(%q)`, id)
				play := fmt.Sprintf(`[id=%q] button[data-action="play"]`, id)
				waitJS(t, ctx, "the player's controls", root+`.querySelector('[data-player]:not([hidden])') !== null`)
				// the player's end: the latest of the widget's time figures'
				t1 := eval[float64](t, ctx, `Math.max(...[...`+root+`.querySelectorAll('figure[data-timeview]')].map(f => f.getAttribute('data-t1') * 1))`)
				if end := dataT(t, ctx, id); end != t1 {
					t.Errorf("before play data-t = %v, want the end %v", end, t1)
				}
				// at rest the time is the page's own text (player.js makes
				// no number format at load), and the scrubber says it
				timeText := root + `.querySelector('[data-player-time]').textContent + ' | ' + ` + root + `.querySelector('input[data-action="scrub"]').getAttribute('aria-valuetext')`
				rest := eval[string](t, ctx, timeText)
				clickSeen(t, ctx, play)
				waitJS(t, ctx, "aria-pressed", root+`.querySelector('button[data-action="play"]').getAttribute('aria-pressed') === 'true'`)
				first := dataT(t, ctx, id)
				waitJSFor(t, ctx, 10e9, "data-t to grow", fmt.Sprintf(`%s.getAttribute('data-t') * 1 > %v`, root, first))
				// pause with the keyboard
				if err := chromedp.Do(ctx, chromedp.Focus(chromedp.CSS(play)), chromedp.KeyEvent("\r")); err != nil {
					t.Fatal(err)
				}
				waitJS(t, ctx, "paused", root+`.querySelector('button[data-action="play"]').getAttribute('aria-pressed') === 'false'`)
				paused := dataT(t, ctx, id)
				if paused >= t1 || paused <= first {
					t.Errorf("paused at %v, want inside (%v, %v)", paused, first, t1)
				}
				frames(t, ctx, 10)
				if again := dataT(t, ctx, id); again != paused {
					t.Errorf("after pause data-t moved from %v to %v", paused, again)
				}
				// hidden future events: some, not all; or, in a flow view
				// whose marks all start at 0 (backoff's wave: every worker
				// got its 429 at once), marks on their way
				future := eval[int](t, ctx, root+`.querySelectorAll('figure[data-timeview] [data-future]').length`)
				if future == 0 && eval[int](t, ctx, moving(id)) == 0 {
					t.Errorf("paused mid-way, no element is hidden as future and no flow mark is on its way")
				}
				// the scrubber sets the time
				want := t1 / 4
				eval[bool](t, ctx, fmt.Sprintf(`(() => { const s = %s.querySelector('input[data-action="scrub"]'); s.value = '%v'; s.dispatchEvent(new Event('input', {bubbles: true})); return true; })()`, root, want))
				// data-t is written to a thousandth of the view's unit
				waitJS(t, ctx, "the scrubbed time", fmt.Sprintf(`Math.abs(%s.getAttribute('data-t') - %v) <= 0.0005 + 1e-9 * %v`, root, want, want))
				// the end state again: every element shows
				eval[bool](t, ctx, fmt.Sprintf(`(() => { const s = %s.querySelector('input[data-action="scrub"]'); s.value = s.max; s.dispatchEvent(new Event('input', {bubbles: true})); return true; })()`, root))
				waitJS(t, ctx, "the end state", root+`.querySelectorAll('figure[data-timeview] [data-future]').length === 0`)
				// player.js writes the end time as the page did
				if end := eval[string](t, ctx, timeText); end != rest {
					t.Errorf("the end time reads %q once played, %q at rest", end, rest)
				}
			})
		}
	}
}

// TestPlayReducedMotion: under prefers-reduced-motion: reduce nothing
// moves on its own: play shows the end state at once (the dispatch widget
// and the two buckets).
func TestPlayReducedMotion(t *testing.T) {
	for _, id := range []string{"disp", "limt"} {
		for _, p := range pagesWithWidget(t, id) {
			t.Run(id+"-"+p.Name(), func(t *testing.T) {
				ctx := tab(t)
				if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
					Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}}}); err != nil {
					t.Fatal(err)
				}
				open(t, ctx, p, "")
				root := fmt.Sprintf(`document.getElementById(%q)`, id)
				waitJS(t, ctx, "the player's controls", root+`.querySelector('[data-player]:not([hidden])') !== null`)
				t1 := eval[float64](t, ctx, root+`.querySelector('figure[data-timeview]').getAttribute('data-t1') * 1`)
				eval[bool](t, ctx, fmt.Sprintf(`(() => { const s = %s.querySelector('input[data-action="scrub"]'); s.value = '%v'; s.dispatchEvent(new Event('input', {bubbles: true})); return true; })()`, root, t1/3))
				waitJS(t, ctx, "the scrubber works", fmt.Sprintf(`%s.getAttribute('data-t') * 1 < %v`, root, t1))
				clickSeen(t, ctx, fmt.Sprintf(`[id=%q] button[data-action="play"]`, id))
				waitJS(t, ctx, "play jumps to the end", fmt.Sprintf(`%s.getAttribute('data-t') * 1 === %v`, root, t1))
				if pressed := eval[string](t, ctx, root+`.querySelector('button[data-action="play"]').getAttribute('aria-pressed')`); pressed != "false" {
					t.Errorf("aria-pressed %q under reduced motion", pressed)
				}
			})
		}
	}
}

// TestCompareDispatch: the dispatch widget draws both runs, the page's
// and naive workers, before and after the playground recomputes.
func TestCompareDispatch(t *testing.T) {
	for _, p := range pagesWithWidget(t, "disp") {
		t.Run(p.Name(), func(t *testing.T) {
			ctx := tab(t)
			open(t, ctx, p, "")
			root := `document.getElementById("disp")`
			if c := eval[string](t, ctx, root+`.getAttribute('data-compare') || ''`); c != "mode=naive" {
				t.Fatalf("data-compare %q", c)
			}
			// each run's queue chart (dispatch's time view is its flow,
			// which draws both modes itself)
			both := root + `.querySelector('[data-run="base"] figure svg') !== null && ` + root + `.querySelector('[data-run="variant"] figure svg') !== null && ` + root + `.querySelector('[data-compare-sentence]').textContent.length > 20`
			waitJS(t, ctx, "both runs", both)
			// the browser computes the variant again after a change
			before := eval[string](t, ctx, root+`.querySelector('[data-compare-sentence]').textContent`)
			setValue(t, ctx, "disp", "jobs", "300")
			waitJS(t, ctx, "the sentence recomputed", fmt.Sprintf(`%s.querySelector('[data-compare-sentence]') && %s.querySelector('[data-compare-sentence]').textContent !== %q`, root, root, before))
			waitJS(t, ctx, "both runs after the change", both)
		})
	}
}

// TestFewerControls: the dispatch widget shows the controls of at most 4
// parameters (distinct names of visible controls) before "more
// parameters" is opened, and the rest once it is.
func TestFewerControls(t *testing.T) {
	count := `(() => { const names = new Set();
		for (const el of document.getElementById("disp").querySelectorAll('form [name]')) {
			if (el.checkVisibility()) names.add(el.name);
		}
		return names.size; })()`
	for _, p := range pagesWithWidget(t, "disp") {
		t.Run(p.Name(), func(t *testing.T) {
			ctx := tab(t)
			open(t, ctx, p, "")
			if n := eval[int](t, ctx, count); n > 4 || n == 0 {
				t.Errorf("%d visible control names before more parameters, want 1 to 4", n)
			}
			clickSeen(t, ctx, `[id="disp"] details[data-more] > summary`)
			waitJS(t, ctx, "more parameters open", `document.querySelector('[id="disp"] details[data-more]').open`)
			if n := eval[int](t, ctx, count); n <= 4 {
				t.Errorf("%d visible control names with more parameters open", n)
			}
			// the URL sets a hidden parameter: the disclosure opens by itself
			ctx = tab(t) // a new tab: its own sessionStorage
			open(t, ctx, p, "disp.headroom=1.2")
			waitJS(t, ctx, "opened by the URL", `document.querySelector('[id="disp"] details[data-more]').open`)
		})
	}
}

// TestAdjustableNumber: a parameter cited in the prose (disp.jobs) is a
// spinbutton: the arrow key changes the widget's control, and the
// citation follows the recomputed result.
func TestAdjustableNumber(t *testing.T) {
	for _, p := range pagesWithWidget(t, "disp") {
		t.Run(p.Name(), func(t *testing.T) {
			ctx := tab(t)
			open(t, ctx, p, "")
			sel := `output[data-cite="disp.jobs"]`
			waitJS(t, ctx, "the adjustable number", fmt.Sprintf(`document.querySelector('%s[role="spinbutton"][tabindex="0"]') !== null`, sel))
			before := eval[string](t, ctx, `document.querySelector('[id="disp"] [name="jobs"]').value`)
			if err := chromedp.Do(ctx, chromedp.Focus(chromedp.CSS(sel)), chromedp.KeyEvent(kb.ArrowUp)); err != nil {
				t.Fatal(err)
			}
			v, _ := strconv.Atoi(before)
			want := strconv.Itoa(v + 10) // jobs steps by 10
			waitJS(t, ctx, "the control follows", fmt.Sprintf(`document.querySelector('[id="disp"] [name="jobs"]').value === %q`, want))
			waitJS(t, ctx, "the citation follows", fmt.Sprintf(`document.querySelector('%s').getAttribute('data-value') === %q && document.querySelector('%s').getAttribute('aria-valuenow') === %q`, sel, want, sel, want))
		})
	}
}

// TestCompareBudget: the budget widget of the retries article draws both
// runs, with the budget and without, and the prose's citations of the
// compared run ({=bud.compare.FIELD}) follow the reader's input.
func TestCompareBudget(t *testing.T) {
	for _, p := range pagesWithWidget(t, "bud") {
		t.Run(p.Name(), func(t *testing.T) {
			ctx := tab(t)
			open(t, ctx, p, "")
			root := `document.getElementById("bud")`
			if c := eval[string](t, ctx, root+`.getAttribute('data-compare') || ''`); c != "budget=false" {
				t.Fatalf("data-compare %q", c)
			}
			both := root + `.querySelector('[data-run="base"] svg') !== null && ` + root + `.querySelector('[data-run="variant"] svg') !== null`
			waitJS(t, ctx, "both runs", both)
			cite := `document.querySelector('output[data-cite="bud.compare.total_attempts"]')`
			if v := eval[string](t, ctx, cite+`.getAttribute('data-value')`); v != "300" {
				t.Fatalf("bud.compare.total_attempts = %s before any change, want 300", v)
			}
			setValue(t, ctx, "bud", "requests", "200")
			waitJS(t, ctx, "the compared run's citation follows", cite+`.getAttribute('data-value') === "600" && `+
				`document.querySelector('output[data-cite="bud.compare.retries"]').getAttribute('data-value') === "400"`)
			waitJS(t, ctx, "the page's own citation too", `document.querySelector('output[data-cite="bud.total_attempts"]').getAttribute('data-value') === "220"`)
			waitJS(t, ctx, "both runs after the change", both)
		})
	}
}
