package widget

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"

	"retrylab/core/calc"
	"retrylab/site/locale"
)

// comparePrefix starts the name of the comparison view in a widget's view
// list: "compare:PARAM=VALUE" draws the page's state and the variant that
// sets PARAM to VALUE side by side, with a sentence stating what changes.
// It rides in the view list (data-views) so that the browser playground
// computes the variant with the same code, with no change of its own.
const comparePrefix = "compare:"

// CompareView is the view name of a comparison with PARAM=VALUE
// (spec), for Spec.Views.
func CompareView(spec string) string { return comparePrefix + spec }

// maxCompareItems is the most result fields the comparison's sentence
// names.
const maxCompareItems = 4

// compareValues checks a comparison spec "PARAM=VALUE" against c: a
// declared parameter, a value it accepts, no ',' (view lists are
// comma-separated). It returns the parameter and the value.
func compareValues(c *calc.Calculator, spec string) (string, string, error) {
	param, value, ok := strings.Cut(spec, "=")
	param, value = strings.TrimSpace(param), strings.TrimSpace(value)
	if !ok || param == "" {
		return "", "", errors.New("compare: expected PARAM=VALUE, got " + strconv.Quote(spec))
	}
	if c.Param(param) == nil {
		return "", "", errors.New("compare: calculator " + c.Name + " has no parameter " + strconv.Quote(param))
	}
	if strings.Contains(value, ",") {
		return "", "", errors.New("compare: the value of " + param + " may not hold ','")
	}
	if _, err := c.Parse(map[string][]string{param: {value}}); err != nil {
		return "", "", errors.New("compare: " + err.Error())
	}
	return param, value, nil
}

// compareView draws the page's state and the variant side by side (small
// multiples of the calculator's time view, else of its first chart), and
// states in a sentence how the story's results differ.
func compareView(o *outCtx, t viewTable, spec string) error {
	param, value, err := compareValues(o.c, spec)
	if err != nil {
		return err
	}
	// the calculator's own work bounds hold; a result that holds the
	// variant's already (dispatch's traced run: both modes) answers it
	va, vres, err := o.c.VaryFrom(t.variantArgs(o.c, o.a), o.r.val, param, value)
	if err != nil {
		return err
	}
	vr, err := encodeWith(o.enc, vres)
	if err != nil {
		return err
	}
	if v := o.variant; v != nil && !v.done {
		v.spec, v.res, v.done = spec, Encoded{vr}, true
	}
	fn := pickCompareView(t, o.c.Name)
	p := o.c.Param(param)
	baseText, _ := argText(o.a, p)
	varText, _ := argText(va, p)
	label := o.loc.ParamLabel(o.c, param)
	valueLabel := func(v string) string {
		switch p.Kind {
		case calc.Choice:
			return o.loc.ChoiceLabel(o.c, param, v)
		case calc.Bool:
			return o.loc.YesNo(v == "true")
		case calc.Int, calc.Float: // as the page writes numbers
			if x, err := strconv.ParseFloat(v, 64); err == nil {
				return o.loc.Number(x)
			}
		}
		return v
	}
	b := o.b
	writef(b, `<section class="widget-compare" data-view="compare" data-compare="%s">`, esc(param+"="+value))
	// the story's fields that differ: the comparison's own sentence names
	// those its author chose; the generic one, the first few
	var items []string
	for _, f := range compareFields(o) {
		vf, ok := vr.raw(f.Name)
		if !ok || string(vf) == string(f.Raw) {
			continue
		}
		items = append(items, o.loc.Tf("widget.compare.item", "{field}: {a} → {b}",
			"field", fieldLabel(o.c, o.loc, f.Name), "a", cellText(o.c, o.loc, f), "b", cellText(o.c, o.loc, field{Name: f.Name, Raw: vf})))
		if len(items) == maxCompareItems {
			break
		}
	}
	key := "sentence"
	if len(items) == 0 {
		key = "same"
	}
	pv := []string{"param", label, "variant", valueLabel(varText), "base", valueLabel(baseText)}
	sentence, ok := compareSentence(o, vr, param, key, pv)
	switch {
	case ok:
	case len(items) == 0:
		sentence = o.loc.Tf("widget.compare.same", "With {param} = {variant} instead of {base}, the results shown stay the same.", pv...)
	default:
		sentence = o.loc.Tf("widget.compare.sentence", "With {param} = {variant} instead of {base}: {list}.", append(pv, "list", o.loc.List(items))...)
	}
	writef(b, `<p class="widget-compare-sentence" data-compare-sentence data-compare-items="%s">%s</p><div class="widget-compare-runs">`, strconv.Itoa(len(items)), esc(sentence))
	vo := &outCtx{c: o.c, a: va, r: vr, loc: o.loc, enc: o.enc}
	// both runs on one scale: a first pass draws each run to its own
	// axes, measuring them; a run whose axes are the larger of the two at
	// every one keeps that drawing (drawn again to the shared tops, it
	// would be the same bytes), the other is drawn again to the shared
	// tops
	draw := func(oc *outCtx, s *sharedScale) (string, error) {
		var chart strings.Builder
		saved := oc.b
		oc.b, oc.scale, s.next = &chart, s, 0
		err := oc.safe("compare", fn)
		oc.b, oc.scale = saved, nil
		return chart.String(), err
	}
	runs := [2]*outCtx{o, vo}
	var first [2]struct {
		out     string
		err     error
		tops    []float64
		byIndex bool // no axis skipped (NaN): tops are by index
	}
	scale := &sharedScale{measure: true}
	for i, oc := range runs {
		own := &sharedScale{measure: true}
		first[i].out, first[i].err = draw(oc, own)
		first[i].tops, first[i].byIndex = own.tops, own.next == len(own.tops)
		scale.widen(own.tops)
	}
	scale.measure = false
	run := func(name, heading string, i int) {
		oc := runs[i]
		writef(b, `<div class="widget-compare-run" data-run="%s"><p class="widget-compare-label">%s</p>`, name, esc(heading))
		// the page's only drawing of the view is written as it is, into
		// the output; any other drawing loses its outputs (dropOuts)
		direct := oc == o && o.compared
		out, err := first[i].out, first[i].err
		if !first[i].byIndex || !slices.Equal(first[i].tops, scale.tops) {
			out, err = draw(oc, scale)
		}
		if err != nil {
			writef(b, `<p class="widget-note">%s</p>`, esc(o.loc.TOr("widget.view_unavailable", "This chart cannot be drawn for these values.")))
		} else if direct {
			b.WriteString(out)
		} else {
			b.WriteString(dropOuts(out))
		}
		b.WriteString(`</div>`)
	}
	run("base", o.loc.Tf("widget.compare.base", "This page: {param} = {value}", "param", label, "value", valueLabel(baseText)), 0)
	run("variant", o.loc.Tf("widget.compare.variant", "Compared: {param} = {value}", "param", label, "value", valueLabel(varText)), 1)
	b.WriteString("</div></section>\n")
	return nil
}

// compareSentence is the comparison's own sentence in the reader's
// language, widget.compare.CALC.PARAM.KEY (KEY sentence, or same when the
// results shown do not differ): written per language, not assembled. Its
// {a.FIELD} and {b.FIELD} are FIELD of the page's run and of the compared
// one ({a.FIELD:FORMAT} in a citation's format: N, %N, eN), {base} and
// {variant} the parameter's two values (kv). ok is false when the
// language has none, or it names a field the result lacks.
func compareSentence(o *outCtx, vr *result, param, key string, kv []string) (string, bool) {
	t, ok := o.loc.Lookup("widget.compare." + o.c.Name + "." + param + "." + key)
	if !ok {
		return "", false
	}
	for _, name := range locale.Placeholders(t) {
		r := o.r
		spec, isA := strings.CutPrefix(name, "a.")
		if !isA {
			var isB bool
			if spec, isB = strings.CutPrefix(name, "b."); !isB {
				continue
			}
			r = vr
		}
		f, format, _ := strings.Cut(spec, ":")
		text, _, err := r.cite(o.c, f, format, o.loc)
		if err != nil {
			return "", false
		}
		kv = append(kv, name, text)
	}
	return locale.Expand(t, kv...), true
}

// pickCompareView is the view a comparison draws twice: the time view,
// else the first specialised view, else the generic bars.
func pickCompareView(t viewTable, name string) view {
	n := pickCompareName(t, name)
	for _, v := range t[name] {
		if v.name == n {
			return v.fn
		}
	}
	return genericBars
}

// pickCompareName is the name of pickCompareView's view ("bars" for the
// generic chart).
func pickCompareName(t viewTable, name string) string {
	for _, v := range t[name] {
		if v.name == "play" {
			return v.name
		}
	}
	for _, v := range t[name] {
		if !v.extra {
			return v.name
		}
	}
	return "bars"
}

// compareFields are the fields the comparison's sentence may name: the
// story fields, else the numbers of the results table.
func compareFields(o *outCtx) []field {
	story, _ := storySplit(o.c, o.r.list)
	var out []field
	for _, f := range story {
		if jsonKind(f.Raw) == 'n' && tableField(o.c, o.a, f) {
			out = append(out, f)
		}
	}
	return out
}

// variantRun is the variant run of a comparison "compare:SPEC" that a
// render drew (Set.RenderOutputVariant): done once it holds one.
type variantRun struct {
	spec string
	res  Encoded // the variant's result, encoded
	done bool
}

// CompareCite starts the field of a citation of the comparison's variant:
// {=ID.compare.FIELD} cites FIELD of the run that the widget's
// "compare: PARAM=VALUE" draws beside the page's.
const CompareCite = "compare."

// variantArgs is a for the comparison's variant run: with a's trace
// (calc.Args.WithTrace) only when the view the comparison draws twice
// draws one (pickCompareView). A flow view elsewhere in the widget draws
// the page's run alone, so the variant does not record its requests: for
// dispatch, whose traced run is both modes', that is two runs of the
// simulation a recompute does not make.
func (t viewTable) variantArgs(c *calc.Calculator, a calc.Args) calc.Args {
	n := pickCompareName(t, c.Name)
	for _, v := range t[c.Name] {
		if v.name == n && v.trace {
			return a
		}
	}
	return a.WithTrace(0)
}

// Variant runs the comparison that views ask for ("compare:PARAM=VALUE",
// as data-views carries it): c on a with PARAM set to VALUE, as the
// widget's output runs it (the set's variantArgs). base, when not nil, is
// c's result on a, from which a calculator that holds the variant already
// answers it (calc.Calculator.VaryFrom). ok is false when views ask for no
// comparison.
func (s *Set) Variant(c *calc.Calculator, a calc.Args, base any, views []string) (res any, ok bool, err error) {
	return s.table().variant(c, a, base, views)
}

// Variant is Set.Variant for the calculators of calc.New (All's views).
func Variant(c *calc.Calculator, a calc.Args, base any, views []string) (res any, ok bool, err error) {
	return allViews().variant(c, a, base, views)
}

func (t viewTable) variant(c *calc.Calculator, a calc.Args, base any, views []string) (res any, ok bool, err error) {
	for _, v := range views {
		if spec, isCmp := strings.CutPrefix(v, comparePrefix); isCmp {
			param, value, err := compareValues(c, spec)
			if err != nil {
				return nil, true, err
			}
			_, res, err := c.VaryFrom(t.variantArgs(c, a), base, param, value)
			return res, true, err
		}
	}
	return nil, false, nil
}

// dropOuts removes the data-out and data-value attributes from a run's
// chart: a widget's outputs are the page's result, each once (its table's
// and its own charts'), never a copy, nor the variant's values.
func dropOuts(s string) string {
	const out, val = ` data-out="`, ` data-value="`
	for {
		i := strings.Index(s, out)
		if i < 0 {
			return s
		}
		end := attrEnd(s, i+len(out))
		if strings.HasPrefix(s[end:], val) {
			end = attrEnd(s, end+len(val))
		}
		s = s[:i] + s[end:]
	}
}

// attrEnd is the index after the '"' that closes the attribute value
// starting at j (escaped values hold none), or len(s).
func attrEnd(s string, j int) int {
	if k := strings.IndexByte(s[j:], '"'); k >= 0 {
		return j + k + 1
	}
	return len(s)
}

// sharedScale puts the two runs of a comparison on one scale: a first
// pass over both runs records the top of each axis they draw, in drawing
// order (the same view draws the same axes in the same order); the second
// draws both to the larger of the two tops, so that equal heights mean
// equal values.
type sharedScale struct {
	tops    []float64
	next    int
	measure bool
}

// widen raises s's tops to tops, index by index (a measuring pass).
func (s *sharedScale) widen(tops []float64) {
	for k, v := range tops {
		if k == len(s.tops) {
			s.tops = append(s.tops, v)
		} else {
			s.tops[k] = math.Max(s.tops[k], v)
		}
	}
}

// shared is the top of the next axis a view draws, v from its own data:
// v itself outside a comparison, the runs' largest in one.
func (o *outCtx) shared(v float64) float64 {
	s := o.scale
	if s == nil {
		return v
	}
	i := s.next
	s.next++
	switch {
	case math.IsNaN(v):
	case s.measure && i == len(s.tops):
		s.tops = append(s.tops, v)
	case s.measure && i < len(s.tops):
		s.tops[i] = math.Max(s.tops[i], v)
	case i < len(s.tops):
		return math.Max(v, s.tops[i])
	}
	return v
}
