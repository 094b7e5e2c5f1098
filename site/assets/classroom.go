package assets

import "embed"

// Classroom holds the files of the embeds and of the exercises page
// (site/embed, site/classroom): embed.js (for host pages that frame an
// embed), embed-frame.js and embed.css (the embed page), widget-embed.js (the
// widgets' "embed" control in the articles), classroom.js and
// classroom.css. The build copies them into dist/assets/ under hashed
// names like the others.
//
//go:embed embed.js embed-frame.js embed.css widget-embed.js classroom.js classroom.css
var Classroom embed.FS
