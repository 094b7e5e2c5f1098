//go:build js && wasm

package playground

import (
	"honnef.co/go/js/dom/v2"

	render "retrylab/site/widget"
)

// makeFields makes root's fields, which the page writes inside
// <noscript data-fields> (site/widget writeFields): the "more parameters"
// ones always, the shown ones and the form's buttons on an article, a
// player's controls and configure's copy buttons everywhere (the widget's
// show makes those of each output it writes). A browser that runs scripts
// keeps a noscript's content as text, so that Chromium neither lays out
// each closed disclosure holding a field nor visits every field of the
// page while it loads (issue 33). The text becomes markup in place; a
// noscript parsed without scripts (its fields already elements) is
// unwrapped the same way. player.js's retrylabFields does the same when
// the widget nears the viewport; whichever comes first, the other finds
// nothing to do.
func makeFields(root *dom.BasicHTMLElement) {
	for _, n := range findAll(root, "noscript["+render.FieldsAttr+"]") {
		if find(n, "*") != nil {
			n.SetOuterHTML(n.InnerHTML())
		} else {
			n.SetOuterHTML(n.TextContent())
		}
	}
}
