package widget

import (
	"strings"

	"retrylab/core/calc"
	"retrylab/site/locale"
)

// writeFields writes the controls of c's parameters: the essential ones
// (calc.Calculator.Essential; without it the first maxShown) and those the
// page sets away from their default, in declaration order, then the others
// inside a closed <details data-more> disclosure ("more parameters"). A
// calculator of at most maxShown parameters shows them all. (A parameter
// the URL sets is known only in the browser: player.js opens the
// disclosure for it.)
//
// Fields are written inside <noscript data-fields>: without JavaScript
// they are the form's fields as any other; with it the browser keeps them
// as text, and the page's scripts make them fields when the widget nears
// the viewport (player.js retrylabFields, the playground's fields in
// wasm/playground). The disclosure's fields always are: Chromium lays out,
// when the page has parsed, every closed <details> that holds a text
// field, a number or a select. The shown ones are when later is set (a
// page of several widgets, which a reader meets screens down): Chromium
// also visits every form field of the page when it has parsed (its
// autofill scan, with a style and layout update per field), the largest
// task of a long article's load after its first layout (issue 33).
func writeFields(b *strings.Builder, wid string, c *calc.Calculator, a calc.Args, loc locale.Locale, later bool) {
	nsOpen, nsClose := "", "" // around the shown fields
	if later {
		nsOpen, nsClose = "<noscript "+FieldsAttr+">\n", "</noscript>\n"
	}
	if len(c.Params) <= maxShown && len(c.Essential) == 0 {
		b.WriteString(nsOpen)
		for i := range c.Params {
			writeField(b, wid, c, &c.Params[i], a, loc)
		}
		b.WriteString(nsClose)
		return
	}
	defaults, _ := c.Parse(nil) // the calculator's defaults parse (TestRegistry)
	shown := func(p *calc.Param) bool {
		if essential(c, p.Name) {
			return true
		}
		v, has := argText(a, p)
		d, hasD := argText(defaults, p)
		return a.Given(p.Name) && (v != d || has != hasD) // the page sets it away from its default
	}
	b.WriteString(nsOpen)
	for i := range c.Params {
		if p := &c.Params[i]; shown(p) {
			writeField(b, wid, c, p, a, loc)
		}
	}
	b.WriteString(nsClose)
	openMore(b, "data-more", false, loc.TOr("widget.more_params", "More parameters"))
	b.WriteString("<noscript " + FieldsAttr + ">\n")
	for i := range c.Params {
		if p := &c.Params[i]; !shown(p) {
			writeField(b, wid, c, p, a, loc)
		}
	}
	b.WriteString("</noscript></details>\n")
}

// FieldsAttr marks a <noscript> that holds a widget's form controls:
// its fields (writeFields), on an article the form's buttons (Render), a
// player's controls (writePlayer) and configure's copy buttons. Its text
// is their HTML; it never holds "</noscript" (every value is escaped).
// The page makes them controls in place (player.js retrylabFields, the
// playground's makeFields).
const FieldsAttr = "data-fields"

// maxShown is how many parameters a widget shows before "more
// parameters" when its calculator names no essential ones (issue 30).
const maxShown = 4

// openMore opens a disclosure: <details ATTR [open]><summary>.
func openMore(b *strings.Builder, attr string, open bool, summary string) {
	o := ""
	if open {
		o = " open"
	}
	writef(b, `<details class="widget-more" %s%s><summary>%s</summary>`+"\n", attr, o, esc(summary))
}

func essential(c *calc.Calculator, name string) bool {
	ess := c.Essential
	if len(ess) == 0 {
		for i := 0; i < maxShown && i < len(c.Params); i++ {
			if name == c.Params[i].Name {
				return true
			}
		}
	}
	for _, n := range ess {
		if n == name {
			return true
		}
	}
	return false
}

// storySplit splits a result's fields into the story fields
// (calc.Calculator.StoryFields, in that order) and the rest, in the
// result's order. Without StoryFields every field is a story field.
func storySplit(c *calc.Calculator, list []field) (story, rest []field) {
	if len(c.StoryFields) == 0 {
		return list, nil
	}
	for _, n := range c.StoryFields {
		for _, f := range list {
			if f.Name == n {
				story = append(story, f)
			}
		}
	}
	for _, f := range list {
		if !isStory(c, f.Name) {
			rest = append(rest, f)
		}
	}
	return story, rest
}

func isStory(c *calc.Calculator, name string) bool {
	for _, n := range c.StoryFields {
		if n == name {
			return true
		}
	}
	return false
}

// writeRow writes one row of the results table.
func writeRow(b *strings.Builder, o *outCtx, f field) {
	writef(b, `<tr data-row="%s"><th scope="row">%s</th><td data-out="%s" data-value="%s">%s</td></tr>`+"\n",
		esc(f.Name), esc(fieldLabel(o.c, o.loc, f.Name)), esc(f.Name), esc(string(f.Raw)), esc(cellText(o.c, o.loc, f)))
}
