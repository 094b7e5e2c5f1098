package locale

import (
	"math"
	"strconv"

	"retrylab/core/calc"
)

// Error returns the message of e in the language: the template err.CODE
// (else calc.EnglishTemplate), with {param} replaced by the parameter's
// label (param.CALC.NAME, else its name), {range} by the allowed values in
// the language's notation, {detail} by the translation of
// Vars["detail_key"] when the table has it (else the calculator's English
// detail), numeric {min}, {max} and {count} in the language's digits, and
// the other {vars} as the calculator wrote them. c may be nil (an unknown
// calculator).
func (l Locale) Error(e *calc.Error, c *calc.Calculator) string {
	if e == nil {
		return ""
	}
	t, ok := l.Lookup(e.Key())
	if !ok {
		t = calc.EnglishTemplate(e.Code)
		if t == "" {
			return e.Message
		}
	}
	vars := l.errorVars(e, c)
	kv := make([]string, 0, 2*len(vars)+2)
	kv = append(kv, "param", l.ParamLabel(c, e.Param))
	for k, v := range vars {
		kv = append(kv, k, v)
	}
	return Expand(t, kv...)
}

func (l Locale) errorVars(e *calc.Error, c *calc.Calculator) map[string]string {
	vars := make(map[string]string, len(e.Vars))
	for k, v := range e.Vars {
		vars[k] = v
	}
	for _, k := range []string{"min", "max", "count"} {
		if n, err := strconv.ParseInt(vars[k], 10, 64); err == nil {
			vars[k] = l.Int(n)
		}
	}
	var p *calc.Param
	if c != nil {
		p = c.Param(e.Param)
	}
	if _, has := vars["range"]; has && p != nil {
		vars["range"] = l.Range(p)
	}
	if key := vars["detail_key"]; key != "" {
		if t, ok := l.Lookup(key); ok {
			dkv := []string{"param", l.ParamLabel(c, e.Param)}
			for k, v := range e.Vars {
				if k == "detail" || k == "detail_key" {
					continue
				}
				if k == "range" {
					v = vars[k]
				}
				if c != nil {
					// a value of a Choice parameter ("the {policy} policy")
					// reads as its label
					if p := c.Param(k); p != nil && p.Kind == calc.Choice {
						v = l.ChoiceLabel(c, k, v)
					}
				}
				// numbers read in the page's language; "NaN" and
				// "Infinity" (a JSON refusal names them) stay as written
				if f, err := strconv.ParseFloat(v, 64); err == nil && k != "value" && !math.IsNaN(f) && !math.IsInf(f, 0) {
					v = l.Number(f)
				}
				dkv = append(dkv, k, v)
			}
			vars["detail"] = Expand(t, dkv...)
		}
	}
	return vars
}

// ChoiceLabel returns the label of value of the Choice parameter name of
// c (param.CALC.NAME.choice.VALUE), as its control shows it, else the
// value itself.
func (l Locale) ChoiceLabel(c *calc.Calculator, name, value string) string {
	return l.TOr(c.LabelKey(name)+".choice."+value, value)
}

// ParamLabel returns the label of parameter name of c (param.CALC.NAME),
// else the name itself.
func (l Locale) ParamLabel(c *calc.Calculator, name string) string {
	if c == nil || name == "" {
		return name
	}
	return l.TOr(c.LabelKey(name), name)
}

// Range describes the values p allows in the language's notation: an
// interval with the language's numbers and separator ("[0; 1]",
// "(0; 10.000.000]", "[1; +∞)" in Italian; "[0, 1]" in Chinese), the
// choices as alternatives ("fixed, full o equal"), yes/no, or the
// widget.range.* strings for integers of any size and text lengths.
func (l Locale) Range(p *calc.Param) string {
	switch p.Kind {
	case calc.Choice:
		return l.ListOr(p.Choices)
	case calc.Bool:
		return l.ListOr([]string{"true", "false"})
	case calc.BigInt:
		return l.TOr("widget.range.bigint", "an integer of any size and sign")
	case calc.Text, calc.JSON:
		max := p.MaxLen
		if max == 0 {
			max = 4096
			if p.Kind == calc.JSON {
				max = 65536
			}
		}
		return l.Tf("widget.range.bytes", "at most {max} bytes", "max", l.Int(int64(max)))
	}
	lo, hi := "(-∞", "+∞)"
	if p.Min.Set {
		lo = "[" + l.Number(p.Min.V)
		if p.Min.Open {
			lo = "(" + l.Number(p.Min.V)
		}
	}
	if p.Max.Set {
		hi = l.Number(p.Max.V) + "]"
		if p.Max.Open {
			hi = l.Number(p.Max.V) + ")"
		}
	}
	return lo + l.sym().intervalSep + hi
}

// IntervalSep is the separator between the two ends of an interval ("; "
// in languages with a decimal comma, ", " otherwise).
func (l Locale) IntervalSep() string { return l.sym().intervalSep }

// DecimalMark is the language's decimal separator.
func (l Locale) DecimalMark() string { return l.sym().decimal }

// GroupMark is the language's group separator (Int, Number: "." in
// Italian and Spanish, "," in Chinese).
func (l Locale) GroupMark() string { return l.sym().group }

// GroupMin is the fewest digits of an integer part that Int and Number
// group: 4 (Italian 1.344), or 5 where CLDR's minimumGroupingDigits is 2
// (Spanish 1344 but 12.344). With DecimalMark and GroupMark, the page's
// scripts write numbers as the page does (<html data-group-min>:
// site/assets/player.js numberFormat).
func (l Locale) GroupMin() int { return 3 + l.sym().minGrouping }
