package widget

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	"retrylab/core/calc"
	"retrylab/core/canonjson"
	"retrylab/site/locale"
)

// maxTableList is the longest list written as text in the results table;
// longer lists appear only in a chart and its data table.
const maxTableList = 20

// view draws one view of a calculator's result.
type view func(o *outCtx) error

// outCtx is what a view needs.
type outCtx struct {
	b   *strings.Builder
	c   *calc.Calculator
	a   calc.Args
	r   *result
	loc locale.Locale
	enc encoder // the set's encoders, for a comparison's second run
	// scale, in a run of a comparison, is the scale both runs share
	// (compare.go)
	scale *sharedScale
	// compared: the comparison's run of the page is the only drawing of
	// its view (it took the view's place), and keeps its outputs
	compared bool
	// views are the widget's views: a view leaves out what another of
	// them draws (amplification's tree beside its flow)
	views []string
	// variant, when not nil, keeps the variant run of the first
	// comparison drawn (compareView), for the citations of the same
	// recompute (Set.RenderOutputVariant)
	variant *variantRun
}

// viewDef is one specialised view of a calculator.
type viewDef struct {
	name  string
	fn    view
	extra bool // offered, but not in the default set
	// trace: the view draws what its calculator records under
	// calc.Args.WithTrace (single requests), not the result alone
	trace bool
}

// viewTable lists the specialised views of each calculator, in the order
// a widget shows them; those not marked extra are its default set. Every
// calculator also has "table" and "bars" (the generic chart of its
// numeric lists). The tables are built by functions, never held in a
// package variable: a module that never asks for a table links none of
// its views (Set).
type viewTable map[string][]viewDef

func (t viewTable) names(c *calc.Calculator) []string {
	names := []string{"table"}
	for _, v := range t[c.Name] {
		if v.name != "table" { // keyedTable: "table" is listed first
			names = append(names, v.name)
		}
	}
	return append(names, "bars")
}

func (t viewTable) defaults(c *calc.Calculator) []string {
	names := []string{"table"}
	if vs := t[c.Name]; len(vs) > 0 {
		for _, v := range vs {
			if !v.extra {
				names = append(names, v.name)
			}
		}
		return names
	}
	return append(names, "bars")
}

// runArgs is a with the trace that views draw (calc.Args.WithTrace:
// flowLaneMarks requests or jobs per run) when one of them draws one,
// the comparison's included (it draws pickCompareView's view); a as it
// is otherwise. No views means the calculator's default set.
func (t viewTable) runArgs(c *calc.Calculator, a calc.Args, views []string) calc.Args {
	if len(views) == 0 {
		views = t.defaults(c)
	}
	for _, n := range views {
		if _, isCmp := strings.CutPrefix(n, comparePrefix); isCmp {
			n = pickCompareName(t, c.Name)
		}
		for _, v := range t[c.Name] {
			if v.name == n && v.trace {
				return a.WithTrace(flowLaneMarks)
			}
		}
	}
	return a
}

func (t viewTable) check(c *calc.Calculator, names []string) error {
	all := t.names(c)
	for _, n := range names {
		if spec, isCmp := strings.CutPrefix(n, comparePrefix); isCmp {
			if _, _, err := compareValues(c, spec); err != nil {
				return err
			}
			continue
		}
		ok := false
		for _, a := range all {
			ok = ok || a == n
		}
		if !ok {
			return errors.New("calculator " + c.Name + " has no view " + strconv.Quote(n) + "; its views are " + strings.Join(all, ", "))
		}
	}
	return nil
}

// render is Set.RenderOutput; keep, when not nil, receives the variant
// run of the first comparison drawn.
func (t viewTable) render(enc encoder, c *calc.Calculator, a calc.Args, res any, viewNames []string, loc locale.Locale, keep *variantRun) (string, error) {
	r, err := encodeWith(enc, res)
	if err != nil {
		return "", err
	}
	if len(viewNames) == 0 {
		viewNames = t.defaults(c)
	}
	var b strings.Builder
	writef(&b, `<div class="widget-result" data-calc="%s">`+"\n", esc(c.Name))
	o := &outCtx{b: &b, c: c, a: a, r: r, loc: loc, enc: enc, views: viewNames, variant: keep}
	// a comparison draws the page's run of its view beside the variant's:
	// it takes that view's place, and the view is not drawn twice
	cmp, drawn := "", ""
	for _, name := range viewNames {
		if spec, isCmp := strings.CutPrefix(name, comparePrefix); isCmp {
			cmp, drawn = spec, pickCompareName(t, c.Name)
		}
	}
	if slices.Contains(viewNames, drawn) {
		o.compared = true
	}
	starts := make([]int, 0, len(viewNames)) // where each view drawn begins
	for _, name := range viewNames {
		if o.compared {
			if name == drawn {
				name = comparePrefix + cmp
			} else if strings.HasPrefix(name, comparePrefix) {
				continue
			}
		}
		var fn view
		switch name {
		case "bars":
			fn = genericBars
		default:
			if spec, isCmp := strings.CutPrefix(name, comparePrefix); isCmp {
				fn = func(o *outCtx) error { return compareView(o, t, spec) }
				break
			}
			for _, v := range t[c.Name] {
				if v.name == name {
					fn = v.fn
				}
			}
		}
		if fn == nil && name == "table" { // no view of the calculator's own (keyedTable): the rows
			fn = resultTable
		}
		if fn == nil {
			continue
		}
		at := b.Len()
		if err := o.safe(name, fn); err != nil {
			writef(&b, `<p class="widget-note" data-view="%s">%s</p>`+"\n", esc(name), esc(loc.TOr("widget.view_unavailable", "This chart cannot be drawn for these values.")))
		} else {
			starts = append(starts, at)
		}
	}
	b.WriteString("</div>\n")
	return markPicture(b.String(), starts), nil
}

// safe runs a view, so that a view that fails (or panics on a result of
// an unexpected shape) leaves no half-written markup: it writes into the
// output itself, not into a buffer of its own copied after it (twice the
// bytes of every view drawn), and what a failed view wrote is cut off.
func (o *outCtx) safe(name string, fn view) (err error) {
	saved, mark := o.b, o.b.Len()
	defer func() {
		o.b = saved // a view that panicked with o.b its own scratch
		if p := recover(); p != nil {
			err = errors.New("view " + name + " panicked")
		}
		if err != nil {
			truncate(saved, mark)
		}
	}()
	return fn(o)
}

// truncate keeps the first n bytes of b: a copy, which only a failed
// view pays.
func truncate(b *strings.Builder, n int) {
	s := b.String()[:n]
	*b = strings.Builder{} // as Reset, which the module does not link otherwise
	b.WriteString(s)
}

// fieldLabel is the label of a result field (field.CALC.NAME, else the
// name with spaces).
func fieldLabel(c *calc.Calculator, loc locale.Locale, name string) string {
	return loc.TOr("field."+c.Name+"."+name, strings.ReplaceAll(name, "_", " "))
}

// valueLabel is the label of one value of a result field: a key of a
// small object (a status code) or a text enumeration (binding: rpm, tpm,
// both), field.CALC.FIELD.VALUE, else the value itself.
func valueLabel(c *calc.Calculator, loc locale.Locale, field, value string) string {
	return loc.TOr("field."+c.Name+"."+field+"."+value, value)
}

// flatObject decodes a small object of scalars (a count per status code),
// its keys in order; ok is false for anything else.
func flatObject(raw []byte) ([]field, bool) {
	var list []field
	ok := canonjson.Members(raw, func(key, val []byte) bool {
		name, ok := canonjson.Unquote(key)
		list = append(list, field{Name: name, Raw: val})
		return ok && len(list) <= maxTableList
	})
	if !ok || len(list) == 0 {
		return nil, false
	}
	for _, f := range list {
		if k := jsonKind(f.Raw); k == 'o' || k == 'a' {
			return nil, false
		}
	}
	return list, true
}

// cellText is the text of a field in the results table.
func cellText(c *calc.Calculator, loc locale.Locale, f field) string {
	switch jsonKind(f.Raw) {
	case 'o':
		entries, ok := flatObject(f.Raw)
		if !ok {
			return string(f.Raw)
		}
		items := make([]string, len(entries))
		for i, e := range entries {
			items[i] = valueLabel(c, loc, f.Name, e.Name) + ": " + defaultText(e.Raw, loc)
		}
		return strings.Join(items, loc.TOr("widget.pair_sep", "; "))
	case 's':
		if s, ok := canonjson.Unquote(f.Raw); ok {
			// enumerations (binding: rpm, tpm, both) have labels
			return valueLabel(c, loc, f.Name, s)
		}
	case 'a':
		// a list of enumerated values (retry-strategies' strategy: none,
		// retries, adaptive, breaker) reads as their labels; labels with
		// commas of their own ("aperti, senza backoff") are told apart by
		// semicolons (locale.List)
		if elems, ok := splitList(f.Raw); ok && len(elems) > 0 && jsonKind(elems[0]) == 's' {
			items := make([]string, len(elems))
			for i, e := range elems {
				s, _ := canonjson.Unquote(e)
				items[i] = valueLabel(c, loc, f.Name, s)
			}
			return loc.List(items)
		}
	case 'n':
		if format := fieldFormat(c.Name + "." + f.Name); format != "" {
			if t, err := formatValue(f.Raw, format, loc); err == nil {
				return t
			}
		}
	}
	return defaultText(f.Raw, loc)
}

// fieldFormat returns the table format of a field (CALC.FIELD) that reads
// better than the default (ratios as percentages), or "". A switch, not a
// map: nothing to build when the program starts.
func fieldFormat(field string) string {
	switch field {
	case "limits.rpm_utilization", "limits.tpm_utilization":
		return "%1"
	case "attempts.success_probability":
		return "%2"
	case "retry-strategies.adaptive_success":
		return "%1" // as the strategies' table writes their success (zh reader review)
	case "timeouts.first_token_tail":
		return "%1" // as the prose cites it (zh reader review: 0,003364)
	case "metastable.p_full":
		return "%1"
	case "policies.utilization":
		return "%0"
	}
	return ""
}

// hidden reports the fields (CALC.FIELD) never written in the table: raw
// samples, plotted by the charts (and null when too many to keep); the
// policies lists, which the compare view writes as a table, a row per
// policy; errors' English note (the classification view explains each
// class).
func hidden(field string) bool {
	for _, f := range &hiddenFields {
		if f == field {
			return true
		}
	}
	return false
}

// hiddenFields are hidden's fields: a table in the module's data, not a
// switch's code.
var hiddenFields = [...]string{
	"jitter.arrivals_ms", "backoff.arrivals_s", "peak.max_at_least", "peak.note", "peak.max_note",
	"amplification.tree_note", "policies.policy", "policies.recovered", "policies.recovery_s",
	"policies.amplification", "policies.goodput", "policies.wasted_work", "errors.note", "configure.settings",
	"configure.formula", "configure.lang", "configure.snippet", "configure.lang2", "configure.snippet2",
	"configure.systems", "configure.outage_bounds", "configure.rate_bounds", "configure.sim_outages",
	"configure.sim_rates", "configure.meets_all",
}

// notes are the English notes of results, written in the reader's
// language after the table when the result has them (the calculator's
// English note explains the same thing to the API's readers).
var notes = []struct{ field, key, def string }{
	{"peak.note", "view.peak.table.note_exact", "The exact probability is not computed: with this many clients and bins it would exceed the work bound; the union bound stands."},
	{"peak.max_note", "view.peak.table.note_max", "The distribution of the fullest bin is not computed: with this many clients and bins it would exceed the work bound."},
}

// distinctFields are the result fields named like a parameter that hold
// something else, never an echo: errors' fallback is whether the class
// allows another provider, its parameter whether the dispatcher has one
// (the row came and went with the parameter: reader review).
var distinctFields = [...]string{"errors.fallback"}

// echoes reports whether field f repeats the value of the parameter of the
// same name (the form already shows it). A field that differs from its
// parameter stays: a preset's effective value, a derived default.
func echoes(a calc.Args, f field) bool {
	c := a.Calc()
	if c == nil || slices.Contains(distinctFields[:], c.Name+"."+f.Name) {
		return false
	}
	p := c.Param(f.Name)
	if p == nil {
		return false
	}
	if !a.Has(f.Name) {
		// an absent optional parameter: the field is its derived value,
		// worth showing unless it is null too
		return jsonKind(f.Raw) == 'z'
	}
	text, _ := argText(a, p)
	switch p.Kind {
	case calc.Int, calc.Float:
		v, ok1 := strconv.ParseFloat(string(f.Raw), 64)
		w, ok2 := strconv.ParseFloat(text, 64)
		return ok1 == nil && ok2 == nil && v == w
	case calc.Bool:
		return string(f.Raw) == text
	case calc.IntList, calc.FloatList:
		xs, ok := numList(f.Raw)
		want, ok2 := argFloats(a, p.Name)
		if !ok || !ok2 || len(xs) != len(want) {
			return false
		}
		for i := range xs {
			if xs[i] != want[i] {
				return false
			}
		}
		return true
	}
	if string(f.Raw) == "null" {
		return text == "" // json.Unmarshal of null into a string leaves ""
	}
	s, ok := canonjson.Unquote(f.Raw)
	return ok && s == text
}

// tableField reports whether a field belongs in the results table: not an
// echo of a parameter, not an object, not a long list.
func tableField(c *calc.Calculator, a calc.Args, f field) bool {
	if hidden(c.Name+"."+f.Name) || echoes(a, f) {
		return false
	}
	switch jsonKind(f.Raw) {
	case 'o':
		_, ok := flatObject(f.Raw)
		return ok
	case 'a':
		if n, ok := listLen(f.Raw, maxTableList); !ok || n > maxTableList {
			return false
		}
		elems, ok := splitList(f.Raw)
		if !ok {
			return false
		}
		for _, e := range elems {
			if k := jsonKind(e); k == 'o' || k == 'a' {
				return false
			}
		}
	}
	return true
}

// resultTable is the "table" view.
func resultTable(o *outCtx) error {
	b := o.b
	writef(b, `<table class="widget-table" tabindex="0" data-view="table"><caption>%s</caption><tbody>`+"\n", esc(o.loc.TOr("widget.results", "Results")))
	story, rest := storySplit(o.c, o.r.list)
	for _, f := range story {
		if tableField(o.c, o.a, f) {
			writeRow(b, o, f)
		}
	}
	b.WriteString("</tbody></table>\n")
	if len(rest) > 0 {
		openMore(b, "data-more-results", false, o.loc.TOr("widget.all_results", "All results"))
		writef(b, `<table class="widget-table" tabindex="0" data-view="table-more"><caption>%s</caption><tbody>`+"\n", esc(o.loc.TOr("widget.all_results", "All results")))
		for _, f := range rest {
			if tableField(o.c, o.a, f) {
				writeRow(b, o, f)
			}
		}
		b.WriteString("</tbody></table></details>\n")
	}
	for _, n := range notes {
		calcName, fieldName, _ := strings.Cut(n.field, ".")
		if calcName != o.c.Name {
			continue
		}
		if raw, ok := o.r.raw(fieldName); ok && jsonKind(raw) == 's' && string(raw) != `""` {
			writef(b, `<p class="widget-note" data-note="%s">%s</p>`+"\n", esc(fieldName), esc(o.loc.TOr(n.key, n.def)))
		}
	}
	return nil
}

// genericBars is the "bars" view: one bar chart per top-level field that
// is a list of numbers, drawn from the result's own slice (jsonEnc hands
// it over as it encodes: no JSON is read back).
func genericBars(o *outCtx) error {
	for i, f := range o.r.list {
		xs := o.r.nums[i].floats()
		if len(xs) < 2 || len(xs) > 500 {
			continue
		}
		cats := make([]string, len(xs))
		for i := range xs {
			cats[i] = o.loc.Int(int64(i + 1))
		}
		label := fieldLabel(o.c, o.loc, f.Name)
		ch := chart{
			View: "bars", Title: label,
			Desc:       o.loc.Tf("widget.chart.bars_desc", "{name}: {n} values, from the first to the last.", "name", label, "n", o.loc.Int(int64(len(xs)))),
			XLabel:     o.loc.TOr("widget.chart.index", "#"),
			YLabel:     label,
			Categories: cats,
			Series:     []series{{Name: label, Values: xs}},
			OutField:   f.Name, OutRaw: string(f.Raw),
		}
		ch.draw(o)
	}
	return nil
}

// vt looks up a view string: view.CALC.VIEW.KEY, with an English default,
// {names} replaced.
func (o *outCtx) vt(viewName, key, def string, kv ...string) string {
	return o.loc.Tf("view."+o.c.Name+"."+viewName+"."+key, def, kv...)
}

// outRaw is the JSON of a field, for the data-value of a chart's data table.
func (o *outCtx) outRaw(name string) string {
	raw, _ := o.r.raw(name)
	return string(raw)
}

// Float and Int parameters read without panicking when a calculator
// changes its declaration: ok is false when p is not declared so.
func argFloat(a calc.Args, name string) (float64, bool) {
	p := a.Calc().Param(name)
	if p == nil || !a.Has(name) {
		return 0, false
	}
	switch p.Kind {
	case calc.Float:
		return a.Float(name), true
	case calc.Int:
		return float64(a.Int(name)), true
	}
	return 0, false
}

func argFloats(a calc.Args, name string) ([]float64, bool) {
	p := a.Calc().Param(name)
	if p == nil || !a.Has(name) {
		return nil, false
	}
	switch p.Kind {
	case calc.FloatList:
		return a.Floats(name), true
	case calc.IntList:
		xs := a.Ints(name)
		fs := make([]float64, len(xs))
		for i, x := range xs {
			fs[i] = float64(x)
		}
		return fs, true
	}
	return nil, false
}
