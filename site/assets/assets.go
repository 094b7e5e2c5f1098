// Package assets holds the site's own static files: the style sheet, the
// theme and loader scripts, and the icon. The build copies them into
// dist/assets/ under content-hashed names.
package assets

import "embed"

// FS holds style.css, print.css, theme.js, app.js and favicon.svg.
//
//go:embed style.css print.css theme.js app.js favicon.svg
var FS embed.FS
