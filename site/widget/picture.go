package widget

import "strings"

// The widget's picture (issue 30, "picture beside its controls"): the one
// figure that a phone keeps in sight, stuck to the bottom of the screen
// under the controls, while the reader drags them (widget.css,
// figure[data-picture]). It is chosen here, with the markup, rather than
// by a selector over the result:
//   - the first view drawn that is a chart in SVG: a figure whose class is
//     widget-chart alone (not a player, a flow, a snippet or an
//     idempotency key), not the metrics text, whose svg comes first or
//     right after its title (which a classification table's does not);
//   - where the result has none, the first such chart of the page's own
//     run (data-run="base") in its first comparison (compare.go): the run
//     that the controls change. That comparison's section then carries
//     data-picture-in: on a phone its boxes give way (display: contents),
//     so that the picture sticks within the widget, and the page's run
//     comes, whole, right after the controls.
//
// A result with no chart in SVG has no picture: nothing sticks.
const (
	pictureFigure  = `<figure class="widget-chart" `
	compareSection = `<section class="widget-compare" `
	baseRunTag     = `<div class="widget-compare-run" data-run="base">`
	variantRunTag  = `<div class="widget-compare-run" data-run="variant">`
)

// markPicture returns html, a result's markup, with its picture marked;
// starts are where its views drawn begin, in order.
func markPicture(html string, starts []int) string {
	for _, at := range starts {
		if isPicture(html[at:]) {
			return withAttr(html, at, " data-picture")
		}
	}
	for _, at := range starts {
		if !strings.HasPrefix(html[at:], compareSection) {
			continue
		}
		base := strings.Index(html[at:], baseRunTag)
		if base < 0 {
			return html
		}
		from := at + base + len(baseRunTag)
		run := html[from:]
		if end := strings.Index(run, variantRunTag); end >= 0 {
			run = run[:end]
		}
		for i := 0; ; {
			j := strings.Index(run[i:], pictureFigure)
			if j < 0 {
				return html
			}
			fig := from + i + j
			if isPicture(html[fig:]) {
				return withAttr(withAttr(html, fig, " data-picture"), at, " data-picture-in")
			}
			i += j + len(pictureFigure)
		}
	}
	return html
}

// withAttr returns html with attr (" name") added at the end of the
// start tag at at (after its other attributes).
func withAttr(html string, at int, attr string) string {
	end := at + strings.IndexByte(html[at:], '>')
	return html[:end] + attr + html[end:]
}

// isPicture reports whether s begins with a figure that can be the
// widget's picture (see markPicture): its svg comes first, or right after
// its title (writeFigTitle's p), as chart.go and views.go write it.
func isPicture(s string) bool {
	if !strings.HasPrefix(s, pictureFigure) || strings.HasPrefix(s[len(pictureFigure):], `data-view="metrics"`) {
		return false
	}
	s = s[strings.IndexByte(s, '>')+1:]
	if strings.HasPrefix(s, "<p") {
		end := strings.Index(s, "</p>")
		if end < 0 {
			return false
		}
		s = s[end+len("</p>"):]
	}
	return strings.HasPrefix(s, "<svg ")
}
