package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"retrylab/site/e2e"
)

// flowFrames measures the frames of the request-flow views (issue 30;
// site/widget/flow.go, moved by site/assets/player.js) while they play at
// their pages' values, 1×, on the desktop and with the CPU slowed 4×
// (Lighthouse's mobile setting): p95 of the script time per frame (the
// player's work: every mark's place, the counters) and of the interval
// between frames. Goal: script p95 <= frameMS, interval p95 within one
// and a half frames at 60 Hz (as playFrames).
func flowFrames(browser context.Context, base string, pages []e2e.Page) error {
	fmt.Printf("\n## frame time while the request-flow views play (their pages' values, 1x, up to 30 s of playback)\n")
	for _, name := range []string{"policies", "dispatch", "backoff", "jitter", "amplification"} {
		p, id, ok := findFlowWidget(pages, name)
		if !ok {
			fmt.Printf("(no %s widget with a flow view in dist/)\n", name)
			continue
		}
		for _, rate := range []float64{1, 4} {
			if err := flowFramesOf(browser, base, p, id, rate); err != nil {
				return err
			}
		}
	}
	return nil
}

func flowFramesOf(browser context.Context, base string, p e2e.Page, id string, rate float64) error {
	ctx, cancel := chromedp.NewContext(browser)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate(base+p.Path), e2e.WaitReady(60*time.Second)); err != nil {
		return fmt.Errorf("%s: %w", p.Path, err)
	}
	if _, err := chromedp.Call(ctx, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: rate}); err != nil {
		return err
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
	where := fmt.Sprintf("%s #%s, CPU %gx", p.Path, id, rate)
	if len(r.Gaps) == 0 {
		fmt.Printf("%s: no frame measured\n", where)
		return nil
	}
	sp95, gp95 := percentile(r.Script, 95), percentile(r.Gaps, 95)
	fmt.Printf("%-44s %6d frames  script p50 %6.2f ms  p95 %6.2f ms  max %6.2f ms  interval p50 %6.2f ms  p95 %6.2f ms  goal p95 <= %g ms: %s\n",
		where, len(r.Gaps), median(r.Script), sp95, percentile(r.Script, 100), median(r.Gaps), gp95, frameMS, verdict(sp95 <= frameMS && gp95 <= 16.7*1.5))
	return nil
}

// findFlowWidget is the first widget of calculator name whose built HTML
// holds a flow view.
func findFlowWidget(pages []e2e.Page, name string) (e2e.Page, string, bool) {
	for w := range builtWidgets(pages, name) {
		if w.id != "" && strings.Contains(w.body, "data-flow") {
			return w.page, w.id, true
		}
	}
	return e2e.Page{}, "", false
}
