package e2e

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/url"
	"reflect"
	"strconv"
	"strings"

	"retrylab/core/calc"
	"retrylab/core/standin/bigint"
	"retrylab/site/locale"
)

// Edit is one change of a widget's control that the browser tests make,
// with what the calculator itself computes for it.
type Edit struct {
	Param  string
	Value  string     // the text typed into the control
	Values url.Values // the widget's values after the edit
	Result any        // the calculator's result for Values (nil for a refused edit)
	Err    *calc.Error
}

// Fields returns the result's fields as raw JSON, as the API writes them.
func Fields(res any) (map[string]json.RawMessage, error) {
	b, err := json.Marshal(res)
	if err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	return m, json.Unmarshal(b, &m)
}

// PageValues returns the widget's starting values: data-defaults and the
// declared defaults of the parameters it leaves out.
func PageValues(c *calc.Calculator, dataDefaults string) (url.Values, error) {
	given, err := url.ParseQuery(dataDefaults)
	if err != nil {
		return nil, err
	}
	out := url.Values{}
	for _, p := range c.Params {
		if v := given.Get(p.Name); v != "" {
			out.Set(p.Name, v)
		} else if p.Default != "" {
			out.Set(p.Name, p.Default)
		}
	}
	return out, nil
}

// editable reports whether a test can set p's control (every kind: text
// fields and selects through their value, a checkbox through checked).
func editable(p *calc.Param) bool { return p.Kind != 0 }

// candidates are values near cur that a reader could set.
func candidates(p *calc.Param, cur string) []string {
	var out []string
	switch p.Kind {
	case calc.Choice:
		for _, ch := range p.Choices {
			if ch != cur {
				out = append(out, ch)
			}
		}
	case calc.BigInt:
		if n, ok := calc.ParseBigInt(cur); ok {
			out = append(out, n.Add(bigint.FromInt64(1)).String())
		}
	case calc.Int:
		n, err := strconv.Atoi(cur)
		if err != nil {
			return nil
		}
		for _, v := range []int{n + 1, n - 1, n * 2, n / 2} {
			out = append(out, strconv.Itoa(v))
		}
	case calc.Bool:
		if cur == "true" {
			out = append(out, "false")
		} else {
			out = append(out, "true")
		}
	case calc.IntList, calc.FloatList:
		first, rest, _ := strings.Cut(cur, ",")
		if rest != "" {
			rest = "," + rest
		}
		elem := *p
		elem.Kind = calc.Float
		if p.Kind == calc.IntList {
			elem.Kind = calc.Int
		}
		for _, v := range candidates(&elem, strings.TrimSpace(first)) {
			out = append(out, v+rest)
		}
		if cur != "" {
			out = append(out, cur+","+strings.TrimSpace(first))
		}
	case calc.Text:
		out = append(out, cur+"x")
	case calc.JSON:
		out = append(out, "["+cur+"]", `{"retrylab":1}`)
	case calc.Float:
		f, err := strconv.ParseFloat(cur, 64)
		if err != nil {
			return nil
		}
		step := p.Step
		if step == 0 {
			step = 1
		}
		vs := []float64{f + step, f - step, f * 2, f / 2}
		if p.Max.Set {
			vs = append(vs, (f+p.Max.V)/2)
		}
		for _, v := range vs {
			v = math.Round(v*1e9) / 1e9
			out = append(out, calc.FormatFloat(v))
		}
	}
	return out
}

// PlanEdit finds an edit of one editable control that the calculator
// accepts and whose result differs from the page's: the test types it and
// expects the calculator's own values in the page.
func PlanEdit(c *calc.Calculator, page url.Values) (Edit, error) {
	before, err := c.Compute(page)
	if err != nil {
		return Edit{}, fmt.Errorf("%s: the page's values are refused: %w", c.Name, err)
	}
	bj, _ := json.Marshal(before)
	for i := range c.Params {
		p := &c.Params[i]
		if !editable(p) {
			continue
		}
		for _, v := range candidates(p, page.Get(p.Name)) {
			values := cloneValues(page)
			values.Set(p.Name, v)
			res, err := c.Compute(values)
			if err != nil {
				continue
			}
			if rj, _ := json.Marshal(res); string(rj) == string(bj) {
				continue
			}
			return Edit{Param: p.Name, Value: v, Values: values, Result: res}, nil
		}
	}
	return Edit{}, fmt.Errorf("%s: no editable parameter changes the result", c.Name)
}

// PlanBadEdit finds a value out of a numeric parameter's range: the
// calculator refuses it with an error about that parameter.
func PlanBadEdit(c *calc.Calculator, page url.Values) (Edit, error) {
	for i := range c.Params {
		p := &c.Params[i]
		var bad string
		switch {
		case p.Kind.IsNumeric() && p.Max.Set:
			bad = calc.FormatFloat(math.Max(p.Max.V*10, p.Max.V+1) + 1)
		case p.Kind.IsNumeric() && p.Min.Set:
			bad = calc.FormatFloat(p.Min.V - 1)
		case p.Kind == calc.JSON:
			bad = "{"
		default:
			continue
		}
		if p.Kind.IsList() {
			if _, rest, ok := strings.Cut(page.Get(p.Name), ","); ok {
				bad += "," + rest
			}
		}
		values := cloneValues(page)
		values.Set(p.Name, bad)
		_, err := c.Compute(values)
		var ce *calc.Error
		if errors.As(err, &ce) && ce.Param == p.Name {
			return Edit{Param: p.Name, Value: bad, Values: values, Err: ce}, nil
		}
	}
	return Edit{}, fmt.Errorf("%s: no parameter with a bound or a syntax", c.Name)
}

func cloneValues(v url.Values) url.Values {
	out := url.Values{}
	for k, vs := range v {
		out[k] = append([]string(nil), vs...)
	}
	return out
}

// SameJSON reports whether two JSON texts hold the same value. Numbers
// may differ by a few units in the last place (relative 1e-12): the same
// Go code computes both sides, but math.Exp, math.Log and friends are
// assembly on amd64 (the build) and pure Go on wasm (the browser), and
// their last bits can differ.
func SameJSON(a, b string) bool {
	if strings.TrimSpace(a) == strings.TrimSpace(b) {
		return true
	}
	var x, y any
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return false
	}
	return near(x, y)
}

func near(x, y any) bool {
	switch x := x.(type) {
	case float64:
		y, ok := y.(float64)
		if !ok {
			return false
		}
		d := math.Abs(x - y)
		return d == 0 || d <= 1e-12*math.Max(math.Abs(x), math.Abs(y))
	case []any:
		y, ok := y.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !near(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := y.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k := range x {
			if !near(x[k], y[k]) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(x, y)
}

// PageLocale decodes the page's <script id="retrylab-data"> into the
// locale the playground uses (wasm/playground/DOM.md: locale.Locale is JSON).
func PageLocale(data []byte, lang string) (locale.Locale, error) {
	var d struct {
		Lang    string
		Strings map[string]string
		Locale  *locale.Locale
	}
	if err := json.Unmarshal(data, &d); err != nil {
		return locale.Locale{}, fmt.Errorf("retrylab-data: %w", err)
	}
	if d.Locale != nil {
		return *d.Locale, nil
	}
	if d.Lang == "" {
		d.Lang = lang
	}
	return locale.Locale{Lang: d.Lang, Strings: d.Strings}, nil
}
