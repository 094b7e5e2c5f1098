package calc

import (
	"strconv"
	"unicode/utf8"
)

// Code classifies an [Error]; it is the suffix of the message key a
// translation table uses ("err." + code).
type Code string

// The error codes. Every code's message names the parameter (if any).
const (
	CodeUnknownCalc  Code = "unknown_calc"  // no calculator of that name; Vars: name, names
	CodeUnknownParam Code = "unknown_param" // no such parameter; Vars: names
	CodeRepeated     Code = "repeated"      // the parameter was given twice
	CodeSyntax       Code = "syntax"        // not "key=value"; Vars: value
	CodeNotNumber    Code = "not_number"    // not a number (or not an integer for ints); Vars: value, kind, range
	CodeNotInteger   Code = "not_integer"   // a number, but ints need an integer; Vars: value, range
	CodeNotFinite    Code = "not_finite"    // NaN or ±Inf; Vars: value, range
	CodeRange        Code = "range"         // outside the declared range; Vars: value, range
	CodeChoice       Code = "choice"        // not one of the choices; Vars: value, range
	CodeBool         Code = "bool"          // not a boolean; Vars: value
	CodeListLen      Code = "list_len"      // wrong number of list elements; Vars: min, max, count
	CodeTooLong      Code = "too_long"      // text longer than allowed; Vars: max
	CodeJSON         Code = "json"          // invalid JSON; Vars: detail
	CodeWork         Code = "work"          // more work than the calculator's bound; Vars: detail
	CodeConstraint   Code = "constraint"    // a rule linking parameters; Vars: detail
	CodeEncoding     Code = "encoding"      // text that is not valid UTF-8; Vars: byte
	CodeDigits       Code = "digits"        // an integer with too many digits; Vars: max, count
	CodeServer       Code = "server"        // too much work for the shared server; Vars: count, max, page, cli
	CodeInexact      Code = "inexact"       // a number a float64 cannot hold as written (underflow, an integer past 2^53); Vars: value, range
)

// Error is a refused input. It names the calculator, the parameter (empty
// when the error is not about one parameter), a [Code], and Vars: the values
// a translated message interpolates ({param}, {value}, {range}, …).
// Message is the English one-line message that the CLI and the API print.
type Error struct {
	Calc    string
	Param   string
	Code    Code
	Vars    map[string]string
	Message string
}

func (e *Error) Error() string { return e.Message }

// Key returns the translation key of the message: "err." + Code.
func (e *Error) Key() string { return "err." + string(e.Code) }

// EnglishTemplate returns the English message template of code c, the
// fallback of every translation table ("" for an unknown code); {param}
// and the Vars are substituted by Expand. A switch, not a map: no map to
// initialize in the browser's module.
func EnglishTemplate(c Code) string {
	switch c {
	case CodeUnknownCalc:
		return "unknown calculator {name}; the calculators are {names}"
	case CodeUnknownParam:
		return "unknown parameter {param}; the parameters are {names}"
	case CodeRepeated:
		return "parameter {param} is given more than once"
	case CodeSyntax:
		return "expected key=value, got {value}"
	case CodeNotNumber:
		return "{param} must be a number in {range}, got {value}"
	case CodeNotInteger:
		return "{param} must be an integer in {range}, got {value}"
	case CodeNotFinite:
		return "{param} must be a finite number in {range}, got {value}"
	case CodeRange:
		return "{param} must be in {range}, got {value}"
	case CodeChoice:
		return "{param} must be {range}, got {value}"
	case CodeBool:
		return "{param} must be true or false, got {value}"
	case CodeListLen:
		return "{param} must have {min} to {max} elements, got {count}"
	case CodeTooLong:
		return "{param} must be at most {max} bytes long"
	case CodeJSON:
		return "{param} is not valid JSON: {detail}"
	case CodeWork:
		return "{param}: {detail}"
	case CodeConstraint:
		return "{param}: {detail}"
	case CodeEncoding:
		return "{param} is not valid UTF-8 (byte {byte})"
	case CodeDigits:
		return "{param} must have at most {max} digits, got {count}"
	case CodeServer:
		return "{param}: this experiment is too large for the shared server ({count} units of work, at most {max} here); compute it in the page {page} or on your machine with {cli}"
	case CodeInexact:
		return "{param}: {value} cannot be held exactly (a nonzero number this small, or an integer beyond 2^53, would be rounded); give a value in {range}"
	}
	return ""
}

// Expand substitutes {param} and every {var} of e into template t, in one
// pass from left to right: a substituted value is not expanded again. Where
// several names match at one place ({a} and {a}b} in "{a}b}"), {param}
// wins, then the smallest name, as strings.NewReplacer over "{param}" and
// the sorted names did (TestExpand and FuzzExpand hold it to that
// Replacer, which the browser's module no longer links).
func (e *Error) Expand(t string) string {
	var b []byte
	last := 0
	for i := 0; i < len(t); i++ {
		if t[i] != '{' {
			continue
		}
		val, n, ok := e.lookup(t[i:])
		if !ok {
			continue
		}
		if b == nil {
			b = make([]byte, 0, len(t)+len(val))
		}
		b = append(b, t[last:i]...)
		b = append(b, val...)
		i += n - 1
		last = i + 1
	}
	if b == nil {
		return t
	}
	return string(append(b, t[last:]...))
}

// lookup returns the value of the name in braces that s starts with and
// the length of "{name}": {param} first, else the smallest name of Vars
// that matches.
func (e *Error) lookup(s string) (val string, n int, ok bool) {
	if braced(s, "param") {
		return e.Param, len("{param}"), true
	}
	var best string
	for k, v := range e.Vars {
		if braced(s, k) && (!ok || k < best) {
			best, val, n, ok = k, v, len(k)+2, true
		}
	}
	return val, n, ok
}

// braced reports whether s starts with "{" + name + "}".
func braced(s, name string) bool {
	return len(s) >= len(name)+2 && s[0] == '{' && s[1:1+len(name)] == name && s[1+len(name)] == '}'
}

// newError builds an Error with its English message.
func newError(calc, param string, code Code, vars map[string]string) *Error {
	e := &Error{Calc: calc, Param: param, Code: code, Vars: vars}
	e.Message = e.Expand(EnglishTemplate(code))
	return e
}

// Refuse returns a CodeWork or CodeConstraint error about param, for the
// checks a calculator makes itself. detail is the English detail, a
// template over the kv pairs ("{name} × waves must be at most {max}");
// key is its translation key ("detail.jitter.total"), so a page can show
// it in the reader's language. kv alternates names and values.
func Refuse(calc, param string, code Code, key, detail string, kv ...string) *Error {
	vars := map[string]string{"detail_key": key}
	for i := 0; i+1 < len(kv); i += 2 {
		vars[kv[i]] = kv[i+1]
	}
	e := &Error{Calc: calc, Param: param, Code: code, Vars: vars}
	vars["detail"] = e.Expand(detail)
	e.Message = e.Expand(EnglishTemplate(code))
	return e
}

// quote shortens a user value for an error message and quotes it as Go
// does, so that control characters (a newline in a URL value) and invalid
// UTF-8 are escaped and the message stays on one line.
func quote(s string) string {
	const max = 40
	if len(s) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		return strconv.Quote(s[:cut]) + "…"
	}
	return strconv.Quote(s)
}
