package widget

import (
	"strings"

	"retrylab/core/calc"
	"retrylab/core/standin/query"
	"retrylab/site/locale"
)

// EmbedSnippet is the iframe code a host page pastes to show the embed
// page src (its absolute URL with the parameters as query).
func EmbedSnippet(src, title string) string {
	return `<iframe src="` + esc(src) + `" title="` + esc(title) + `" width="100%" height="640" loading="lazy" style="border:0;max-width:48rem"></iframe>`
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
// read-only textarea holds the iframe code for the widget's values (those
// that differ from the calculator's defaults). It works without script;
// site/assets/widget-embed.js rewrites the code as the reader changes the
// widget, from data-embed (the embed page) and data-embed-defaults.
func writeEmbed(b *strings.Builder, spec Spec, c *calc.Calculator, a calc.Args, loc locale.Locale) {
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
	writef(b, `<details class="widget-embed" data-embed="%s" data-embed-defaults="%s" data-embed-title="%s">`, esc(spec.Embed), esc(query.Encode(defs)), esc(Title(c, loc)))
	writef(b, `<summary>%s</summary>`, esc(loc.TOr("embed.control", "Embed")))
	writef(b, `<label for="%s-embed">%s</label>`, id, esc(loc.TOr("embed.code", "HTML code to paste into your page")))
	writef(b, `<textarea id="%s-embed" rows="3" readonly spellcheck="false" data-embed-code>%s</textarea>`, id, esc(EmbedSnippet(src, Title(c, loc))))
	b.WriteString("</details>\n")
}
