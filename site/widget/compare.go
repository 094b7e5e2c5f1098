package widget

import (
	"errors"
	"strconv"
	"strings"

	"retrylab/core/calc"
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
	va, vres, err := o.c.Vary(o.a, param, value) // the calculator's own work bounds hold
	if err != nil {
		return err
	}
	vr, err := encodeWith(o.enc, vres)
	if err != nil {
		return err
	}
	fn := pickCompareView(t, o.c.Name)
	p := o.c.Param(param)
	baseText, _ := argText(o.a, p)
	varText, _ := argText(va, p)
	label := o.loc.ParamLabel(o.c, param)
	valueLabel := func(v string) string {
		switch p.Kind {
		case calc.Choice:
			return o.loc.TOr(o.c.LabelKey(param)+".choice."+v, v)
		case calc.Bool:
			return o.loc.YesNo(v == "true")
		}
		return v
	}
	b := o.b
	writef(b, `<section class="widget-compare" data-view="compare" data-compare="%s">`, esc(param+"="+value))
	// the sentence: the story's fields that differ
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
	var sentence string
	if len(items) == 0 {
		sentence = o.loc.Tf("widget.compare.same", "With {param} = {variant} instead of {base}, the results shown stay the same.",
			"param", label, "variant", valueLabel(varText), "base", valueLabel(baseText))
	} else {
		sentence = o.loc.Tf("widget.compare.sentence", "With {param} = {variant} instead of {base}: {list}.",
			"param", label, "variant", valueLabel(varText), "base", valueLabel(baseText), "list", o.loc.List(items))
	}
	writef(b, `<p class="widget-compare-sentence" data-compare-sentence data-compare-items="%s">%s</p><div class="widget-compare-runs">`, strconv.Itoa(len(items)), esc(sentence))
	run := func(name, heading string, oc *outCtx) error {
		writef(b, `<div class="widget-compare-run" data-run="%s"><p class="widget-compare-label">%s</p>`, name, esc(heading))
		var chart strings.Builder
		saved := oc.b
		oc.b = &chart
		err := oc.safe("compare", fn)
		oc.b = saved
		if err != nil {
			writef(b, `<p class="widget-note">%s</p>`, esc(o.loc.TOr("widget.view_unavailable", "This chart cannot be drawn for these values.")))
		}
		b.WriteString(dropOuts(chart.String()))
		b.WriteString(`</div>`)
		return nil
	}
	run("base", o.loc.Tf("widget.compare.base", "This page: {param} = {value}", "param", label, "value", valueLabel(baseText)), o)
	vo := &outCtx{b: b, c: o.c, a: va, r: vr, loc: o.loc, enc: o.enc}
	run("variant", o.loc.Tf("widget.compare.variant", "Compared: {param} = {value}", "param", label, "value", valueLabel(varText)), vo)
	b.WriteString("</div></section>\n")
	return nil
}

// pickCompareView is the view a comparison draws twice: the time view,
// else the first specialised view, else the generic bars.
func pickCompareView(t viewTable, name string) view {
	for _, v := range t[name] {
		if v.name == "play" {
			return v.fn
		}
	}
	for _, v := range t[name] {
		if !v.extra {
			return v.fn
		}
	}
	return genericBars
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

// CompareCite starts the field of a citation of the comparison's variant:
// {=ID.compare.FIELD} cites FIELD of the run that the widget's
// "compare: PARAM=VALUE" draws beside the page's.
const CompareCite = "compare."

// Variant runs the comparison that views ask for ("compare:PARAM=VALUE",
// as data-views carries it): c on a with PARAM set to VALUE. ok is false
// when views ask for no comparison.
func Variant(c *calc.Calculator, a calc.Args, views []string) (res any, ok bool, err error) {
	for _, v := range views {
		if spec, isCmp := strings.CutPrefix(v, comparePrefix); isCmp {
			param, value, err := compareValues(c, spec)
			if err != nil {
				return nil, true, err
			}
			_, res, err := c.Vary(a, param, value)
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
