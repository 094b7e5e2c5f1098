// Command shots writes a PNG of every widget of every page of dist/, on a
// 375 px phone (touch) and a 1280 px desktop, in the light and the dark
// scheme, under build/shots (`make shots`): pictures to review by eye, not
// goldens. A file is named PAGE-WIDGET-SIZE-SCHEME.png
// (it-policies-pol-phone-dark.png). With -full it also writes a picture
// of every whole page, widgets or not, PAGE-SIZE-SCHEME.jpg
// (it-policies-phone-dark.jpg; JPEG, quality 90: a page is tens of
// thousands of pixels tall). -pages keeps the pages whose path holds one
// of its comma-separated words.
//
// These are for a reader's eyes: they assert nothing, so they are not
// part of make test (a test of site/e2e wrote the whole pages there until
// session 30, 460 s of CI that could fail only when a screenshot could not
// be taken).
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
	full := flag.Bool("full", false, "also a picture of every whole page (PAGE-SIZE-SCHEME.jpg)")
	flag.Parse()
	if err := run(*out, *only, *full); err != nil {
		fmt.Fprintln(os.Stderr, "shots:", err)
		os.Exit(1)
	}
}

func run(out, only string, full bool) error {
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
				widgets := e2e.HasWidgets(p)
				if !keep(p.Path, only) || (!full && !widgets) {
					continue
				}
				steps := []chromedp.Action[chromedp.Void]{chromedp.Navigate(srv.URL + p.Path)}
				if widgets { // a page without a widget loads no module: nothing sets data-ready
					steps = append(steps, e2e.WaitReady(30*time.Second))
				}
				if err := chromedp.Do(ctx, steps...); err != nil {
					cancel()
					return fmt.Errorf("%s: %w", p.Path, err)
				}
				// every widget painted: a shot of a block the browser
				// skips off screen is blank (style.css, e2e.RenderAllJS)
				if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](e2e.RenderAllJS)); err != nil {
					cancel()
					return fmt.Errorf("%s: %w", p.Path, err)
				}
				if full {
					time.Sleep(50 * time.Millisecond) // fonts and layout settle
					img, err := chromedp.Run(ctx, chromedp.FullScreenshot(90))
					if err != nil {
						cancel()
						return fmt.Errorf("%s: %w", p.Path, err)
					}
					if err := os.WriteFile(filepath.Join(out, fmt.Sprintf("%s-%s-%s.jpg", p.Name(), sz.Name, scheme)), img, 0o644); err != nil {
						cancel()
						return err
					}
					n++
				}
				// a picture of the whole widget: the phone's sticky
				// picture (figure[data-picture], widget.css) would stay
				// over the part of the widget the window shows, hiding its
				// title and controls in the shot (set on the elements: the
				// pages' CSP refuses a <style>)
				ids, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`document.querySelectorAll('figure[data-picture]').forEach(f => f.style.setProperty('position', 'static', 'important')),
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
