package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/chromedp/chromedp"

	"retrylab/site/e2e"
)

// playJS plays the time view of widget ID from the start and resolves, at
// the end of the playback (or after 30 s), with the frames seen: gaps,
// the intervals between animation frames (ms), and script, the script
// time of each frame up to this callback (ms). The callback is queued
// after the player's in every frame (play registers its first), so
// script is the player's work per frame: hiding and showing elements,
// the cursor, the scrubber and the time text.
const playJS = `new Promise((resolve) => {
  const root = document.getElementById(ID);
  const btn = root.querySelector('button[data-action="play"]');
  const gaps = [], script = [];
  let last = 0;
  const done = () => resolve({gaps, script});
  const tick = (ts) => {
    script.push(performance.now() - ts);
    if (last) gaps.push(ts - last);
    last = ts;
    if (btn.getAttribute('aria-pressed') === 'true') requestAnimationFrame(tick); else done();
  };
  btn.click();
  requestAnimationFrame(tick);
  setTimeout(done, 30000);
})`

// playFrames measures the frames of the playback of the dispatch widget's
// time view and of the two buckets' (limits' play view) at their pages'
// values: p95 of the script time per frame and of the interval between
// frames (one frame at 60 Hz is 16.7 ms; a longer interval is a dropped
// frame).
func playFrames(browser context.Context, base string, pages []e2e.Page) error {
	for _, name := range []string{"dispatch", "limits"} {
		if err := playFramesOf(browser, base, pages, name); err != nil {
			return err
		}
	}
	return nil
}

func playFramesOf(browser context.Context, base string, pages []e2e.Page, name string) error {
	p, id, ok := findPlayWidget(pages, name)
	fmt.Printf("\n## frame time while the %s widget plays its time view (its page's values, 1x, the whole playback)\n", name)
	if !ok {
		fmt.Printf("(no %s widget with a time view in dist/)\n", name)
		return nil
	}
	ctx, cancel := chromedp.NewContext(browser)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate(base+p.Path), e2e.WaitReady(30*time.Second)); err != nil {
		return fmt.Errorf("%s: %w", p.Path, err)
	}
	type result struct {
		Gaps   []float64 `json:"gaps"`
		Script []float64 `json:"script"`
	}
	js := "(() => { const ID = " + strconv.Quote(id) + "; return " + playJS + "; })()"
	r, err := chromedp.Run(ctx, chromedp.Evaluate[result](js, chromedp.EvalAwaitPromise))
	if err != nil {
		return fmt.Errorf("%s: playback: %w", p.Path, err)
	}
	if len(r.Gaps) == 0 {
		fmt.Printf("%s #%s: no frame measured\n", p.Path, id)
		return nil
	}
	sp95 := percentile(r.Script, 95)
	fmt.Printf("%-40s %6d frames  script p50 %6.2f ms  p95 %6.2f ms  max %6.2f ms  interval p50 %6.2f ms  p95 %6.2f ms\n",
		p.Path+" #"+id, len(r.Gaps), median(r.Script), sp95, percentile(r.Script, 100), median(r.Gaps), percentile(r.Gaps, 95))
	fmt.Printf("goal: p95 frame time <= 16 ms during playback: %s (script p95 %.2f ms; interval p95 %.2f ms)\n",
		verdict(sp95 <= 16 && percentile(r.Gaps, 95) <= 16.7*1.5), sp95, percentile(r.Gaps, 95))
	return nil
}

// findPlayWidget is the first widget of calculator name (pages before
// embeds) whose built HTML holds a time view.
func findPlayWidget(pages []e2e.Page, name string) (e2e.Page, string, bool) {
	for w := range builtWidgets(pages, name) {
		if w.id != "" && strings.Contains(w.body, "data-timeview") {
			return w.page, w.id, true
		}
	}
	return e2e.Page{}, "", false
}
