//go:build !(js && wasm)

package widget

import _ "embed"

// CSS returns the stylesheet of the widget markup (widget.css): controls,
// tables, charts, light and dark themes, .visually-hidden. The build adds
// it to the site's style sheet. It is left out of GOOS=js GOARCH=wasm
// builds: the browser's module has no use for it, and embedding it would
// link embed, io/fs and time there.
//
// The roles' colours (grammar.go) and the policies' (policycolours.go)
// follow it. It is built on each call (the build calls it once), not at
// start-up.
func CSS() string { return widgetCSS + paletteCSS() + policyCSS() }

//go:embed widget.css
var widgetCSS string
