// Package assets holds the site's own static files: the style sheet, the
// theme and loader scripts, and the icon. The build copies them into
// dist/assets/ under content-hashed names.
package assets

import "embed"

// FS holds style.css, print.css, theme.js, app.js, player.js (the time
// views' player), favicon.svg and
// playground-worker.js (the Web Worker of the playground's heavy widgets),
// search.js and search.css (the search box, issue 34).
//
//go:embed style.css print.css theme.js app.js player.js favicon.svg playground-worker.js search.js search.css
var FS embed.FS
