package widget

import (
	"strconv"
	"strings"

	"retrylab/core/calc"
	"retrylab/core/standin/query"
	"retrylab/site/locale"
)

// The embed protocol, declared once: the build writes these values into
// the scripts that speak it (site/pages, EmbedProtocol: embed.js on the
// host page, embed-frame.js in the embed, widget-embed.js in the
// articles), which do not type them.
const (
	// EmbedHeightMessage is the type of the message an embed posts to its
	// parent, {type, id, height}, whenever its height changes.
	EmbedHeightMessage = "retrylab:height"
	// EmbedMaxHeight is the largest height in pixels embed.js applies.
	EmbedMaxHeight = 50000
	// EmbedIDKey is the query key of the host's name for the frame, which
	// the height message carries as id.
	EmbedIDKey = "id"
	// EmbedDir is the folder of the embed pages: BASE/LANG/EmbedDir/NAME/.
	EmbedDir = "embed"
	// EmbedSrcMark stands for the embed page's address in the snippet
	// template of a widget's "embed" control (data-embed-template), which
	// widget-embed.js fills in as the reader changes the widget.
	EmbedSrcMark = "{src}"
)

// EmbedSnippet is the code a host page pastes to show the embed page src
// (its absolute URL with the parameters as query): an iframe of the
// widget's estimated height (EmbedHeight) and, when script is not "", the
// resize script (site/assets/embed.js at its stable address, EmbedScript),
// which sets the frame to the widget's height as the embed reports it,
// for frames of its own site only. Without the script, or before it runs,
// the frame has the estimate and scrolls if it is short.
func EmbedSnippet(src, title, script string, height int) string {
	s := `<iframe src="` + esc(src) + `" title="` + esc(title) + `" width="100%" height="` + strconv.Itoa(height) + `" loading="lazy" style="border:0;max-width:48rem"></iframe>`
	if script != "" {
		s += "\n" + `<script src="` + esc(script) + `" defer></script>`
	}
	return s
}

// EmbedScriptName is the resize script's stable name at the site's root
// (BASE/embed.js): a pasted snippet must keep working after a new
// deployment, when the content-hashed assets/embed.HASH.js has gone.
const EmbedScriptName = "embed.js"

// EmbedScript returns the address of the resize script of the site whose
// embed page is embedURL (BASE/LANG/embed/NAME/, absolute or a path): BASE
// followed by EmbedScriptName; "" when embedURL is not such an address.
func EmbedScript(embedURL string) string {
	u, _, _ := strings.Cut(embedURL, "?")
	u, _, _ = strings.Cut(u, "#")
	u = strings.TrimSuffix(u, "/")
	for range 3 { // NAME, embed, LANG
		i := strings.LastIndexByte(u, '/')
		if i < 0 {
			return ""
		}
		u = u[:i]
	}
	return u + "/" + EmbedScriptName
}

// EmbedDefaults is the query of c's declared defaults: the values an
// embed page starts from, which the iframe code need not repeat.
func EmbedDefaults(c *calc.Calculator) query.Values {
	v := query.Values{}
	for _, p := range c.Params {
		if p.Default != "" {
			v[p.Name] = []string{p.Default}
		}
	}
	return v
}

// writeEmbed writes the widget's "embed" control: a details element whose
// code box holds the iframe code for the widget's values (those that
// differ from the calculator's defaults). It works without script;
// site/assets/widget-embed.js rewrites the code as the reader changes the
// widget, from data-embed (the embed page) and data-embed-defaults, and
// selects it when the box takes the focus. The box is a <pre> (a read-only
// textbox to assistive technology), not a textarea: Chromium lays out, at
// DOMContentLoaded, each closed details that holds a form field (its scan
// of the fields, issue 33), one layout a widget.
func writeEmbed(b *strings.Builder, spec Spec, c *calc.Calculator, a calc.Args, loc locale.Locale, out string) {
	defs := EmbedDefaults(c)
	q := query.Values{}
	for k, vs := range a.Query() {
		if query.Get(defs, k) != vs[0] {
			q[k] = vs
		}
	}
	src := spec.Embed
	if len(q) > 0 {
		src += "?" + query.Encode(q)
	}
	id := esc(spec.ID)
	// the estimate reads the widget before this control: the control is
	// no part of the embed page
	height, script := EmbedHeight(b.String()+out, EmbedWidth), EmbedScript(spec.Embed)
	writef(b, `<details class="widget-embed" data-embed="%s" data-embed-defaults="%s" data-embed-title="%s">`, esc(spec.Embed), esc(query.Encode(defs)), esc(Title(c, loc)))
	writef(b, `<summary>%s</summary>`, esc(loc.TOr("embed.control", "Embed")))
	writef(b, `<p class="widget-embed-label" id="%s-embed-label">%s</p>`, id, esc(loc.TOr("embed.code", "HTML code to paste into your page")))
	// data-embed-template: the same code with EmbedSrcMark for the
	// address, which widget-embed.js fills in
	writef(b, `<pre id="%s-embed" class="widget-embed-code" tabindex="0" role="textbox" aria-readonly="true" aria-multiline="true" aria-labelledby="%s-embed-label" data-embed-code data-embed-template="%s">%s</pre>`, id, id,
		esc(EmbedSnippet(EmbedSrcMark, Title(c, loc), script, height)), esc(EmbedSnippet(src, Title(c, loc), script, height)))
	b.WriteString("</details>\n")
}
