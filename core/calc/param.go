// Package calc is the registry of calculators: every experiment of the
// articles declared once, with typed parameters, so that the command line,
// the HTTP API, the widget controls, the shareable URL state and the error
// messages all derive from the same declaration.
//
// A calculator is a name, a list of [Param] and a Run function that maps
// parsed [Args] to a JSON-encodable result. Parsing never panics: every bad
// value yields an [*Error] that names the parameter, a machine code and the
// values a translated message needs.
package calc

import (
	"math"
	"strconv"
	"strings"
)

// Kind is the type of a parameter's value.
type Kind uint8

const (
	// Int is a signed integer that fits in an int (64 bits).
	Int Kind = iota + 1
	// Float is a finite float64.
	Float
	// Bool is true or false (also 1/0, yes/no, on/off).
	Bool
	// Choice is one string out of Param.Choices.
	Choice
	// IntList is a comma-separated list of Int.
	IntList
	// FloatList is a comma-separated list of Float.
	FloatList
	// BigInt is a decimal integer of any size and sign (a seed).
	BigInt
	// Text is free text of at most Param.MaxLen bytes (0: 4096).
	Text
	// JSON is a JSON document of at most Param.MaxLen bytes (0: 65536).
	JSON
)

var kindNames = [...]string{"", "int", "float", "bool", "choice", "int list", "float list", "integer", "text", "json"}

// String returns the kind's name as the CLI help prints it.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// IsList reports whether values of k are comma-separated lists.
func (k Kind) IsList() bool { return k == IntList || k == FloatList }

// IsNumeric reports whether k (or, for lists, its elements) is a number.
func (k Kind) IsNumeric() bool { return k == Int || k == Float || k.IsList() }

// Bound is one end of a numeric range. The zero Bound is no bound.
type Bound struct {
	V    float64 // the limit
	Open bool    // the limit itself is excluded
	Set  bool    // there is a limit
}

// Incl returns the inclusive bound v.
func Incl(v float64) Bound { return Bound{V: v, Set: true} }

// Excl returns the exclusive bound v.
func Excl(v float64) Bound { return Bound{V: v, Open: true, Set: true} }

// Param declares one parameter of a calculator. The zero values of the
// optional fields mean "none": no bound, no step, no unit.
type Param struct {
	Name string // as in URLs, CLI and form controls: lower case, '_' between words
	Kind Kind
	// Default is the value as it would be typed (e.g. "3,3,3"). An empty
	// Default with Optional set means the parameter may be absent; the
	// calculator then derives its value (DefaultNote says how).
	Default  string
	Optional bool
	// DefaultNote is a short English description of a derived default
	// ("base_ms × 2^(waves-1)"), shown by help; its label key is
	// Calc+"."+Name+".default".
	DefaultNote string
	// Min and Max bound numeric values, and every element of a list.
	Min, Max Bound
	// MinLen and MaxLen bound the number of list elements (lists) or the
	// length in bytes (Text, JSON). Zero MaxLen means the kind's default.
	MinLen, MaxLen int
	// Choices lists the allowed values of a Choice, the first being the
	// usual one.
	Choices []string
	// Step is the granularity a form control offers (0: any for floats,
	// 1 for ints). It does not restrict parsed values.
	Step float64
	// Unit is the unit symbol of the value: "ms", "s", "tokens", "1/min"…;
	// empty for pure numbers.
	Unit string
	// Slider suggests a slider range narrower than [Min, Max] for a form;
	// zero means use Min and Max.
	SliderMin, SliderMax float64
	// Members, on a Text parameter, says that its value is a
	// comma-separated set of these names (the policies to run): the form
	// draws a toggle chip per member and writes the canonical text.
	Members []string
	// Help is a one-line English description for the CLI; the localized
	// label and description are looked up by LabelKey.
	Help string
}

// maxLen returns the effective maximum length of a Text or JSON value.
func (p *Param) maxLen() int {
	if p.MaxLen > 0 {
		return p.MaxLen
	}
	switch p.Kind {
	case Text:
		return 4096
	case JSON:
		return 65536
	case IntList, FloatList:
		return 1000
	}
	return 0
}

// RangeText describes the allowed values in English, as error messages and
// help print them: "[0, 1]", "(0, 10000000]", "one of fixed, full", ">= 0".
func (p *Param) RangeText() string {
	switch p.Kind {
	case Choice:
		return "one of " + strings.Join(p.Choices, ", ")
	case Bool:
		return "true or false"
	case BigInt:
		return "an integer of any size and sign"
	case Text, JSON:
		return "at most " + strconv.Itoa(p.maxLen()) + " bytes"
	}
	return p.intervalText()
}

func (p *Param) intervalText() string {
	lo, hi := p.Min, p.Max
	f := func(v float64) string { return FormatFloat(v) }
	switch {
	case lo.Set && hi.Set:
		l, r := "[", "]"
		if lo.Open {
			l = "("
		}
		if hi.Open {
			r = ")"
		}
		return l + f(lo.V) + ", " + f(hi.V) + r
	case lo.Set:
		if lo.Open {
			return "> " + f(lo.V)
		}
		return ">= " + f(lo.V)
	case hi.Set:
		if hi.Open {
			return "< " + f(hi.V)
		}
		return "<= " + f(hi.V)
	}
	return "any finite number"
}

// inRange reports whether v satisfies both bounds.
func (p *Param) inRange(v float64) bool {
	if p.Min.Set && (v < p.Min.V || p.Min.Open && v == p.Min.V) {
		return false
	}
	if p.Max.Set && (v > p.Max.V || p.Max.Open && v == p.Max.V) {
		return false
	}
	return true
}

// The spellings of a Bool parameter's values (any case), declared once:
// the Worker's edge layer reads them too (wasm/worker/edge, go generate).
var (
	BoolTrue  = []string{"true", "1", "yes", "on"}
	BoolFalse = []string{"false", "0", "no", "off"}
)

// FormatFloat writes a nonzero number whose magnitude is in [PlainMin,
// PlainMax) without an exponent, as encoding/json does; the Worker's edge
// layer reads these bounds too (wasm/worker/edge, go generate).
const (
	PlainMin = 1e-6
	PlainMax = 1e21
)

// FormatFloat writes v in its shortest round-trip form, as the JSON results
// do: 0.5, 1e-05 is written 0.00001, integers without a decimal point.
func FormatFloat(v float64) string {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	abs := math.Abs(v)
	if abs != 0 && (abs < PlainMin || abs >= PlainMax) {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}
