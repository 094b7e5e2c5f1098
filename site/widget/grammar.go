package widget

import (
	"strconv"
	"strings"
)

// The visual grammar of every figure (issue 30), declared once here: a
// colour is bound to a meaning (a role), not to the position of a
// series, and is the same in every view and language. The palette is
// derived from Okabe and Ito's colour-blind-safe set ("Color Universal
// Design", 2008: blue, vermillion/orange, reddish purple, bluish green,
// grey), darkened for the light theme and lightened for the dark one so
// that every mark keeps 3:1 against the page's background in both
// (TestPaletteContrast computes it from site/assets/style.css's --bg).
// Text in figures is the page's own colour (currentColor), never a
// palette colour.

// A role is what a mark means.
type role struct {
	Name        string // the class chart-role-NAME
	Light, Dark string // #rrggbb
}

// roles are the meanings of the marks, in the order in which a chart's
// series take them when a view names none (series 1 first attempts,
// series 2 retries, …).
var roles = []role{
	{"first", "#0072b2", "#56b4e9"},    // first attempts, the main quantity
	{"retry", "#c75300", "#e69f00"},    // retries
	{"failure", "#aa3377", "#cc79a7"},  // timeouts, failures, a policy that never recovers
	{"refusal", "#00795a", "#2bc79a"},  // refusals: 429, budget, throttling
	{"wasted", "#6b6b6b", "#a3a3a3"},   // wasted work
	{"capacity", "#1b1f24", "#e6e8ea"}, // capacity and limits (rules): the page's text colour
}

// Role names, for the views.
const (
	roleFirst    = "first"
	roleRetry    = "retry"
	roleFailure  = "failure"
	roleRefusal  = "refusal"
	roleWasted   = "wasted"
	roleCapacity = "capacity"
)

// seriesRole is the role of series si (from 0) of a chart that names none.
func seriesRole(si int) string {
	return roles[si%(len(roles)-1)].Name
}

// colourDecls declares n colours as custom properties (--PREFIX-NAME),
// for the light or the dark theme; at(i) is the i-th name and its two
// colours.
func colourDecls(prefix string, n int, at func(i int) (name, light, dark string), dark bool) string {
	var d strings.Builder
	for i := range n {
		name, c, cd := at(i)
		if dark {
			c = cd
		}
		d.WriteString("--" + prefix + "-" + name + ": " + c + "; ")
	}
	return d.String()
}

// roleDecls declares the roles' colours as custom properties
// (--role-NAME), for the light or the dark theme.
func roleDecls(dark bool) string {
	return colourDecls("role", len(roles), func(i int) (string, string, string) { return roles[i].Name, roles[i].Light, roles[i].Dark }, dark)
}

// themedVars binds a page's declarations (decls, light or dark) to its
// widgets and charts in the three themes: light by default, dark under
// html[data-theme="dark"], and dark under prefers-color-scheme unless
// html[data-theme="light"].
func themedVars(decls func(dark bool) string) string {
	return ".widget, .chart { " + decls(false) + "}\n" +
		`:root[data-theme="dark"] .widget, :root[data-theme="dark"] .chart { ` + decls(true) + "}\n" +
		"@media (prefers-color-scheme: dark) { :root:not([data-theme=\"light\"]) .widget, :root:not([data-theme=\"light\"]) .chart { " + decls(true) + "} }\n"
}

// paletteCSS writes the custom properties and classes of the roles: a
// mark of class chart-role-NAME (or inside a group of that class) takes
// the role's colour as fill and stroke; chart-series-N takes the role of
// series N.
func paletteCSS() string {
	var b strings.Builder
	b.WriteString("/* the roles' colours (grammar.go) */\n")
	b.WriteString(themedVars(roleDecls))
	b.WriteString(roleClassCSS())
	b.WriteString(markCSS)
	return b.String()
}

// roleClassCSS binds the classes chart-role-NAME and chart-series-N to
// their role's colour (--ink).
func roleClassCSS() string {
	var b strings.Builder
	for _, r := range roles {
		b.WriteString(".chart .chart-role-" + r.Name + " { --ink: var(--role-" + r.Name + "); }\n")
	}
	for si := 0; si < 6; si++ {
		b.WriteString(".chart .chart-series-" + strconv.Itoa(si+1) + " { --ink: var(--role-" + seriesRole(si) + "); }\n")
	}
	return b.String()
}

// markCSS colours the marks by their role: --ink is set by a
// chart-role-NAME, chart-series-N or chart-policy-ID class on the mark or
// its group, so a legend swatch and the bars of its series always match.
// A marked bar takes the failure colour (no series has it where bars are
// marked); a marked point of a line keeps its series' colour inside a
// ring of the text colour, and the key draws that ring alone (in the
// failure colour it read as a fifth series beside four: reader review).
// The page's style sheet and a standalone chart (site/embed) share it.
const markCSS = `.chart .chart-bar, .chart .chart-point, .chart .chart-seg-attempt, .chart .chart-node circle, .chart .chart-dot { fill: var(--ink, var(--role-first)); }
.chart .chart-line { stroke: var(--ink, var(--role-first)); }
.chart .chart-bar-mark, .chart .chart-node .chart-bar-mark { fill: var(--role-failure); }
.chart .chart-point.chart-bar-mark { fill: var(--ink, var(--role-first)); stroke: currentColor; stroke-width: 2.5; }
.chart .chart-legend .chart-point.chart-bar-mark { fill: none; }
.chart .chart-rule { stroke: var(--role-capacity); }
.chart .chart-seg-wait { fill: currentColor; }
.chart .chart-seg-over { fill: var(--role-failure); stroke: var(--role-failure); }
`

// textWidth estimates the width of s in a sans-serif font of size em,
// from a table of average advance widths (in em) of DejaVu Sans and Noto
// Sans, the fonts the site's stack falls back on: narrow Latin letters
// and punctuation 0.3, digits and most lower-case letters 0.58, wide
// letters 0.9, other capitals 0.7, CJK and full-width characters 1. It
// errs on the wide side, so that a label estimated to fit does fit.
func textWidth(s string, em float64) float64 {
	w := 0.0
	for _, r := range s {
		switch {
		case r >= 0x2e80: // CJK, full-width forms
			w += 1
		case strings.ContainsRune("iljtfr.,:;'|!() ", r):
			w += 0.32
		case strings.ContainsRune("mwMW%", r):
			w += 0.92
		case r >= 'A' && r <= 'Z':
			w += 0.72
		default:
			w += 0.6
		}
	}
	return w * em
}

// phoneEm is the font size, in SVG units of a 640-wide chart, that
// widget.css gives the figures' text on a phone: at 375 px the chart is
// about 340 px wide, so 20 units draw at 11 px or more. Layout decisions
// (a label fits, a bar chart turns horizontal) are taken at this size,
// so that what fits on a phone fits on a desktop too.
const phoneEm = 20

// TableView reports whether view draws HTML rather than an SVG figure
// (site/embed's charts skip it): the results table; the classification
// of errors, a table since its SVG drawing of one was unreadable on a
// phone; the idempotency key taken apart (text: the key is the picture).
func TableView(view string) bool {
	return view == "table" || view == "classification" || view == "parts"
}
