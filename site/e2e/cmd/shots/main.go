// Command shots writes a PNG of every widget of every page of dist/, on a
// 375 px phone (touch) and a 1280 px desktop, in the light and the dark
// scheme, under build/shots (`make shots`): pictures to review by eye, not
// goldens. A file is named PAGE-WIDGET-SIZE-SCHEME.png
// (it-policies-pol-phone-dark.png). -pages keeps the pages whose path
// holds one of its comma-separated words.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/chromedp/chromedp"

	"retrylab/site/e2e"
)

func main() {
	out := flag.String("out", "build/shots", "the folder of the pictures")
	only := flag.String("pages", "", "comma-separated words: keep the pages whose path holds one")
	flag.Parse()
	if err := run(*out, *only); err != nil {
		fmt.Fprintln(os.Stderr, "shots:", err)
		os.Exit(1)
	}
}

func run(out, only string) error {
	root, err := e2e.Root()
	if err != nil {
		return err
	}
	dist := filepath.Join(root, "dist")
	if err := e2e.Check(dist); err != nil {
		return err
	}
	pages, err := e2e.Pages(dist)
	if err != nil {
		return err
	}
	srv, err := e2e.Serve(dist)
	if err != nil {
		return err
	}
	defer srv.Close()
	if !filepath.IsAbs(out) {
		out = filepath.Join(root, out)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	b, cancel, err := e2e.Browser(context.Background())
	if err != nil {
		return err
	}
	defer cancel()
	n := 0
	for _, sz := range e2e.LayoutSizes {
		for _, scheme := range []string{"light", "dark"} {
			ctx, cancel := chromedp.NewContext(b)
			if err := e2e.Emulate(ctx, sz, scheme); err != nil {
				cancel()
				return err
			}
			for _, p := range pages {
				if !keep(p.Path, only) || !e2e.HasWidgets(p) {
					continue
				}
				if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+p.Path), e2e.WaitReady(30*time.Second)); err != nil {
					cancel()
					return fmt.Errorf("%s: %w", p.Path, err)
				}
				// every widget painted: a shot of a block the browser
				// skips off screen is blank (style.css, e2e.RenderAllJS)
				if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](e2e.RenderAllJS)); err != nil {
					cancel()
					return fmt.Errorf("%s: %w", p.Path, err)
				}
				// a picture of the whole widget: the phone's sticky chart
				// (widget.css) would stay over the part of the widget the
				// window shows, hiding its title and controls in the shot
				// (set on the elements: the pages' CSP refuses a <style>)
				ids, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`document.querySelectorAll('.widget-result > figure.widget-chart').forEach(f => f.style.setProperty('position', 'static', 'important')),
					[...document.querySelectorAll('[data-widget]')].map(w => w.id)`))
				if err != nil {
					cancel()
					return err
				}
				for _, id := range ids {
					img, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS("#"+id)))
					if err != nil {
						cancel()
						return fmt.Errorf("%s #%s: %w", p.Path, id, err)
					}
					f := filepath.Join(out, fmt.Sprintf("%s-%s-%s-%s.png", p.Name(), id, sz.Name, scheme))
					if err := os.WriteFile(f, img, 0o644); err != nil {
						cancel()
						return err
					}
					n++
				}
			}
			cancel()
		}
	}
	fmt.Printf("shots: %d pictures in %s\n", n, out)
	return nil
}

func keep(path, only string) bool {
	if only == "" {
		return true
	}
	for _, w := range strings.Split(only, ",") {
		if w != "" && strings.Contains(path, w) {
			return true
		}
	}
	return false
}
