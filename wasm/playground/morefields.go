//go:build js && wasm

package playground

import (
	"honnef.co/go/js/dom/v2"

	render "retrylab/site/widget"
)

// moreFields makes the fields of root's "more parameters" disclosures,
// which the page writes inside <noscript data-more-fields> (site/widget
// writeFields): a browser that runs scripts keeps a noscript's content as
// text, so that Chromium does not lay out each closed disclosure holding a
// field while the page loads (issue 33). The text becomes markup in place;
// a noscript parsed without scripts (its fields already elements) is
// unwrapped the same way. player.js's retrylabFields does the same when
// the widget nears the viewport; whichever comes first, the other finds
// nothing to do.
func moreFields(root *dom.BasicHTMLElement) {
	for _, e := range root.QuerySelectorAll("noscript[" + render.MoreFieldsAttr + "]") {
		n := elem(e)
		if n.QuerySelector("*") != nil {
			n.SetOuterHTML(n.InnerHTML())
		} else {
			n.SetOuterHTML(n.TextContent())
		}
	}
}
