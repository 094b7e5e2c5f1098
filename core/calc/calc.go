package calc

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"retrylab/core/canonjson"
	"retrylab/core/meter"
	"retrylab/core/standin/bigint"
)

// Calculator is one experiment: a name, its parameters and the function
// that computes its result. Run receives Args that passed every declared
// check; it returns a value that encoding/json can encode (a struct with
// json tags), or an *Error for rules that link parameters and work bounds.
type Calculator struct {
	Name    string
	Article int    // 1, 2 or 3: the article the experiment belongs to (set by Articles' lists: article1, article2, article3)
	Help    string // one English line for `retrylab calc`
	Params  []Param
	// Essential names the parameters (at most 4, in Params) a widget
	// shows first; the others sit under "more parameters". Empty: all
	// are shown. StoryFields names the result fields shown first; the
	// others sit under "all results". Empty: all are shown.
	Essential   []string
	StoryFields []string
	Run         func(a Args) (any, error)
	// Work, when not nil, returns the work a's values imply, counted
	// before computing, in the calculator's own unit (a random draw, a
	// simulated call, a multiply-add; a listed number of the answer
	// counts as itemWork): 0 when Run refuses the values itself. The
	// shared server refuses values whose Work is above ServerWork
	// (ServerCheck); the command line and the browser only have Run's
	// own, larger bounds. WorkParam is the parameter the refusal names.
	Work       func(a Args) float64
	ServerWork float64
	WorkParam  string
	// Examples are accepted queries beyond the defaults (a=1&b=2, as
	// in a URL) that reach the corners of the result: the extremes of the
	// ranges, an empty list, a value that changes the result's shape.
	// The tests that walk every calculator run them too (the generated
	// encoders against encoding/json in site/widget, among others), beside
	// the defaults and every choice and boolean, which they walk by
	// themselves.
	Examples []string
	// Notes, when not empty, follows the parameters in `retrylab calc
	// NAME -h` (one English line each: the presets of policies).
	Notes []string
	// Reuse, when not nil, returns the result of va, which differs from
	// the Args of base (a result of Run) in param alone, when base
	// already holds it (dispatch's traced run holds both modes' runs),
	// and false otherwise: VaryFrom then runs va. What it returns is
	// what Run(va) would return (TestReuseEqualsRun).
	Reuse func(base any, param string, va Args) (any, bool)
}

// Param returns the declaration of the parameter called name, or nil.
func (c *Calculator) Param(name string) *Param {
	for i := range c.Params {
		if c.Params[i].Name == name {
			return &c.Params[i]
		}
	}
	return nil
}

// LabelKey returns the translation key of a parameter's label:
// "param.CALC.NAME". Its description is LabelKey+".help".
func (c *Calculator) LabelKey(name string) string { return "param." + c.Name + "." + name }

func (c *Calculator) paramNames() string {
	names := make([]string, len(c.Params))
	for i, p := range c.Params {
		names[i] = p.Name
	}
	return strings.Join(names, ", ")
}

// Args holds parsed, validated parameter values. Every declared parameter
// has a value except absent Optional ones (see Has). The accessors panic on
// a name the calculator does not declare with that kind: that is a bug in
// the calculator, caught by the registry tests.
type Args struct {
	calc  *Calculator
	vals  map[string]any
	raw   map[string]string // the canonical text of each value given by the caller
	poll  meter.Poll        // WithPoll's (work.go)
	trace int               // WithTrace's (work.go)
	memo  *Memo             // WithMemo's (memo.go)
}

// Has reports whether name has a value (given or defaulted).
func (a Args) Has(name string) bool { _, ok := a.vals[name]; return ok }

// Given reports whether the caller set name explicitly.
func (a Args) Given(name string) bool { _, ok := a.raw[name]; return ok }

// Int returns an Int parameter.
func (a Args) Int(name string) int { return a.get(name, Int).(int) }

// Float returns a Float parameter.
func (a Args) Float(name string) float64 { return a.get(name, Float).(float64) }

// Bool returns a Bool parameter.
func (a Args) Bool(name string) bool { return a.get(name, Bool).(bool) }

// String returns a Choice, Text or JSON parameter.
func (a Args) String(name string) string {
	v, ok := a.vals[name]
	if !ok {
		panic("calc: " + a.calc.Name + "." + name + " has no value")
	}
	return v.(string)
}

// Ints returns an IntList parameter.
func (a Args) Ints(name string) []int { return append([]int(nil), a.get(name, IntList).([]int)...) }

// Floats returns a FloatList parameter.
func (a Args) Floats(name string) []float64 {
	return append([]float64(nil), a.get(name, FloatList).([]float64)...)
}

// BigInt returns a BigInt parameter.
func (a Args) BigInt(name string) bigint.Int { return a.get(name, BigInt).(bigint.Int) }

func (a Args) get(name string, k Kind) any {
	p := a.calc.Param(name)
	if p == nil || p.Kind != k {
		panic("calc: " + a.calc.Name + " declares no " + k.String() + " parameter " + name)
	}
	v, ok := a.vals[name]
	if !ok {
		panic("calc: " + a.calc.Name + "." + name + " has no value")
	}
	return v
}

// Query returns the values the caller set explicitly, in canonical text:
// the URL query that reproduces these Args (name → one text, as in a
// url.Values; core/standin/query's Encode writes it).
func (a Args) Query() map[string][]string {
	q := make(map[string][]string, len(a.raw))
	for k, v := range a.raw {
		q[k] = []string{v}
	}
	return q
}

// Calc returns the calculator the Args belong to.
func (a Args) Calc() *Calculator { return a.calc }

// Vary runs c on a with param set to value, the other parameters as in a:
// the variant of a widget's comparison (compare: PARAM=VALUE in a page;
// site/widget draws it, site/markdown and the playground cite it). It
// returns the variant's Args and result, or the Error of a value c
// refuses. a's poll (WithPoll), trace (WithTrace) and memo (WithMemo)
// carry over.
func (c *Calculator) Vary(a Args, param, value string) (Args, any, error) {
	return c.VaryFrom(a, nil, param, value)
}

// VaryFrom is Vary where base, when not nil, is c's result on a (with
// a's trace or a larger one): a calculator whose result already holds the
// variant's (Calculator.Reuse) answers from it instead of running again.
func (c *Calculator) VaryFrom(a Args, base any, param, value string) (Args, any, error) {
	q := a.Query()
	q[param] = []string{value}
	va, err := c.Parse(q)
	if err != nil {
		return Args{}, nil, err
	}
	va.poll, va.trace, va.memo = a.poll, a.trace, a.memo
	if base != nil && c.Reuse != nil {
		if res, ok := c.Reuse(base, param, va); ok {
			return va, res, nil
		}
	}
	res, err := c.Run(va)
	return va, res, err
}

// Parse validates values (name → texts, as from a URL query or CLI
// key=value pairs; a url.Values is one) against the declaration and fills
// in defaults. An unknown name, a repeated name or a bad value yields an
// *Error; the first error in declaration order is returned (unknown names
// first).
func (c *Calculator) Parse(values map[string][]string) (Args, error) {
	a := Args{calc: c, vals: map[string]any{}, raw: map[string]string{}}
	unknown, found := "", false // the smallest unknown name
	for k := range values {
		if c.Param(k) == nil && (!found || k < unknown) {
			unknown, found = k, true
		}
	}
	if found {
		return a, newError(c.Name, unknown, CodeUnknownParam, map[string]string{"names": c.paramNames()})
	}
	for i := range c.Params {
		p := &c.Params[i]
		vs, given := values[p.Name]
		if len(vs) > 1 {
			return a, newError(c.Name, p.Name, CodeRepeated, nil)
		}
		text := p.Default
		if given {
			text = vs[0]
		}
		if !given && p.Optional && p.Default == "" {
			continue
		}
		v, canon, err := p.parse(c.Name, text)
		if err != nil {
			return a, err
		}
		a.vals[p.Name] = v
		if given {
			a.raw[p.Name] = canon
		}
	}
	return a, nil
}

// ParsePairs parses CLI arguments of the form key=value.
func (c *Calculator) ParsePairs(pairs []string) (Args, error) {
	values := map[string][]string{}
	for _, kv := range pairs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return Args{calc: c}, newError(c.Name, "", CodeSyntax, map[string]string{"value": quote(kv)})
		}
		values[k] = append(values[k], v)
	}
	return c.Parse(values)
}

// Compute parses values and runs the calculator.
func (c *Calculator) Compute(values map[string][]string) (any, error) {
	a, err := c.Parse(values)
	if err != nil {
		return nil, err
	}
	return c.Run(a)
}

// parse converts one text value of p, returning the value and its
// canonical text.
func (p *Param) parse(calc, text string) (any, string, error) {
	text = strings.TrimSpace(text)
	bad := func(code Code, vars map[string]string) (any, string, error) {
		if vars == nil {
			vars = map[string]string{}
		}
		vars["value"] = quote(text)
		vars["range"] = p.RangeText()
		vars["kind"] = p.Kind.String()
		return nil, "", newError(calc, p.Name, code, vars)
	}
	switch p.Kind {
	case Int, Float:
		f, code := p.number(text)
		if code != "" {
			return bad(code, nil)
		}
		if p.Kind == Int {
			return int(f), strconv.Itoa(int(f)), nil
		}
		return f, FormatFloat(f), nil
	case IntList, FloatList:
		parts := strings.Split(text, ",")
		if text == "" {
			parts = nil
		}
		min, max := p.MinLen, p.maxLen()
		if min == 0 {
			min = 1
		}
		if len(parts) < min || len(parts) > max {
			return bad(CodeListLen, map[string]string{"min": strconv.Itoa(min), "max": strconv.Itoa(max), "count": strconv.Itoa(len(parts))})
		}
		ints := make([]int, 0, len(parts))
		floats := make([]float64, 0, len(parts))
		canon := make([]string, len(parts))
		for i, s := range parts {
			s = strings.TrimSpace(s)
			f, code := p.number(s)
			if code != "" {
				text = s
				return bad(code, nil)
			}
			if p.Kind == IntList {
				ints = append(ints, int(f))
				canon[i] = strconv.Itoa(int(f))
			} else {
				floats = append(floats, f)
				canon[i] = FormatFloat(f)
			}
		}
		if p.Kind == IntList {
			return ints, strings.Join(canon, ","), nil
		}
		return floats, strings.Join(canon, ","), nil
	case Bool:
		t := strings.ToLower(text)
		if slices.Contains(BoolTrue, t) {
			return true, "true", nil
		}
		if slices.Contains(BoolFalse, t) {
			return false, "false", nil
		}
		return bad(CodeBool, nil)
	case Choice:
		for _, ch := range p.Choices {
			if text == ch {
				return ch, ch, nil
			}
		}
		return bad(CodeChoice, nil)
	case BigInt:
		if d := len(strings.TrimLeft(text, "+-")); d > maxBigIntDigits {
			return bad(CodeDigits, map[string]string{"max": strconv.Itoa(maxBigIntDigits), "count": strconv.Itoa(d)})
		}
		n, ok := ParseBigInt(text)
		if !ok {
			return bad(CodeNotInteger, nil)
		}
		return n, n.String(), nil
	case Text:
		if len(text) > p.maxLen() {
			return bad(CodeTooLong, map[string]string{"max": strconv.Itoa(p.maxLen())})
		}
		if i := invalidUTF8(text); i >= 0 { // %ff and %fe would print alike but hash apart
			return bad(CodeEncoding, map[string]string{"byte": strconv.Itoa(i)})
		}
		return text, text, nil
	case JSON:
		if len(text) > p.maxLen() {
			return bad(CodeTooLong, map[string]string{"max": strconv.Itoa(p.maxLen())})
		}
		if !canonjson.Valid([]byte(text)) { // encoding/json's grammar, without linking encoding/json
			vars := map[string]string{"detail": "syntax error"}
			if err := canonjson.Check([]byte(text)); err != nil {
				vars["detail"] = err.Error() // where and what: "at byte 0: NaN is not allowed …"
				jsonVars(err, vars)
			}
			return bad(CodeJSON, vars)
		}
		return text, text, nil
	}
	panic("calc: parameter " + p.Name + " has no kind")
}

// invalidUTF8 returns the offset of the first byte of s that is not
// valid UTF-8, or -1.
func invalidUTF8(s string) int {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, n := utf8.DecodeRuneInString(s[i:]); n == 1 {
				return i
			}
		}
	}
	return -1
}

// maxBigIntDigits bounds the text of a BigInt so that parsing stays cheap.
const maxBigIntDigits = 4096

// ParseBigInt parses a decimal integer of any size and sign (an optional
// sign, then digits; '_' is not allowed). Its text is at most 4096 digits.
func ParseBigInt(s string) (bigint.Int, bool) {
	s = strings.TrimSpace(s)
	digits := strings.TrimLeft(s, "+-")
	if len(s)-len(digits) > 1 || digits == "" || len(digits) > maxBigIntDigits {
		return bigint.Int{}, false
	}
	return bigint.Parse(s) // digits only: no '_', no other base
}

// number parses a numeric (element) value of p and checks its range.
func (p *Param) number(s string) (float64, Code) {
	if s == "" || strings.ContainsAny(s, "xX_pP") {
		return 0, CodeNotNumber // decimal only: no hex floats, no digit separators
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return 0, CodeRange // beyond ±1.8e308 (it would be ±Inf): outside every range
		}
		return 0, CodeNotNumber
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, CodeNotFinite
	}
	integer := p.Kind == Int || p.Kind == IntList
	if integer && (f != math.Trunc(f)) {
		return 0, CodeNotInteger
	}
	if c := inexact(s, f, integer); c != "" { // before the range: 1e-400 is not 0
		return 0, c
	}
	if !p.inRange(f) {
		return 0, CodeRange
	}
	if integer && math.Abs(f) > 1<<53 {
		return 0, CodeRange
	}
	return f, ""
}

// smallestNormal is the least positive normal float64 (2^-1022): below
// it, a float64 holds fewer than 53 significant bits.
const smallestNormal = 0x1p-1022

// inexact returns CodeInexact (or CodeNotInteger) when the float64 f that
// ParseFloat made of the decimal text s is not the number s says, in the
// ways that change a result rather than its last digit: a nonzero number
// that underflowed to zero or to a subnormal (1e-400 is 0, 1e-310 keeps
// a few bits), and, for an integer kind, an integer from 2^53 on that
// float64 rounds to a neighbour (2^53+1 is 2^53), or a fraction that
// float64 rounded to an integer (1.0000000000000000001, 9007199254740993.5:
// CodeNotInteger). A float is otherwise the nearest
// float64 to its text, as everywhere. Nothing is rounded silently: the
// reader sees a message instead.
func inexact(s string, f float64, integer bool) Code {
	mant, exp := decimal(s)
	if mant == "" { // zero, however written
		return ""
	}
	if a := math.Abs(f); a < smallestNormal {
		return CodeInexact
	}
	if !integer {
		return ""
	}
	if exp < 0 { // a fraction that float64 rounded to an integer ("1.0000000000000000001", "7000000000000000.1"): mant has no zero at its end
		return CodeNotInteger
	}
	if math.Abs(f) < 1<<53 { // every integer below 2^53 is a float64
		return ""
	}
	want := strconv.FormatFloat(math.Abs(f), 'f', 0, 64) // the exact integer f is
	if len(want) != len(mant)+exp || want[:len(mant)] != mant || strings.Trim(want[len(mant):], "0") != "" {
		return CodeInexact
	}
	return ""
}

// decimal splits a decimal number's text (as ParseFloat took it: sign,
// digits with one '.', an optional exponent) into its significant digits,
// without leading or trailing zeros, and the power of ten they are
// multiplied by: "-0.0120e3" is "12", 0. Zero is "", 0.
func decimal(s string) (string, int) {
	s = strings.TrimLeft(s, "+-")
	exp := 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.Atoi(s[i+1:])
		if err != nil { // beyond int: ParseFloat made it 0 or refused it
			e = map[bool]int{true: -1 << 30, false: 1 << 30}[strings.HasPrefix(s[i+1:], "-")]
		}
		exp, s = e, s[:i]
	}
	if i := strings.IndexByte(s, '.'); i >= 0 {
		exp -= len(s) - i - 1
		s = s[:i] + s[i+1:]
	}
	s = strings.TrimLeft(s, "0")
	t := strings.TrimRight(s, "0")
	if t == "" {
		return "", 0
	}
	exp += len(s) - len(t)
	return t, exp
}

// jsonVars adds to vars what a translation of a core/canonjson refusal
// needs: detail_key "detail.json.CODE" (the string tables' [detail.json]),
// byte (the offset), what (the character, literal, number or count the
// message names) and, for too long an integer, max.
func jsonVars(err error, vars map[string]string) {
	e, ok := errors.AsType[*canonjson.Error](err)
	if !ok || e.Code == "" {
		return
	}
	vars["detail_key"] = "detail.json." + e.Code
	vars["byte"] = strconv.Itoa(e.Offset)
	vars["what"] = e.Arg
	if e.Code == "int_digits" {
		vars["max"] = strconv.Itoa(canonjson.MaxIntDigits)
	}
}
