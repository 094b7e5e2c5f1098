//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"math"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"retrylab/core/calc"
)

// The request-flow views (issue 30; site/widget/flow.go, site/assets/player.js):
// policies (storm), jitter (jit), backoff (bo), dispatch (disp) and
// amplification (amp), in each language.

// flowIDs are the widgets whose page shows a flow view.
var flowIDs = []string{"storm", "jit", "bo", "disp", "amp"}

// flowWant is what each lane's counters hold at the end: the result's
// exact figures, computed here from the widget's page values.
func flowWant(t *testing.T, calcName, defaults, lane string) map[string]float64 {
	t.Helper()
	c, ok := calc.New().Lookup(calcName)
	if !ok {
		t.Fatalf("no calculator %s", calcName)
	}
	q, err := url.ParseQuery(defaults)
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Compute(q)
	if err != nil {
		t.Fatal(err)
	}
	switch r := res.(type) {
	case calc.DispatchResult:
		// the lane's mode, whatever the page's
		q.Set("mode", lane)
		other, err := c.Compute(q)
		if err != nil {
			t.Fatal(err)
		}
		d := other.(calc.DispatchResult)
		return map[string]float64{"ready": 0, "delayed": 0, "in_flight": 0, "rate_limited": float64(d.RateLimited), "retries": float64(d.Retries)}
	case calc.PoliciesResult:
		for _, p := range r.Results {
			if p.Policy == lane {
				return map[string]float64{"in_flight": 0, "queue": 0, "served": float64(p.Succeeded), "retries": float64(p.Retries), "wasted_s": p.WastedWork}
			}
		}
		t.Fatalf("no policy %q in the result", lane)
	case calc.JitterResult:
		return map[string]float64{"arrived": float64(r.Total), "fullest": float64(r.Peak)}
	case calc.BackoffResult:
		return map[string]float64{"arrived": float64(r.Retries), "fullest": float64(r.Peak)}
	case calc.AmplificationResult:
		sum := 0.0
		for _, v := range r.CallsPerLevel {
			n, _ := v.Int64()
			sum += float64(n)
		}
		final, _ := r.FinalCalls.Int64()
		return map[string]float64{"calls": sum, "final_calls": float64(final)}
	}
	t.Fatalf("%s: no flow counters known for %T", calcName, res)
	return nil
}

// flowState is, in JS, the state of a widget's flow view: the marks at
// rest (each lane's path of each state) and every counter's value.
func flowState(id string) string {
	return fmt.Sprintf(`(() => { const f = document.getElementById(%q).querySelector('figure[data-flow]');
		const m = [...f.querySelectorAll('g.flow-marks path.flow-mark')].map(e => e.getAttribute('class') + ':' + e.getAttribute('d'));
		const c = [...f.querySelectorAll('dd[data-counter]')].map(e => e.getAttribute('data-counter') + '=' + e.getAttribute('data-value'));
		return m.join('|') + '#' + c.join(','); })()`, id)
}

// marksJS reads a g.flow-marks' marks (data-marks): a list of keyframes
// [t, x, y, state] per mark.
const marksJS = `(g => (g.getAttribute('data-marks') || '').split('|').filter(Boolean).map(m => m.split(';').map(k => k.split(' ').map(Number))))`

// moving counts the marks drawn at rest away from every mark's last
// keyframe: on their way.
func moving(id string) string {
	return fmt.Sprintf(`(() => { let n = 0;
		for (const g of document.getElementById(%q).querySelectorAll('figure[data-flow] g.flow-marks')) {
			const r = g.getAttribute('data-r') * 1, ends = new Set(%s(g).map(k => k[k.length - 1][1] + ' ' + k[k.length - 1][2]));
			for (const p of g.querySelectorAll('path.flow-mark'))
				for (const a of (p.getAttribute('d') || '').matchAll(/M([-\d.]+) ([-\d.]+)a/g))
					if (!ends.has(Math.round((a[1] * 1 + r) * 10) / 10 + ' ' + a[2] * 1)) n++;
		}
		return n; })()`, id, marksJS)
}

// checkCounters compares each lane's counters with the result's figures.
func checkCounters(t *testing.T, ctx context.Context, id, calcName string) {
	t.Helper()
	root := fmt.Sprintf(`document.getElementById(%q)`, id)
	defaults := eval[string](t, ctx, root+`.getAttribute('data-defaults')`)
	lanes := eval[[]string](t, ctx, root+`.querySelector('figure[data-flow]') ? [...`+root+`.querySelectorAll('figure[data-flow] .widget-flow-lane')].map(l => l.getAttribute('data-lane')) : []`)
	if len(lanes) == 0 {
		t.Fatal("no lane")
	}
	for i, lane := range lanes {
		want := flowWant(t, calcName, defaults, lane)
		got := eval[map[string]string](t, ctx, fmt.Sprintf(`Object.fromEntries([...%s.querySelectorAll('figure[data-flow] .widget-flow-lane')[%d].querySelectorAll('dd[data-counter]')].map(e => [e.getAttribute('data-counter'), e.getAttribute('data-value')]))`, root, i))
		if len(got) != len(want) {
			t.Errorf("lane %q: counters %v, want %v", lane, got, want)
		}
		for k, w := range want {
			var v float64
			if _, err := fmt.Sscan(got[k], &v); err != nil || math.Abs(v-w) > 1e-9*math.Max(1, math.Abs(w)) {
				t.Errorf("lane %q: counter %s = %q, want %v", lane, k, got[k], w)
			}
		}
	}
}

// TestFlow: mid-play, marks are on their way and data-t grows; scrubbing
// to the time play reached shows the same marks and counters; at the end
// the counters are the result's exact figures.
func TestFlow(t *testing.T) {
	for _, id := range flowIDs {
		for _, p := range pagesWithWidget(t, id) {
			t.Run(id+"-"+p.Name(), func(t *testing.T) {
				ctx := tab(t)
				open(t, ctx, p, "")
				root := fmt.Sprintf(`document.getElementById(%q)`, id)
				calcName := eval[string](t, ctx, root+`.getAttribute('data-widget')`)
				waitJS(t, ctx, "the flow view's controls", root+`.querySelector('figure[data-flow] [data-player]:not([hidden])') !== null`)
				checkCounters(t, ctx, id, calcName)
				// the end of the widget's player: the latest of its time
				// figures' ends (a comparison's may end after the flow)
				t1 := eval[float64](t, ctx, root+`.querySelector('figure[data-flow] input[data-action="scrub"]').max * 1`)
				eval[bool](t, ctx, root+`.querySelector('figure[data-flow] button[data-action="play"]').click() || true`)
				first := dataT(t, ctx, id)
				waitJSFor(t, ctx, 20e9, "data-t to grow", fmt.Sprintf(`%s.getAttribute('data-t') * 1 > %v`, root, first))
				// while it plays the marks are drawn on a canvas per lane
				// (player.js flowShow), and the figure counts those on their
				// way (data-moving)
				waitJSFor(t, ctx, 30e9, "marks on their way, drawn on the lanes' canvases", root+`.querySelector('figure[data-flow]').getAttribute('data-moving') * 1 > 0 && `+root+`.querySelector('figure[data-flow].flow-live canvas.flow-live-marks') !== null`)
				// in one frame, each lane's canvas draws each of its marks
				// on their way by the time it was drawn at (retrylabT: a
				// mark's first keyframe at or before it), lies over the
				// lane's drawing, and is painted where a mark is
				if bad := eval[string](t, ctx, root+`.querySelector('figure[data-flow].flow-live') ? [...`+root+`.querySelectorAll('figure[data-flow] svg.flow')].map((svg, i) => {
					const c = svg.parentNode.querySelector('canvas.flow-live-marks');
					if (!c) return 'lane ' + i + ': no canvas; ';
					const shown = `+marksJS+`(svg.querySelector('g.flow-marks')).filter(k => k[0][0] <= c.retrylabT).length;
					const a = svg.getBoundingClientRect(), b = c.getBoundingClientRect();
					if (Math.abs(a.left - b.left) > 1 || Math.abs(a.top - b.top) > 1 || Math.abs(a.width - b.width) > 1 || Math.abs(a.height - b.height) > 1)
						return 'lane ' + i + ': the canvas is at ' + [b.left, b.top, b.width, b.height] + ', its drawing at ' + [a.left, a.top, a.width, a.height] + '; ';
					const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
					let painted = 0;
					for (let j = 3; j < px.length; j += 4) if (px[j]) painted++;
					if (shown > 0 && painted === 0) return 'lane ' + i + ': ' + shown + ' marks shown, the canvas is blank; ';
					return shown === c.retrylabDrawn ? '' : 'lane ' + i + ': ' + shown + ' marks shown, ' + c.retrylabDrawn + ' drawn; ';
				}).join('') : ''`); bad != "" {
					t.Errorf("playing: %s", bad)
				}
				// pause where play got to
				eval[bool](t, ctx, root+`.querySelector('button[data-action="play"]').click() || true`)
				waitJS(t, ctx, "paused", root+`.querySelector('button[data-action="play"]').getAttribute('aria-pressed') === 'false'`)
				at := eval[string](t, ctx, root+`.querySelector('figure[data-flow] input[data-action="scrub"]').value`)
				played := eval[string](t, ctx, flowState(id))
				// at rest the paths are the marks again
				if n := eval[int](t, ctx, root+`.querySelectorAll('figure[data-flow].flow-live, figure[data-flow][data-moving]').length`); n != 0 {
					t.Errorf("paused: %d flow figures still drawn as playing", n)
				}
				if n := eval[int](t, ctx, moving(id)); n == 0 && dataT(t, ctx, id) < t1 {
					t.Errorf("paused at %s: no mark on its way", at)
				}
				scrub := func(v string) {
					eval[bool](t, ctx, fmt.Sprintf(`(() => { const s = %s.querySelector('figure[data-flow] input[data-action="scrub"]'); s.value = %s; s.dispatchEvent(new Event('input', {bubbles: true})); return true; })()`, root, v))
				}
				scrub("s.max")
				waitJS(t, ctx, "the end", fmt.Sprintf(`%s.getAttribute('data-t') * 1 === %v`, root, t1))
				checkCounters(t, ctx, id, calcName)
				scrub(fmt.Sprintf("%q", at))
				if scrubbed := eval[string](t, ctx, flowState(id)); scrubbed != played {
					t.Errorf("scrubbed to %s, the view differs from play's at %s:\n%s\n%s", at, at, clip(played), clip(scrubbed))
				}
			})
		}
	}
}

// TestFlowReducedMotion: under prefers-reduced-motion: reduce, play shows
// the end state at once (the exact counters), and the step button steps
// from the start, frame by frame.
func TestFlowReducedMotion(t *testing.T) {
	for _, id := range flowIDs {
		for _, p := range pagesWithWidget(t, id) {
			t.Run(id+"-"+p.Name(), func(t *testing.T) {
				ctx := tab(t)
				if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
					Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}}}); err != nil {
					t.Fatal(err)
				}
				open(t, ctx, p, "")
				root := fmt.Sprintf(`document.getElementById(%q)`, id)
				calcName := eval[string](t, ctx, root+`.getAttribute('data-widget')`)
				waitJS(t, ctx, "the flow view's controls", root+`.querySelector('figure[data-flow] [data-player]:not([hidden])') !== null`)
				// the end of the widget's player: the latest of its time
				// figures' ends (a comparison's may end after the flow)
				t1 := eval[float64](t, ctx, root+`.querySelector('figure[data-flow] input[data-action="scrub"]').max * 1`)
				eval[bool](t, ctx, fmt.Sprintf(`(() => { const s = %s.querySelector('figure[data-flow] input[data-action="scrub"]'); s.value = '%v'; s.dispatchEvent(new Event('input', {bubbles: true})); return true; })()`, root, t1/3))
				waitJS(t, ctx, "the scrubber works", fmt.Sprintf(`%s.getAttribute('data-t') * 1 < %v`, root, t1))
				eval[bool](t, ctx, root+`.querySelector('figure[data-flow] button[data-action="play"]').click() || true`)
				waitJS(t, ctx, "play jumps to the end", fmt.Sprintf(`%s.getAttribute('data-t') * 1 === %v`, root, t1))
				checkCounters(t, ctx, id, calcName)
				step := root + `.querySelector('figure[data-flow] button[data-action="step"]').click() || true`
				eval[bool](t, ctx, step)
				waitJS(t, ctx, "a step from the end goes to the start", root+`.getAttribute('data-t') * 1 === 0`)
				eval[bool](t, ctx, step)
				waitJS(t, ctx, "a step goes to the first frame", fmt.Sprintf(`%s.getAttribute('data-t') * 1 > 0 && %s.getAttribute('data-t') * 1 < %v`, root, root, t1))
			})
		}
	}
}

func clip(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return strings.TrimSpace(s)
}

// TestPlayerQuiet: while a player plays, its scrubber is set only when its
// thumb moves by a pixel and its time text at most every CLOCK_MS
// (player.js show; read from the controls' data-clock-ms): either change
// is a layout of the page, which a phone cannot afford at every frame
// beside the drawing. Counted over about 120 frames of the policies
// storm, whatever the machine's frame rate: at most a set per pixel the
// thumb moved (and the sets of play and pause), at most a text per
// CLOCK_MS of the page's clock.
func TestPlayerQuiet(t *testing.T) {
	const id = "storm"
	for _, p := range pagesWithWidget(t, id) {
		t.Run(p.Name(), func(t *testing.T) {
			ctx := tab(t)
			open(t, ctx, p, "")
			root := fmt.Sprintf(`document.getElementById(%q)`, id)
			waitJS(t, ctx, "the flow view's controls", root+`.querySelector('figure[data-flow] [data-player]:not([hidden])') !== null`)
			clock := eval[float64](t, ctx, `Number(`+root+`.querySelector('figure[data-flow] [data-player]').getAttribute('data-clock-ms'))`)
			if !(clock > 0) {
				t.Fatalf("the player's controls have no data-clock-ms (player.js attach writes CLOCK_MS there): read %v", clock)
			}
			eval[bool](t, ctx, `(() => {
				const root = `+root+`, s = root.querySelector('input[data-action="scrub"]');
				const d = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value');
				// counted from here: the clock, the sets, the texts (one at
				// play, one a CLOCK_MS while playing, one at pause)
				window.quiet = {sets: 0, texts: 0, frames: 0, start: Date.now()};
				Object.defineProperty(s, 'value', {configurable: true, get() { return d.get.call(this); }, set(v) { window.quiet.sets++; d.set.call(this, v); }});
				new MutationObserver(l => { window.quiet.texts += l.length; }).observe(root.querySelector('[data-player-time]'), {childList: true, characterData: true, subtree: true});
				const f = () => { window.quiet.frames++; requestAnimationFrame(f); };
				requestAnimationFrame(f);
				return true;
			})()`)
			clickSeen(t, ctx, fmt.Sprintf(`[id=%q] figure[data-flow] button[data-action="play"]`, id))
			frames(t, ctx, 120)
			eval[bool](t, ctx, root+`.querySelector('figure[data-flow] button[data-action="play"]').click() || true`)
			waitJS(t, ctx, "paused", root+`.querySelector('button[data-action="play"]').getAttribute('aria-pressed') === 'false'`)
			type counts struct {
				Sets, Texts, Frames int
				MS, PX              float64
			}
			c := eval[counts](t, ctx, `(() => {
				const s = `+root+`.querySelector('input[data-action="scrub"]');
				const q = window.quiet, u = (s.value - s.min) / (s.max - s.min);
				return {Sets: q.sets, Texts: q.texts, Frames: q.frames, MS: Date.now() - q.start, PX: u * s.getBoundingClientRect().width};
			})()`)
			t.Logf("%d frames in %.0f ms, the thumb at %.1f px: %d scrubber sets, %d time texts", c.Frames, c.MS, c.PX, c.Sets, c.Texts)
			if c.Frames < 100 {
				t.Fatalf("%d frames counted while playing, want at least 100", c.Frames)
			}
			// play sets the start, its first frame the thumb's first pixel,
			// pause the time shown (once: show, at rest, finds it set); +1
			// for the rounding of the thumb's last pixel
			if max := int(math.Ceil(c.PX)) + 4; c.Sets > max {
				t.Errorf("the scrubber was set %d times as its thumb moved %.1f px, want at most %d", c.Sets, c.PX, max)
			}
			if max := int(c.MS/clock) + 3; c.Texts > max {
				t.Errorf("the time text changed %d times in %.0f ms, want at most %d (one per %v ms)", c.Texts, c.MS, max, clock)
			}
			// a scrub while playing pauses at the reader's time (not at the
			// time play had reached, which pause writes to the scrubber)
			eval[bool](t, ctx, root+`.querySelector('figure[data-flow] button[data-action="play"]').click() || true`)
			waitJS(t, ctx, "playing again", root+`.querySelector('button[data-action="play"]').getAttribute('aria-pressed') === 'true'`)
			want := eval[float64](t, ctx, root+`.querySelector('input[data-action="scrub"]').max / 4`)
			eval[bool](t, ctx, fmt.Sprintf(`(() => { const s = %s.querySelector('input[data-action="scrub"]'); s.value = '%v'; s.dispatchEvent(new Event('input', {bubbles: true})); return true; })()`, root, want))
			waitJS(t, ctx, "paused at the scrubbed time", fmt.Sprintf(`%s.querySelector('button[data-action="play"]').getAttribute('aria-pressed') === 'false' && Math.abs(%s.getAttribute('data-t') - %v) <= 0.0005 + 1e-9 * %v`, root, root, want, want))
		})
	}
}
