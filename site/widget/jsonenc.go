package widget

// The helpers of encode_gen.go, the JSON encoder of the calculators'
// results that encgen (internal/encgen) writes: json.Marshal's bytes
// without reflect or encoding/json, which the browser's module does not
// link (package core/standin). encode_test.go
// compares the encoder with encoding/json on every calculator and on
// random values of every result type.

import (
	"errors"
	"math"
	"retrylab/core/standin"
	"strconv"
	"unicode/utf8"

	"retrylab/core/canonjson"
	"retrylab/core/standin/heapsort"
)

//go:generate go run ./internal/encgen -o encode_gen.go
//go:generate go run ./internal/encgen -test -o encode_gen_test.go
//go:generate go run ./internal/encgen -views -o views_gen.go

// marshalError is the error of a type's MarshalJSON or MarshalText (fn),
// worded as encoding/json's MarshalerError; it wraps that method's error.
type marshalError struct {
	typ string // the type whose method failed, as reflect writes it
	fn  string
	err error
}

func (e *marshalError) Error() string {
	return "json: error calling " + e.fn + " for type " + e.typ + ": " + e.err.Error()
}

func (e *marshalError) Unwrap() error { return e.err }

// mapKeyError is the error of a map key's MarshalText, worded as
// encoding/json's.
type mapKeyError struct {
	typ string // the map's type
	err error
}

func (e *mapKeyError) Error() string {
	return "json: encoding error for type " + strconv.Quote(e.typ) + ": " + strconv.Quote(e.err.Error())
}

func (e *mapKeyError) Unwrap() error { return e.err }

// jsonEnc is the state of the encoders of encode_gen.go: the bytes
// written so far and the first error (after which what is written does
// not matter: the encoding fails).
type jsonEnc struct {
	b   []byte
	err error
	// members are the top-level members of a result (member): their
	// names and where their values lie in b
	members []memberSpan
}

// memberSpan is one top-level member of an encoded result: its value is
// b[start:end].
type memberSpan struct {
	_          standin.NoEqual // not comparable
	name       string
	start, end int
	nums       numbers
}

// numbers is a top-level member's value when it is a list of numbers
// (float64s, ints, int64s write it): the result's own slice, which the
// generic bar chart draws without reading the JSON back.
type numbers struct {
	f   []float64
	i   []int
	i64 []int64
	p   []*float64 // drawn when no value is missing
}

// floats returns the list as float64s (nil when the member is no list of
// numbers).
func (n numbers) floats() []float64 {
	switch {
	case n.f != nil:
		return n.f
	case n.i != nil:
		xs := make([]float64, len(n.i))
		for k, v := range n.i {
			xs[k] = float64(v)
		}
		return xs
	case n.i64 != nil:
		xs := make([]float64, len(n.i64))
		for k, v := range n.i64 {
			xs[k] = float64(v)
		}
		return xs
	case n.p != nil:
		xs := make([]float64, len(n.p))
		for k, v := range n.p {
			if v == nil {
				return nil
			}
			xs[k] = *v
		}
		return xs
	}
	return nil
}

// topLevel is the member whose value is about to be written, when the
// next byte written is the start of that value (not inside it); else nil.
func (e *jsonEnc) topLevel() *memberSpan {
	if k := len(e.members); k > 0 && e.members[k-1].end == 0 && e.members[k-1].start == len(e.b) {
		return &e.members[k-1]
	}
	return nil
}

// member marks a top-level member of a result: the generated encoder of a
// result type calls it before writing the separator, the key and the
// colon (n bytes), and then the value. The value of the member before
// ends here; the last one ends before the closing brace (members). A
// result type holds no other result type (encgen checks it).
func (e *jsonEnc) member(name string, n int) {
	if k := len(e.members); k > 0 {
		e.members[k-1].end = len(e.b)
	}
	e.members = append(e.members, memberSpan{name: name, start: len(e.b) + n})
}

// key writes a top-level member's separator, key and colon, lit
// (`{"name":` or `,"name":`, the name without escapes), after marking the
// member by the name it quotes (member): the generated encoders' one call
// per member of a result.
func (e *jsonEnc) key(lit string) {
	e.member(lit[2:len(lit)-2], len(lit))
	e.lit(lit)
}

// spans returns the members of the result just encoded.
func (e *jsonEnc) spans() []memberSpan {
	if k := len(e.members); k > 0 {
		e.members[k-1].end = len(e.b) - 1 // the closing brace
	}
	return e.members
}

func (e *jsonEnc) fail(err error) {
	if e.err == nil {
		e.err = err
	}
}

func (e *jsonEnc) lit(s string) { e.b = append(e.b, s...) }

func (e *jsonEnc) byte(c byte) { e.b = append(e.b, c) }

func (e *jsonEnc) bool(v bool) {
	if v {
		e.lit("true")
	} else {
		e.lit("false")
	}
}

func (e *jsonEnc) int(v int64) { e.b = strconv.AppendInt(e.b, v, 10) }

func (e *jsonEnc) uint(v uint64) { e.b = strconv.AppendUint(e.b, v, 10) }

// float writes f (of bits 32 or 64) as encoding/json does: the shortest
// digits that read back, in 'f' form unless |f| < 1e-6 or >= 1e21; NaN
// and infinities are encoding/json's UnsupportedValueError.
func (e *jsonEnc) float(f float64, bits int) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		e.fail(errors.New("json: unsupported value: " + strconv.FormatFloat(f, 'g', -1, bits)))
		return
	}
	e.b = appendFloat(e.b, f, bits)
}

// grow makes room for about n more bytes at once, so that a long list
// does not grow the buffer step by step.
func (e *jsonEnc) grow(n int) {
	if cap(e.b)-len(e.b) < n {
		b := make([]byte, len(e.b), 2*cap(e.b)+n)
		copy(b, e.b)
		e.b = b
	}
}

// float64s writes a list of floats (not nil).
func (e *jsonEnc) float64s(v []float64) {
	if m := e.topLevel(); m != nil {
		m.nums.f = v
	}
	e.grow(len(v)*8 + 2)
	b := append(e.b, '[')
	for i, f := range v {
		if i > 0 {
			b = append(b, ',')
		}
		if math.IsInf(f, 0) || math.IsNaN(f) {
			e.b = b
			e.float(f, 64) // the error
			return
		}
		b = appendFloat(b, f, 64)
	}
	e.b = append(b, ']')
}

// int64s writes a list of int64s (not nil).
func (e *jsonEnc) int64s(v []int64) {
	if m := e.topLevel(); m != nil {
		m.nums.i64 = v
	}
	e.grow(len(v)*4 + 2)
	b := append(e.b, '[')
	for i, n := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, n, 10)
	}
	e.b = append(b, ']')
}

// float64Ptrs writes a list of optional floats (not nil), null for nil.
func (e *jsonEnc) float64Ptrs(v []*float64) {
	if m := e.topLevel(); m != nil {
		m.nums.p = v
	}
	e.byte('[')
	for i, p := range v {
		if i > 0 {
			e.byte(',')
		}
		if p == nil {
			e.lit("null")
		} else {
			e.float(*p, 64)
		}
	}
	e.byte(']')
}

// ints writes a list of ints (not nil).
func (e *jsonEnc) ints(v []int) {
	if m := e.topLevel(); m != nil {
		m.nums.i = v
	}
	e.grow(len(v)*4 + 2)
	b := append(e.b, '[')
	for i, n := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(n), 10)
	}
	e.b = append(b, ']')
}

func (e *jsonEnc) string(s string) { e.b = appendString(e.b, s, true) }

// quotedString is a string field's ",string" option: the JSON string of
// its JSON string.
func (e *jsonEnc) quotedString(s string) {
	e.b = appendString(e.b, string(appendString(nil, s, true)), false)
}

// bytes writes a []byte as encoding/json does: base64, or null.
func (e *jsonEnc) bytes(b []byte) {
	if b == nil {
		e.lit("null")
		return
	}
	e.byte('"')
	e.b = appendBase64(e.b, b)
	e.byte('"')
}

// marshaled writes what typ's MarshalJSON returned, compacted.
func (e *jsonEnc) marshaled(m []byte, err error, typ string) {
	if err == nil {
		e.b, err = appendCompact(e.b, m)
	}
	if err != nil {
		e.fail(&marshalError{typ, "MarshalJSON", err})
	}
}

// marshaledText writes what typ's MarshalText returned, as a string.
func (e *jsonEnc) marshaledText(m []byte, err error, typ string) {
	if err != nil {
		e.fail(&marshalError{typ, "MarshalText", err})
		return
	}
	e.string(string(m))
}

// sortKeys sorts a map's keys by their text (names), as encoding/json
// does, swapping the keys along with them. The map keys sorted here are
// distinct, so any sort gives json's order; only map keys whose
// MarshalText writes the same text twice may come out in another order.
// core/standin/heapsort, not slices.SortFunc, whose instantiations would add to
// the wasm module.
func sortKeys(names []string, swap func(i, j int)) {
	heapsort.Sort(len(names), func(i, j int) bool { return names[i] < names[j] }, func(i, j int) {
		names[i], names[j] = names[j], names[i]
		swap(i, j)
	})
}

const hexDigits = "0123456789abcdef"

// appendString writes s as a JSON string: '"', '\\' and controls escaped
// (\b \f \n \r \t, else \u00XX), with html also '<', '>' and '&'; invalid
// UTF-8 becomes \ufffd; U+2028 and U+2029 are escaped.
func appendString(dst []byte, s string, html bool) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' && (!html || b != '<' && b != '>' && b != '&') {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if c == '\u2028' || c == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[c&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// appendCompact appends the JSON document src without the whitespace
// between tokens and with '<', '>', '&', U+2028 and U+2029 escaped, as
// encoding/json writes the output of a MarshalJSON method; src must be
// valid JSON.
func appendCompact(dst, src []byte) ([]byte, error) {
	if !canonjson.Valid(src) {
		return dst, errors.New("invalid JSON")
	}
	inString, escaped := false, false
	start := 0
	for i := 0; i < len(src); i++ {
		c := src[i]
		if c == '<' || c == '>' || c == '&' {
			dst = append(dst, src[start:i]...)
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			start = i + 1
		}
		if c == 0xE2 && i+2 < len(src) && src[i+1] == 0x80 && src[i+2]&^1 == 0xA8 {
			dst = append(dst, src[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[src[i+2]&0xF])
			start = i + 3
			i += 2
			continue
		}
		switch {
		case inString && escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case !inString && (c == ' ' || c == '\t' || c == '\n' || c == '\r'):
			dst = append(dst, src[start:i]...)
			start = i + 1
		}
	}
	return append(dst, src[start:]...), nil
}

// appendBase64 writes b in standard base64 with padding (encoding/json's
// form of a []byte).
func appendBase64(dst, b []byte) []byte {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	for len(b) >= 3 {
		n := uint(b[0])<<16 | uint(b[1])<<8 | uint(b[2])
		dst = append(dst, alphabet[n>>18&63], alphabet[n>>12&63], alphabet[n>>6&63], alphabet[n&63])
		b = b[3:]
	}
	switch len(b) {
	case 1:
		n := uint(b[0]) << 16
		dst = append(dst, alphabet[n>>18&63], alphabet[n>>12&63], '=', '=')
	case 2:
		n := uint(b[0])<<16 | uint(b[1])<<8
		dst = append(dst, alphabet[n>>18&63], alphabet[n>>12&63], alphabet[n>>6&63], '=')
	}
	return dst
}

func appendFloat(b []byte, f float64, bits int) []byte {
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 {
		if bits == 64 && (abs < 1e-6 || abs >= 1e21) || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21) {
			format = 'e'
		}
	}
	b = strconv.AppendFloat(b, f, format, -1, bits)
	if format == 'e' {
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}
