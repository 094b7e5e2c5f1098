//go:build e2e

package e2e

import (
	"testing"
	"time"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// TestStaticNoticeWhileLoading holds the module's request of a page and
// of an embed: while the playground loads, no widget draws its "static
// page" notice (drawing it and then hiding it moved the page, and
// resized an embed's frame on its host); when the request fails, every
// widget draws it, and the pre-rendered results stay. Without JavaScript
// it is drawn (TestWithoutJavaScript).
func TestStaticNoticeWhileLoading(t *testing.T) {
	for _, path := range []string{"/es/rate-limits/", "/it/embed/policies/"} {
		t.Run(path, func(t *testing.T) {
			ctx := tab(t, "the playground did not load", "net::ERR_FAILED")
			paused := make(chan *fetch.EventRequestPaused, 16)
			go func() {
				defer close(paused) // when the tab's context ends
				for ev, err := range chromedp.Events(ctx, fetch.RequestPaused) {
					if err != nil {
						return
					}
					paused <- &ev
				}
			}()
			if _, err := chromedp.Call(ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*.wasm"}}}); err != nil {
				t.Fatal(err)
			}
			if err := chromedp.Do(ctx, chromedp.Navigate(env.srv.URL+path)); err != nil {
				t.Fatal(err)
			}
			var held *fetch.EventRequestPaused
			select {
			case held = <-paused:
			case <-time.After(30 * time.Second):
				t.Fatal("the page asked for no module within 30 s")
			}
			// the module's request is held: the page is loading
			if r := eval[string](t, ctx, `document.documentElement.getAttribute('data-ready') || ''`); r != "" {
				t.Fatalf("data-ready=%q while the module's request is held", r)
			}
			ws, err := widgets(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if len(ws) == 0 {
				t.Fatal("no widgets")
			}
			for _, w := range ws {
				if w.Static || w.Live {
					t.Errorf("%s while loading: static notice drawn=%v, live=%v", w.ID, w.Static, w.Live)
				}
			}
			// fail it, and any other request of a module
			fail := func(ev *fetch.EventRequestPaused) {
				if _, err := chromedp.Call(ctx, fetch.FailRequest, fetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: network.ErrorReasonFailed}); err != nil {
					t.Errorf("failing %s: %v", ev.Request.URL, err)
				}
			}
			fail(held)
			go func() {
				for ev := range paused {
					if ctx.Err() != nil {
						return // the test is over
					}
					fail(ev)
				}
			}()
			waitJS(t, ctx, "the loader's failure", `document.documentElement.getAttribute('data-ready') === 'error'`)
			ws, err = widgets(ctx)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range ws {
				if !w.Static || w.Live {
					t.Errorf("%s after the module failed: static notice drawn=%v, live=%v", w.ID, w.Static, w.Live)
				}
				for _, o := range w.Outs {
					if o[1] == "" {
						t.Errorf("%s: %s lost its pre-rendered value", w.ID, o[0])
					}
				}
			}
		})
	}
}
