package pages

import (
	"fmt"
	"runtime"
	"sync"

	"retrylab/site/embed"
	"retrylab/site/markdown"
	"retrylab/site/preview"
	"retrylab/site/widget"
)

// Link previews (issue 34): with Config.Previews every page of a
// language and every embed page gets a PNG card (site/preview) named by
// its Open Graph and Twitter tags: LANG/og/SLUG.png (the index:
// LANG/og/index.png) with the page's title and its first chart at the
// article's values, LANG/og/embed-NAME.png with the widget's title and its
// chart at the calculator's defaults. The charts are the ones the build
// already computed; drawing needs no browser.

// ogImage is a card to draw.
type ogImage struct {
	file string
	lang string
	card preview.Card
}

// previewFile is where the card of page slug of lang goes.
func previewFile(lang, slug string) string {
	if slug == "" {
		slug = "index"
	}
	return lang + "/og/" + slug + ".png"
}

// embedPreviewFile is where the card of the embed of calculator name goes.
func embedPreviewFile(lang, name string) string { return lang + "/og/embed-" + name + ".png" }

// pageChart returns the chart of the first widget of p that draws one,
// as a standalone SVG at the page's values; nil for none.
func pageChart(p *markdown.Page, lang string, b *builder) []byte {
	loc := b.locales[lang]
	for _, w := range p.Widgets {
		if w.Kind != "widget" || w.Result == nil {
			continue
		}
		view := embed.ChartView(w.Calc)
		if view == "" {
			continue
		}
		out, err := widget.All().RenderOutput(w.Calc, w.Args, w.Result, []string{view}, loc)
		if err != nil {
			continue
		}
		if svg, err := embed.Standalone(out); err == nil {
			return svg
		}
	}
	return nil
}

// drawPreviews draws the cards, in parallel, into the site's files.
func (b *builder) drawPreviews(cards []ogImage) error {
	errs := make([]error, len(cards))
	out := make([][]byte, len(cards))
	var wg sync.WaitGroup
	sem := make(chan struct{}, max(1, runtime.GOMAXPROCS(0)))
	for i, c := range cards {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			fonts, err := preview.FontsFor(c.lang)
			if err != nil {
				errs[i] = fmt.Errorf("build: %s: %v", c.file, err)
				return
			}
			out[i], errs[i] = preview.PNG(c.card, fonts)
			if errs[i] != nil {
				errs[i] = fmt.Errorf("build: %s: %v", c.file, errs[i])
			}
		}()
	}
	wg.Wait()
	for i, c := range cards {
		if errs[i] != nil {
			return errs[i]
		}
		b.files[c.file] = out[i]
	}
	return nil
}
