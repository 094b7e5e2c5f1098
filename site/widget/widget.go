// Package widget turns a calculator's parameters and result into HTML in
// the reader's language: the form of controls, the tables and the SVG
// charts of a widget, and the citations of its results in the prose. The
// build (site/pages) and the browser playground (wasm/playground) call the
// same functions, so a page reads the same before and after the
// WebAssembly module loads. wasm/playground/DOM.md is the DOM contract.
//
// The package is compiled to WebAssembly: it imports only the standard
// library's small packages, retrylab/core/... and retrylab/site/locale.
package widget

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"

	"retrylab/core/calc"
	"retrylab/core/standin/query"
	"retrylab/site/locale"
)

// Spec is one widget of a page.
type Spec struct {
	Calc *calc.Calculator
	// ID names the widget in the page: lower-case letters, digits and '-'.
	ID string
	// Values are the page's starting values (parameter name → text); the
	// parameters not named take the calculator's defaults.
	Values query.Values
	// Views are the views shown, in order; empty means DefaultViews.
	Views []string
	// Embed, when set, is the URL of the calculator's embed page
	// (site/embed: "https://host/it/embed/jitter/"): the widget then
	// offers the iframe code of its values (see embed.go).
	Embed string
	// Title, when set, follows the calculator's title in the widget's
	// heading and accessible name ("Jitter … — three waves"): two widgets
	// of one calculator on a page then have different names.
	Title string
	// Args and Result, when Result is not nil, are Values already parsed
	// and computed by the caller on RunArgs (the build computes every
	// widget once to resolve citations); Render then uses them instead of
	// running the calculator again.
	Args   calc.Args
	Result any
	// Compare, when set ("PARAM=VALUE"), adds the comparison view: the
	// widget also computes the variant with PARAM set to VALUE and draws
	// both, with a sentence stating the difference (compare.go). The
	// root carries data-compare.
	Compare string
	// FieldsLater, when set, writes the shown fields too as text that the
	// page's scripts make fields when the widget nears the viewport
	// (writeFields): for a page of several widgets, an article, whose
	// widgets start screens down; not for an embed, whose widget is its
	// first screen. Without JavaScript the fields are there either way.
	FieldsLater bool
}

// Render writes the whole widget: the root section, the form of controls,
// the "static page" notice, the buttons and the output computed from
// spec.Values. A bad id, a bad value or an unknown view is an error (the
// build reports it with the file and line).
func Render(spec Spec, loc locale.Locale) (string, error) {
	c := spec.Calc
	if c == nil {
		return "", errors.New("widget: no calculator")
	}
	if err := CheckID(spec.ID); err != nil {
		return "", err
	}
	table := allViews() // once for the three uses below
	views := spec.Views
	if len(views) == 0 {
		views = table.defaults(c)
	}
	if spec.Compare != "" {
		views = append(views[:len(views):len(views)], CompareView(spec.Compare))
	}
	if err := table.check(c, views); err != nil {
		return "", err
	}
	a, res := spec.Args, spec.Result
	if res == nil {
		var err error
		if a, err = c.Parse(spec.Values); err != nil {
			return "", err
		}
		if res, err = c.Run(table.runArgs(c, a, views)); err != nil {
			return "", err
		}
	}
	out, err := table.render(encodeResult, c, a, res, views, loc, nil)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	id := esc(spec.ID)
	cmp := ""
	if spec.Compare != "" {
		cmp = ` data-compare="` + esc(spec.Compare) + `"`
	}
	// widget-io: a widget with its form and its output, as every one
	// written here is (widget.css lays the two out side by side or one
	// above the other by this class: a :has() rule there was checked again
	// at every change inside the widget, a flow view's frame included)
	writef(&b, `<div class="widget widget-io" data-widget="%s" id="%s" data-defaults="%s" data-views="%s"%s role="group" aria-labelledby="%s-title">`+"\n",
		esc(c.Name), id, esc(query.Encode(a.Query())), esc(strings.Join(views, ",")), cmp, id)
	title := esc(Title(c, loc))
	if spec.Title != "" {
		title += ` <span class="widget-subtitle">— ` + esc(spec.Title) + `</span>`
	}
	writef(&b, `<p class="widget-title" id="%s-title">%s</p>`+"\n", id, title)
	writef(&b, `<p class="widget-static" data-static>%s</p>`+"\n", esc(loc.TOr("widget.static", "Static page: these are the results for the article's values. With JavaScript on, the experiment recomputes as you change it.")))
	writef(&b, `<form class="widget-form" data-form data-decimal="%s" novalidate>`+"\n", esc(loc.DecimalMark()))
	writeFields(&b, spec.ID, c, a, loc, spec.FieldsLater)
	writef(&b, `<p class="widget-error" id="%s-error" data-error-for="" role="alert" hidden></p>`+"\n", id)
	// on an article the buttons are text until the widget nears the
	// viewport, as its fields are (FieldsLater): a widget that holds no
	// form control when the page parses is one the browser may skip
	// laying out off screen (style.css, issue 33)
	b.WriteString(`<div class="widget-actions">`)
	if spec.FieldsLater {
		b.WriteString("<noscript " + FieldsAttr + ">")
	}
	writef(&b, `<button type="button" data-action="reset" disabled>%s</button>`, esc(loc.TOr("widget.reset", "Article's values")))
	if c.Param("seed") != nil {
		writef(&b, `<button type="button" data-action="reseed" disabled>%s</button>`, esc(loc.TOr("widget.reseed", "New seed")))
	}
	if spec.FieldsLater {
		b.WriteString("</noscript>")
	}
	b.WriteString("</div>\n</form>\n")
	if spec.Embed != "" {
		// The embed page shows the calculator's default views: its height
		// is estimated from those (EmbedHeight).
		embedOut := out
		if defs := table.defaults(c); spec.Compare != "" || !slices.Equal(views, defs) {
			eres := res
			// a default view that draws a trace the page's views did not
			// ask for (dispatch's flow beside a block's view: table,queue)
			if ea := table.runArgs(c, a, defs); ea.TraceMarks() > table.runArgs(c, a, views).TraceMarks() {
				if r, err := c.Run(ea); err == nil {
					eres = r
				}
			}
			if o, err := table.render(encodeResult, c, a, eres, defs, loc, nil); err == nil {
				embedOut = o
			}
		}
		writeEmbed(&b, spec, c, a, loc, embedOut)
	}
	b.WriteString(`<div class="widget-output" data-output>`)
	b.WriteString(out)
	// the polite live region: the playground says there the first result
	// once a change is done (not at every frame of a drag)
	b.WriteString("</div>\n<p class=\"visually-hidden\" aria-live=\"polite\" data-announce></p>\n</div>\n")
	return b.String(), nil
}

// Title is the widget's localized title (widget.CALC.title, else the
// calculator's English help).
func Title(c *calc.Calculator, loc locale.Locale) string {
	return loc.TOr("widget."+c.Name+".title", c.Help)
}

// CheckID reports whether id is a valid widget id.
func CheckID(id string) error {
	if id == "" {
		return errors.New("widget id is missing (add a line id: NAME)")
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return errors.New("widget id " + strconv.Quote(id) + " may hold only lower-case letters, digits and '-'")
		}
	}
	return nil
}

// writeField writes the control of one parameter.
func writeField(b *strings.Builder, wid string, c *calc.Calculator, p *calc.Param, a calc.Args, loc locale.Locale) {
	id := esc(wid + "-" + p.Name)
	name := esc(p.Name)
	label := loc.ParamLabel(c, p.Name)
	value, has := argText(a, p)
	writef(b, `<div class="widget-field" data-field="%s" data-kind="%s">`, name, kindName(p.Kind))
	writef(b, `<label for="%s" id="%s-label">%s</label>`, id, id, esc(label))
	help, hasHelp := loc.Lookup(c.LabelKey(p.Name) + ".help")
	// the control is described by its help line and by its error slot,
	// which the playground fills (and role=alert announces) on bad input
	describedBy := ` aria-describedby="` + id + `-error"`
	if hasHelp {
		describedBy = ` aria-describedby="` + id + "-help " + id + `-error"`
	}
	b.WriteString(`<span class="widget-control">`)
	placeholder := ""
	if !has && p.Optional {
		note := loc.TOr(c.LabelKey(p.Name)+".default", p.DefaultNote)
		if note != "" {
			placeholder = ` placeholder="` + esc(note) + `"`
		}
	}
	switch p.Kind {
	case calc.Int, calc.Float:
		// a text field, not type=number: it takes the page's decimal mark
		// (and the other one) and shows the page's; the playground reads
		// it back as the calculator's text (wasm/playground: numberText)
		// and does not act on an unfinished number ("0,")
		attrs := ""
		if p.Min.Set && !p.Min.Open {
			attrs += ` data-min="` + calc.FormatFloat(p.Min.V) + `"`
		}
		if p.Max.Set && !p.Max.Open {
			attrs += ` data-max="` + calc.FormatFloat(p.Max.V) + `"`
		}
		step := stepText(p)
		mode := "decimal"
		if p.Kind == calc.Int {
			mode = "numeric"
		}
		writef(b, `<input type="text" id="%s" name="%s" value="%s"%s data-step="%s" inputmode="%s" autocomplete="off" spellcheck="false"%s%s>`,
			id, name, esc(localDecimal(value, loc)), attrs, step, mode, placeholder, describedBy)
		writeUnit(b, c, p, loc)
		lo, hi, ok := sliderRange(p)
		ladderStep := p.Step
		if p.Kind == calc.Int && ladderStep < 1 {
			ladderStep = 1
		}
		at, _ := strconv.ParseFloat(value, 64)
		if xs := logLadder(lo, hi, ladderStep, at); ok && xs != nil {
			// a wide range: the slider stops at round values on a
			// logarithmic scale (controls.go)
			unit := unitLabel(c, p, loc)
			writeLogSlider(b, name, label, value, xs, unit, loc)
		} else if ok {
			v, err := strconv.ParseFloat(value, 64)
			if err != nil {
				v = lo
			}
			v = max(lo, min(hi, v))
			if step == "any" {
				step = calc.FormatFloat((hi - lo) / 1000)
			} else if st, err := strconv.ParseFloat(step, 64); err == nil && st > 0 {
				// the range input holds only lo + k·step: its end is the
				// last of those within hi, so that the slider reaches it
				if k := (hi - lo) / st; math.Abs(k-math.Round(k)) > 1e-9 {
					hi = lo + math.Floor(k)*st
					v = min(hi, v)
				}
			}
			writef(b, `<input type="range" class="widget-slider" data-slider-for="%s" min="%s" max="%s" step="%s" value="%s" aria-label="%s">`,
				name, calc.FormatFloat(lo), calc.FormatFloat(hi), step, calc.FormatFloat(v), esc(label))
		}
	case calc.Choice:
		if len(p.Choices) <= maxSegments {
			writeSegments(b, id, name, c, p, value, describedBy, loc)
			break
		}
		writef(b, `<select id="%s" name="%s"%s>`, id, name, describedBy)
		for _, ch := range p.Choices {
			sel := ""
			if ch == value {
				sel = " selected"
			}
			writef(b, `<option value="%s"%s>%s</option>`, esc(ch), sel, esc(loc.ChoiceLabel(c, p.Name, ch)))
		}
		b.WriteString(`</select>`)
	case calc.Bool:
		checked := ""
		if value == "true" {
			checked = " checked"
		}
		writef(b, `<input type="checkbox" id="%s" name="%s" value="true"%s%s>`, id, name, checked, describedBy)
	case calc.JSON:
		writef(b, `<textarea id="%s" name="%s" rows="3" spellcheck="false"%s%s>%s</textarea>`, id, name, placeholder, describedBy, esc(value))
	case calc.Text:
		if len(p.Members) > 0 {
			writeChips(b, id, name, c, p, value, describedBy, loc)
			break
		}
		fallthrough
	default: // lists, BigInt, Text
		mode := ""
		if p.Kind == calc.BigInt {
			mode = ` inputmode="numeric"`
		}
		writef(b, `<input type="text" id="%s" name="%s" value="%s" spellcheck="false" autocomplete="off"%s%s%s>`, id, name, esc(value), mode, placeholder, describedBy)
		writeUnit(b, c, p, loc)
		if p.Kind.IsList() {
			writeStepper(b, id, name, c, p, loc)
		}
	}
	b.WriteString(`</span>`)
	if hasHelp {
		writef(b, `<p class="widget-help" id="%s-help">%s</p>`, id, codeSpans(help))
	}
	writef(b, `<p class="widget-error" id="%s-error" data-error-for="%s" role="alert" hidden></p>`, id, name)
	b.WriteString("</div>\n")
}

// codeSpans escapes a help line and writes its `code spans` (a command,
// a parameter's text) as <code>, as the articles' Markdown does; a
// backquote without its pair stays as it is.
func codeSpans(s string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '`')
		j := -1
		if i >= 0 {
			j = strings.IndexByte(s[i+1:], '`')
		}
		if j <= 0 {
			b.WriteString(esc(s))
			return b.String()
		}
		b.WriteString(esc(s[:i]))
		b.WriteString("<code>" + esc(s[i+1:i+1+j]) + "</code>")
		s = s[i+j+2:]
	}
}

// writeChips writes a set (a Text parameter with Members) as a row of
// toggle chips, one checkbox per member in the registry's order, checked
// when value names it; the hidden input named for the parameter holds the
// canonical comma-separated text the calculator parses (and the URL
// keeps): the playground rewrites it when a chip changes
// (wasm/playground, data-chip-for). Labels are the members' names for
// the reader (field.CALC.SINGULAR.NAME, see memberLabel).
func writeChips(b *strings.Builder, id, name string, c *calc.Calculator, p *calc.Param, value, describedBy string, loc locale.Locale) {
	on := map[string]bool{}
	for _, m := range strings.Split(value, ",") {
		on[strings.TrimSpace(m)] = true
	}
	writef(b, `<input type="hidden" id="%s" name="%s" value="%s">`, id, name, esc(value))
	writef(b, `<span class="widget-chips" role="group" aria-labelledby="%s-label"%s>`, id, describedBy)
	for _, m := range p.Members {
		checked := ""
		if on[m] {
			checked = " checked"
		}
		writef(b, `<label class="widget-chip"><input type="checkbox" data-chip-for="%s" value="%s"%s><span>%s</span></label>`,
			name, esc(m), checked, esc(memberLabel(c, loc, p.Name, m)))
	}
	b.WriteString(`</span>`)
}

// memberLabel is a set member's name for the reader: the label of the
// result field that names it (field.CALC.SINGULAR.NAME, "policies" →
// "policy"), else the name itself.
func memberLabel(c *calc.Calculator, loc locale.Locale, param, member string) string {
	return valueLabel(c, loc, strings.TrimSuffix(param, "ies")+"y", member)
}

// localDecimal writes the canonical text of a number with the page's
// decimal mark ("0.7" → "0,7" in it and es).
func localDecimal(s string, loc locale.Locale) string {
	if d := loc.DecimalMark(); d != "." && d != "" {
		return strings.Replace(s, ".", d, 1)
	}
	return s
}

func writeUnit(b *strings.Builder, c *calc.Calculator, p *calc.Param, loc locale.Locale) {
	if p.Unit == "" {
		return
	}
	writef(b, `<span class="widget-unit">%s</span>`, esc(unitLabel(c, p, loc)))
}

// unitLabel is the unit of p beside its control: [param.CALC] "NAME.unit"
// where the parameter names its unit with the widget's own word (the
// retry budget's tokens are "gettoni", not an LLM's "token"), else
// [widget.unit] UNIT, else the unit itself; "" when p has none.
func unitLabel(c *calc.Calculator, p *calc.Param, loc locale.Locale) string {
	if p.Unit == "" {
		return ""
	}
	return loc.TOr(c.LabelKey(p.Name)+".unit", loc.TOr("widget.unit."+p.Unit, p.Unit))
}

// argText is the canonical text of p's value in a, and whether it has one.
func argText(a calc.Args, p *calc.Param) (string, bool) {
	if !a.Has(p.Name) {
		return "", false
	}
	switch p.Kind {
	case calc.Int:
		return strconv.Itoa(a.Int(p.Name)), true
	case calc.Float:
		return calc.FormatFloat(a.Float(p.Name)), true
	case calc.Bool:
		return strconv.FormatBool(a.Bool(p.Name)), true
	case calc.IntList:
		xs := a.Ints(p.Name)
		s := make([]string, len(xs))
		for i, x := range xs {
			s[i] = strconv.Itoa(x)
		}
		return strings.Join(s, ","), true
	case calc.FloatList:
		xs := a.Floats(p.Name)
		s := make([]string, len(xs))
		for i, x := range xs {
			s[i] = calc.FormatFloat(x)
		}
		return strings.Join(s, ","), true
	case calc.BigInt:
		return a.BigInt(p.Name).String(), true
	}
	return a.String(p.Name), true
}

func stepText(p *calc.Param) string {
	switch {
	case p.Step > 0:
		return calc.FormatFloat(p.Step)
	case p.Kind == calc.Int:
		return "1"
	}
	return "any"
}

// sliderRange is the finite range a slider covers, if any: none for a
// seed (its value is a name, not a quantity) or for a range of more than
// a million steps without a narrower slider range.
func sliderRange(p *calc.Param) (lo, hi float64, ok bool) {
	if p.Name == "seed" {
		return 0, 0, false
	}
	lo, hi = p.SliderMin, p.SliderMax
	if lo == 0 && hi == 0 {
		if !p.Min.Set || !p.Max.Set {
			return 0, 0, false
		}
		lo, hi = p.Min.V, p.Max.V
	} else {
		if lo == 0 && p.Min.Set {
			lo = p.Min.V
		}
		if hi == 0 && p.Max.Set {
			hi = p.Max.V
		}
	}
	if p.Kind == calc.Int && p.Min.Set && p.Min.Open && lo == p.Min.V {
		lo++
	}
	step := p.Step
	if step <= 0 {
		step = 1
		if p.Kind == calc.Float {
			step = (hi - lo) / 1000
		}
	}
	if (hi-lo)/step > 1e6 {
		return 0, 0, false
	}
	return lo, hi, hi > lo
}

// kindName is the data-kind of a control (wasm/playground/DOM.md).
func kindName(k calc.Kind) string {
	switch k {
	case calc.Int:
		return "int"
	case calc.Float:
		return "float"
	case calc.Bool:
		return "bool"
	case calc.Choice:
		return "choice"
	case calc.IntList:
		return "intlist"
	case calc.FloatList:
		return "floatlist"
	case calc.BigInt:
		return "bigint"
	case calc.Text:
		return "text"
	case calc.JSON:
		return "json"
	}
	return "unknown"
}

// esc escapes text and attribute values as html.EscapeString does (& ' <
// > " become &amp; &#39; &lt; &gt; &#34;; every other byte, valid UTF-8
// or not, is kept), without the html package (its entity table would add
// to the wasm module) or a strings.Replacer (its trie and replacers, about
// 15 KB of WebAssembly, which nothing else in the module needs).
// TestEsc and FuzzEsc hold it to html.EscapeString. s is returned as is
// when it holds none of the five.
func esc(s string) string {
	n := 0 // the bytes the entities add
	for i := 0; i < len(s); i++ {
		if k := escIndex[s[i]]; k != 0 {
			n += len(entities[k]) - 1
		}
	}
	if n == 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + n)
	writeEsc(&b, s)
	return b.String()
}

// writeEsc writes s escaped as esc escapes it, the escaped text never
// made a string of its own (a sentence a frame of a time view).
func writeEsc(b *strings.Builder, s string) {
	last := 0
	for i := 0; i < len(s); i++ {
		if k := escIndex[s[i]]; k != 0 {
			b.WriteString(s[last:i])
			b.WriteString(entities[k])
			last = i + 1
		}
	}
	b.WriteString(s[last:])
}

// escIndex maps a byte to its entity's index in entities; 0 (most bytes)
// means the byte stays as is.
var escIndex = [256]uint8{'&': 1, '\'': 2, '<': 3, '>': 4, '"': 5}

var entities = [...]string{1: "&amp;", 2: "&#39;", 3: "&lt;", 4: "&gt;", 5: "&#34;"}

// writef writes format with each %s replaced by the next of args, in
// order; %s is its only verb (TestWritefCalls checks every call). It
// writes the markup's templates instead of fmt.Fprintf, which the browser's
// module does not link. Writing the same markup as concatenations
// (b.WriteString(`<a x="` + x + `">`)) compiled to 34 KB more WebAssembly
// (8 KB gzip): every piece of a template is a constant and a store at
// each call site, where a template is one constant.
func writef(b *strings.Builder, format string, args ...string) {
	for _, a := range args {
		i := strings.Index(format, "%s")
		if i < 0 {
			break
		}
		b.WriteString(format[:i])
		b.WriteString(a)
		format = format[i+2:]
	}
	b.WriteString(format)
}
