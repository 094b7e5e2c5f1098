package widget

import (
	"strings"

	"retrylab/core/calc"
)

// The views of the configure calculator: the chosen system's parameters,
// bounds and configuration to paste (with a copy button: site/assets
// app.js copies the text of the <pre> a [data-copy] button names), and a
// table of every system.

// configureSnippet: the settings, the two bounds beside the simulated
// values, and the snippet(s).
func configureSnippet(o *outCtx, r *calc.ConfigureResult) error {
	if r.Snippet == "" {
		return errNoData
	}
	b := o.b
	name := o.loc.TOr("param.configure.system.choice."+r.System, r.System)
	verdict := o.vt("snippet", "misses", "misses the accepted amplification")
	if r.Meets {
		verdict = o.vt("snippet", "meets", "meets the accepted amplification")
	}
	writef(b, `<figure class="widget-chart widget-snippet" data-view="snippet" data-out="snippet" data-value="%s">`, esc(o.outRaw("snippet")))
	// the verdict ends its sentence with the language's full stop
	writef(b, `<figcaption><strong>%s</strong> — %s%s%s</figcaption>`+"\n",
		esc(o.vt("snippet", "title", "To paste: {system}", "system", name)), esc(verdict), esc(o.vt("snippet", "sep", ". ")),
		esc(o.vt("snippet", "desc", "With these parameters the load stays within {outage} attempts per request in a total outage (simulated: {sim}).",
			"outage", o.loc.Fixed(r.OutageBound, 3), "sim", o.loc.Fixed(r.SimOutage, 3))))
	writef(b, `<table class="widget-table" tabindex="0" data-out="settings" data-value="%s"><caption>%s</caption><tbody>`, esc(o.outRaw("settings")), esc(fieldLabel(o.c, o.loc, "settings")))
	for _, s := range r.Settings {
		// a dotted name (retryThrottling.tokenRatio) wraps after its dots,
		// never inside a word (reader review, a phone)
		writef(b, `<tr><th scope="row"><code>%s</code></th><td><code>%s</code></td></tr>`, strings.ReplaceAll(esc(s.Name), ".", ".<wbr>"), esc(s.Value))
	}
	for _, row := range []struct {
		field string
		v     float64
	}{{"outage_bound", r.OutageBound}, {"sim_outage", r.SimOutage}, {"rate_bound", r.RateBound}, {"sim_rate", r.SimRate}} {
		writef(b, `<tr data-out="%s" data-value="%s"><th scope="row">%s</th><td class="widget-nowrap">%s</td></tr>`, esc(row.field), esc(o.outRaw(row.field)), esc(fieldLabel(o.c, o.loc, row.field)), esc(o.loc.Fixed(row.v, 4)))
	}
	b.WriteString("</tbody></table>\n")
	// the formula is long: a line of its own, not a table cell
	writef(b, `<p class="widget-note" data-out="formula" data-value="%s">%s: <code>%s</code></p>`+"\n", esc(o.outRaw("formula")), esc(fieldLabel(o.c, o.loc, "formula")), esc(r.Formula))
	code := func(id, lang, text string) {
		// the copy button serves only a script (app.js): text until the
		// widget nears the viewport, as a player's controls (writePlayer)
		writef(b, `<div class="widget-code"><noscript data-fields><button type="button" class="widget-copy" data-copy="%s" data-copied="%s">%s</button></noscript>`,
			esc(id), esc(o.vt("snippet", "copied", "Copied")), esc(o.vt("snippet", "copy", "Copy")))
		writef(b, `<pre class="widget-metrics" tabindex="0" data-snippet="%s" data-lang="%s"><code>%s</code></pre></div>`+"\n", esc(id), esc(lang), esc(text))
	}
	code("configure-1-"+r.System, r.Lang, r.Snippet)
	if r.Snippet2 != "" {
		writef(b, `<p class="widget-note">%s</p>`, esc(o.vt("snippet", "second", "second file")))
		code("configure-2-"+r.System, r.Lang2, r.Snippet2)
	}
	b.WriteString("</figure>\n")
	return nil
}

// configureSystems: every system's bounds and simulated values, a row
// each.
func configureSystems(o *outCtx, r *calc.ConfigureResult) error {
	n := len(r.Systems)
	if n == 0 || len(r.OutageBounds) != n || len(r.RateBounds) != n || len(r.SimOutages) != n || len(r.SimRates) != n || len(r.MeetsAll) != n {
		return errNoData
	}
	b := o.b
	col := func(key, def string) string { return esc(o.vt("systems", key, def)) }
	writef(b, `<table class="widget-table" tabindex="0" data-view="systems" data-out="outage_bounds" data-value="%s"><caption>%s</caption><thead><tr>`,
		esc(o.outRaw("outage_bounds")), col("title", "Every system with this traffic"))
	// four columns, each pair "bound / simulated" in one cell: the
	// table fits a phone's width
	for _, h := range [][2]string{{"system", "system"}, {"outage", "total outage: bound / simulated"},
		{"rate", "at the failure rate: bound / simulated"}, {"meets", "meets"}} {
		writef(b, `<th scope="col">%s</th>`, col(h[0], h[1]))
	}
	b.WriteString("</tr></thead><tbody>\n")
	// a pair may wrap at the slash, a number never
	pair := func(x, y float64) string {
		return `<span class="widget-nowrap">` + esc(o.loc.Fixed(x, 3)) + `</span> / <span class="widget-nowrap">` + esc(o.loc.Fixed(y, 3)) + `</span>`
	}
	for i, s := range r.Systems {
		yes := col("no", "no")
		if r.MeetsAll[i] {
			yes = col("yes", "yes")
		}
		writef(b, `<tr data-row="%s"><th scope="row">%s</th><td>%s</td><td>%s</td><td>%s</td></tr>`+"\n",
			esc(s), esc(o.vt("bounds", "short."+s, s)), pair(r.OutageBounds[i], r.SimOutages[i]),
			pair(r.RateBounds[i], r.SimRates[i]), yes)
	}
	b.WriteString("</tbody></table>\n")
	return nil
}

// configureBounds: every system's outage bound and its simulated value,
// bars marked where the bound misses the accepted amplification, with the
// accepted amplification as a rule.
func configureBounds(o *outCtx, r *calc.ConfigureResult) error {
	n := len(r.Systems)
	if n == 0 || len(r.OutageBounds) != n || len(r.SimOutages) != n || len(r.MeetsAll) != n {
		return errNoData
	}
	cats := make([]string, n)
	mark := make([]bool, n)
	var missed []string
	for i, s := range r.Systems {
		cats[i] = o.vt("bounds", "short."+s, s) // a short name: eight bars share a phone's width
		mark[i] = !r.MeetsAll[i]
		if mark[i] {
			missed = append(missed, o.loc.TOr("param.configure.system.choice."+s, s))
		}
	}
	verdict := o.vt("bounds", "all_meet", "every system meets the accepted amplification")
	if len(missed) > 0 {
		verdict = o.vt("bounds", "missed", "marked bars miss it: {list}", "list", o.loc.List(missed))
	}
	var rules []rule
	if a, ok := argFloat(o.a, "max_amplification"); ok {
		rules = append(rules, rule{Y: a, Label: o.vt("bounds", "accepted", "accepted amplification")})
	}
	ch := chart{
		View:       "bounds",
		Title:      o.vt("bounds", "title", "Attempts per request in a total outage, system by system"),
		Desc:       o.vt("bounds", "desc", "The closed-form bound of each system with the parameters chosen for this traffic, beside the simulated value; {verdict}.", "verdict", verdict),
		XLabel:     o.vt("bounds", "x", "system"),
		YLabel:     o.vt("bounds", "y", "attempts per request"),
		Categories: cats,
		Series: []series{{Name: o.vt("bounds", "bound", "bound"), Values: r.OutageBounds, Mark: mark},
			{Name: o.vt("bounds", "sim", "simulated"), Values: r.SimOutages}},
		Rules:    rules,
		MarkName: o.vt("bounds", "mark", "bound over the accepted amplification"),
		OutField: "outage_bounds",
	}
	ch.draw(o)
	return nil
}

// configureViews are the views of the configure calculator: the
// parameters, bounds and snippet of each system.
//
//retrylab:views configure
func configureViews() []viewDef {
	return []viewDef{{"bounds", typed(configureBounds), false, false}, {"snippet", typed(configureSnippet), false, false}, {"systems", typed(configureSystems), false, false}}
}
