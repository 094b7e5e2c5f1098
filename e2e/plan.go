package e2e

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"net/url"
	"reflect"
	"strconv"
	"strings"

	"retrylab/calc"
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

// editable reports whether a test can type a value into p's control with
// SetValue (not a checkbox, not a list or free text).
func editable(p *calc.Param) bool {
	switch p.Kind {
	case calc.Int, calc.Float, calc.Choice, calc.BigInt:
		return true
	}
	return false
}

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
			out = append(out, n.Add(n, bigOne()).String())
		}
	case calc.Int:
		n, err := strconv.Atoi(cur)
		if err != nil {
			return nil
		}
		for _, v := range []int{n + 1, n - 1, n * 2, n / 2} {
			out = append(out, strconv.Itoa(v))
		}
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
		if p.Kind != calc.Int && p.Kind != calc.Float {
			continue
		}
		var bad string
		switch {
		case p.Max.Set:
			bad = calc.FormatFloat(math.Max(p.Max.V*10, p.Max.V+1) + 1)
		case p.Min.Set:
			bad = calc.FormatFloat(p.Min.V - 1)
		default:
			continue
		}
		values := cloneValues(page)
		values.Set(p.Name, bad)
		_, err := c.Compute(values)
		var ce *calc.Error
		if errors.As(err, &ce) && ce.Param == p.Name {
			return Edit{Param: p.Name, Value: bad, Values: values, Err: ce}, nil
		}
	}
	return Edit{}, fmt.Errorf("%s: no numeric parameter with a bound", c.Name)
}

func cloneValues(v url.Values) url.Values {
	out := url.Values{}
	for k, vs := range v {
		out[k] = append([]string(nil), vs...)
	}
	return out
}

// SameJSON reports whether two JSON texts hold the same value (numbers
// compared as written by Go's encoder: both sides come from the same Go
// code).
func SameJSON(a, b string) bool {
	if strings.TrimSpace(a) == strings.TrimSpace(b) {
		return true
	}
	var x, y any
	da := json.NewDecoder(strings.NewReader(a))
	da.UseNumber()
	db := json.NewDecoder(strings.NewReader(b))
	db.UseNumber()
	if da.Decode(&x) != nil || db.Decode(&y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// PageLocale decodes the page's <script id="retrylab-data"> into the
// locale the playground uses (docs/dom.md: locale.Locale is JSON).
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

func bigOne() *big.Int { return big.NewInt(1) }
