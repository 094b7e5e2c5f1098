// Package canonjson writes the canonical JSON of a document byte for byte
// as CPython does with
//
//	json.dumps(json.loads(text), sort_keys=True, separators=(",", ":"))
//
// and derives from it the idempotency key of a logical operation,
// tenant:task:hex(sha256(canonical)), as the article's Python does.
//
// Matching CPython means following Python's reading of the text as well as
// its writing. A number with neither fraction nor exponent is a Python int
// and is kept exactly, whatever its size ("-0" is 0); any other number is a
// float and is written as repr writes it (1e16 → 1e+16, 1e-05, 0.1, 1.0,
// -0.0). Strings are written with ensure_ascii: every character outside
// space..'~' becomes \uXXXX (lower-case hex, a surrogate pair above
// U+FFFF, \n \r \t \b \f for those controls), and '<', '>' and '&' stay
// as they are (Go's encoding/json would escape them). Object keys are
// sorted by code point, as Python sorts str (not by UTF-16 unit); of
// duplicate keys the last wins, as in a Python dict. Escaped lone
// surrogates ("\ud800") survive, as they do in a Python str.
//
// Where Python would fail, or write something that is not JSON, Canonical
// returns an error instead: NaN, Infinity and -Infinity (which json.loads
// accepts) and float literals that overflow to infinity ("1e400") when they
// remain in the document (a later duplicate key may replace one, as in
// Python), an integer of more than 4300 digits (CPython's int limit),
// nesting deeper than MaxDepth, invalid UTF-8, and invalid JSON.
//
// The package also holds the playground's JSON reader for site/ (Valid,
// and Unquote, SpaceEnd, ValueEnd, Members and Elements of
// core/standin/jsonread), which site/locale and site/widget read JSON
// with in place of encoding/json.
package canonjson

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"retrylab/core/standin/heapsort"
	"retrylab/core/standin/sha256sum"
)

// MaxDepth is the deepest nesting of arrays and objects accepted.
// CPython's recursion limit makes it fail near 1000; this package refuses
// anything deeper than 500 with a clear error instead.
const MaxDepth = 500

// MaxIntDigits is CPython's default limit on the digits of an int read
// from text (sys.get_int_max_str_digits()).
const MaxIntDigits = 4300

// Error is a refused document: Offset is the byte offset in the input
// where the problem was found, Msg says what it is, in English. Code names
// the problem for a translation and Arg is the part of the message that
// comes from the input or the limits (the character, the number, the
// count), empty when there is none. Codes: utf8, extra, eof_value,
// nonfinite (Arg: NaN, Infinity or -Infinity; "NaN/Infinity" when only
// checking syntax), char (Arg: the character, quoted), depth (Arg: MaxDepth),
// key, colon, eof_object, object_sep, eof_array, array_sep, eof_string,
// control (Arg: U+00XX), eof_escape, escape (Arg: the backslash and the
// character), u_escape, digit, int_digits (Arg: the count of digits;
// the limit is MaxIntDigits), float_range (Arg: the number, cut at 40
// bytes).
type Error struct {
	Offset int
	Msg    string
	Code   string
	Arg    string
}

func (e *Error) Error() string { return "at byte " + strconv.Itoa(e.Offset) + ": " + e.Msg }

// Canonical returns CPython's canonical form of the JSON document text.
func Canonical(text []byte) (string, error) {
	v, err := parse(text)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.Grow(len(text))
	write(&b, v)
	return b.String(), nil
}

// Check returns the error Canonical(text) returns, nil when it accepts
// text, without writing the canonical form. A program that only checks
// JSON (calc's JSON parameters) links the parser but not the writer.
func Check(text []byte) error {
	_, err := parse(text)
	return err
}

// parse reads text as Canonical does: one JSON document in valid UTF-8,
// with nothing invalid remaining in it (NaN, ±Infinity, 1e400).
func parse(text []byte) (value, error) {
	if !utf8.Valid(text) {
		i := 0
		for i < len(text) {
			r, n := utf8.DecodeRune(text[i:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			i += n
		}
		return value{}, &Error{Offset: i, Msg: "invalid UTF-8", Code: "utf8"}
	}
	p := parser{s: text}
	p.space()
	v, err := p.value(0)
	if err != nil {
		return value{}, err
	}
	p.space()
	if p.i < len(p.s) {
		return value{}, p.fail("extra", "", "extra data after the document")
	}
	if err := firstInvalid(v); err != nil {
		return value{}, err
	}
	return v, nil
}

// Key returns the idempotency key tenant:task:hex(sha256(canonical)) of a
// payload, and its canonical form. A tenant or task holding the separator
// ':' is refused (ErrSeparator): tenant "a:b" with task "c" and tenant "a"
// with task "b:c" would otherwise share the key "a:b:c:…", and two
// different operations with one key are the one thing a key must never
// allow (the second would be answered with the first's result).
//
// The SHA-256 is core/standin/sha256sum's, not crypto/sha256's: this
// package runs in the browser's module (README.md, "Size-driven
// replacements").
func Key(tenant, task string, payload []byte) (key, canonical string, err error) {
	if strings.Contains(tenant, Separator) {
		return "", "", &SeparatorError{Field: "tenant"}
	}
	if strings.Contains(task, Separator) {
		return "", "", &SeparatorError{Field: "task"}
	}
	canonical, err = Canonical(payload)
	if err != nil {
		return "", "", err
	}
	sum := sha256sum.Sum([]byte(canonical))
	return tenant + ":" + task + ":" + hexString(sum[:]), canonical, nil
}

// Separator separates the tenant, the task and the digest in a key.
const Separator = ":"

// SeparatorError refuses a tenant or task that holds Separator; Field is
// "tenant" or "task".
type SeparatorError struct{ Field string }

func (e *SeparatorError) Error() string {
	return e.Field + " must not contain " + strconv.Quote(Separator) + ", the separator of the key's parts"
}

type kind uint8

const (
	kNull kind = iota
	kTrue
	kFalse
	kNumber // text holds the canonical literal
	kString // str holds code points, lone surrogates included
	kArray
	kObject
	// kInvalid is NaN, ±Infinity or a float that overflows: json.loads
	// reads them, json.dumps would write them, and they are not JSON. As
	// in Python, a later duplicate key can replace one; only those that
	// remain in the document are refused.
	kInvalid
)

type value struct {
	kind kind
	err  *Error // kInvalid
	text string
	str  []rune
	arr  []value
	obj  []member
}

type member struct {
	key []rune
	val value
	at  int // the member's position in its object, for sortDedup
}

type parser struct {
	s []byte
	i int
	// syntax: check the grammar only (Valid): no UTF-8, number or
	// Python-depth checks, NaN and Infinity refused as not JSON.
	syntax bool
}

// validMaxDepth is the nesting encoding/json's Valid accepts.
const validMaxDepth = 10000

// Valid reports whether text is one JSON value (RFC 8259's grammar,
// surrounded by optional whitespace), accepting and refusing exactly what
// encoding/json's Valid does: unlike Canonical it does not check UTF-8,
// the size of numbers (1e400, an int of any length) or Python's limits,
// and it refuses nesting deeper than 10000 levels, NaN and Infinity.
//
// It does not recurse: arrays and objects are tracked on a stack of their
// opening brackets. In the browser a Go call is a WebAssembly call on the
// JavaScript engine's stack, and recursing 5000 levels deep (10 KB of "[")
// exceeds V8's default stack ("Maximum call stack size exceeded"), which
// kills the playground.
func Valid(text []byte) bool {
	p := parser{s: text, syntax: true}
	var open []byte // '[' or '{' of each array or object not yet closed
	for {
		// A value is expected at p.i.
		p.space()
		if p.i >= len(p.s) {
			return false
		}
		switch c := p.s[p.i]; c {
		case '[', '{':
			if len(open) == validMaxDepth {
				return false
			}
			p.i++
			p.space()
			if p.i < len(p.s) && p.s[p.i] == closing(c) {
				p.i++ // empty
				break
			}
			open = append(open, c)
			if c == '{' && !p.memberKey() {
				return false
			}
			continue
		default:
			// A scalar: value does not recurse for anything but '[' and '{'.
			if _, err := p.value(0); err != nil {
				return false
			}
		}
		// A value ended: close what it ends, up to the next value.
		for next := false; !next; {
			p.space()
			if len(open) == 0 {
				return p.i == len(p.s)
			}
			if p.i >= len(p.s) {
				return false
			}
			top := open[len(open)-1]
			switch c := p.s[p.i]; {
			case c == closing(top):
				p.i++
				open = open[:len(open)-1]
			case c == ',':
				p.i++
				if top == '{' && !p.memberKey() {
					return false
				}
				next = true
			default:
				return false
			}
		}
	}
}

func closing(open byte) byte {
	if open == '[' {
		return ']'
	}
	return '}'
}

// memberKey reads an object's key and its ':' (Valid only).
func (p *parser) memberKey() bool {
	p.space()
	if p.i >= len(p.s) || p.s[p.i] != '"' {
		return false
	}
	if _, err := p.str(); err != nil {
		return false
	}
	p.space()
	if p.i >= len(p.s) || p.s[p.i] != ':' {
		return false
	}
	p.i++
	return true
}

func (p *parser) fail(code, arg, msg string) *Error {
	return &Error{Offset: p.i, Msg: msg, Code: code, Arg: arg}
}

func (p *parser) space() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *parser) lit(word string) bool {
	if strings.HasPrefix(string(p.s[p.i:min(len(p.s), p.i+len(word))]), word) {
		p.i += len(word)
		return true
	}
	return false
}

func (p *parser) value(depth int) (value, error) {
	if p.i >= len(p.s) {
		return value{}, p.fail("eof_value", "", "unexpected end of input: expected a value")
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.object(depth + 1)
	case c == '[':
		return p.array(depth + 1)
	case c == '"':
		s, err := p.str()
		return value{kind: kString, str: s}, err
	case c == 't' && p.lit("true"):
		return value{kind: kTrue}, nil
	case c == 'f' && p.lit("false"):
		return value{kind: kFalse}, nil
	case c == 'n' && p.lit("null"):
		return value{kind: kNull}, nil
	case p.syntax && (c == 'N' || c == 'I' || c == '-' && p.i+1 < len(p.s) && p.s[p.i+1] == 'I'):
		return value{}, p.fail("nonfinite", "NaN/Infinity", "NaN and Infinity are not JSON")
	case c == 'N' && p.lit("NaN"):
		return invalid(p.i-3, "nonfinite", "NaN", "NaN is not allowed (Python would write NaN, which is not JSON)"), nil
	case c == 'I' && p.lit("Infinity"):
		return invalid(p.i-8, "nonfinite", "Infinity", "Infinity is not allowed (it is not JSON)"), nil
	case c == '-' && p.lit("-Infinity"):
		return invalid(p.i-9, "nonfinite", "-Infinity", "-Infinity is not allowed (it is not JSON)"), nil
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	}
	q := quoteCharAt(p.s, p.i)
	return value{}, p.fail("char", q, "unexpected character "+q+": expected a value")
}

// quoteCharAt quotes the character that starts at s[i] as Go's %q quotes a
// rune ('é', '\u00a0'), the whole UTF-8 sequence and not its first byte; a
// byte that starts no valid sequence is quoted as '\xNN'.
func quoteCharAt(s []byte, i int) string {
	r, size := utf8.DecodeRune(s[i:])
	if r == utf8.RuneError && size <= 1 {
		return "'\\x" + string(hexDigits[s[i]>>4]) + string(hexDigits[s[i]&0xF]) + "'"
	}
	return strconv.QuoteRune(r)
}

func (p *parser) object(depth int) (value, error) {
	if depth > MaxDepth {
		return value{}, p.fail("depth", strconv.Itoa(MaxDepth), "nested deeper than "+strconv.Itoa(MaxDepth)+" levels")
	}
	p.i++ // {
	v := value{kind: kObject}
	p.space()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		return v, nil
	}
	for {
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			return value{}, p.fail("key", "", "expected a string key in double quotes")
		}
		k, err := p.str()
		if err != nil {
			return value{}, err
		}
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return value{}, p.fail("colon", "", "expected ':' after an object key")
		}
		p.i++
		p.space()
		val, err := p.value(depth)
		if err != nil {
			return value{}, err
		}
		v.obj = append(v.obj, member{k, val, len(v.obj)})
		p.space()
		if p.i >= len(p.s) {
			return value{}, p.fail("eof_object", "", "unexpected end of input inside an object")
		}
		switch p.s[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			v.obj = sortDedup(v.obj)
			return v, nil
		default:
			return value{}, p.fail("object_sep", "", "expected ',' or '}' in an object")
		}
	}
}

func invalid(at int, code, arg, msg string) value {
	return value{kind: kInvalid, err: &Error{Offset: at, Msg: msg, Code: code, Arg: arg}}
}

// firstInvalid returns the error of the first kInvalid value left in v,
// in input order.
func firstInvalid(v value) *Error {
	var first *Error
	var walk func(value)
	walk = func(v value) {
		switch v.kind {
		case kInvalid:
			if first == nil || v.err.Offset < first.Offset {
				first = v.err
			}
		case kArray:
			for _, el := range v.arr {
				walk(el)
			}
		case kObject:
			for _, m := range v.obj {
				walk(m.val)
			}
		}
	}
	walk(v)
	return first
}

// sortDedup sorts members by key in code point order and keeps, for each
// key, the value given last (a Python dict's behaviour). Members with the
// same key stay in input order (at), as a stable sort leaves them.
func sortDedup(ms []member) []member {
	heapsort.Sort(len(ms), func(i, j int) bool {
		if c := slices.Compare(ms[i].key, ms[j].key); c != 0 {
			return c < 0
		}
		return ms[i].at < ms[j].at
	}, func(i, j int) { ms[i], ms[j] = ms[j], ms[i] })
	out := ms[:0]
	for i, m := range ms {
		if i+1 < len(ms) && slices.Equal(m.key, ms[i+1].key) {
			continue // a later duplicate follows: it wins
		}
		out = append(out, m)
	}
	return out
}

func (p *parser) array(depth int) (value, error) {
	if depth > MaxDepth {
		return value{}, p.fail("depth", strconv.Itoa(MaxDepth), "nested deeper than "+strconv.Itoa(MaxDepth)+" levels")
	}
	p.i++ // [
	v := value{kind: kArray}
	p.space()
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
		return v, nil
	}
	for {
		p.space()
		el, err := p.value(depth)
		if err != nil {
			return value{}, err
		}
		v.arr = append(v.arr, el)
		p.space()
		if p.i >= len(p.s) {
			return value{}, p.fail("eof_array", "", "unexpected end of input inside an array")
		}
		switch p.s[p.i] {
		case ',':
			p.i++
		case ']':
			p.i++
			return v, nil
		default:
			return value{}, p.fail("array_sep", "", "expected ',' or ']' in an array")
		}
	}
}

func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		default:
			return 0, false
		}
	}
	return r, true
}

// str reads a string literal into code points. A \uD800-\uDBFF escape
// followed by a \uDC00-\uDFFF escape is one astral character; any other
// surrogate escape stays a lone surrogate, as in CPython.
func (p *parser) str() ([]rune, error) {
	p.i++ // "
	var out []rune
	for {
		if p.i >= len(p.s) {
			return nil, p.fail("eof_string", "", "unterminated string")
		}
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			return out, nil
		case c < 0x20:
			u := "U+00" + string(upperHex[c>>4]) + string(upperHex[c&0xF])
			return nil, p.fail("control", u, "control character "+u+" inside a string must be escaped")
		case c == '\\':
			if p.i+1 >= len(p.s) {
				return nil, p.fail("eof_escape", "", "unterminated escape")
			}
			e := p.s[p.i+1]
			simple := map[byte]rune{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}
			if r, ok := simple[e]; ok {
				out = p.keep(out, r)
				p.i += 2
				continue
			}
			if e != 'u' {
				r, size := utf8.DecodeRune(p.s[p.i+1:])
				if r == utf8.RuneError && size <= 1 {
					return nil, p.fail("escape", "\\"+string(rune(e)), "invalid escape \\"+string(rune(e)))
				}
				return nil, p.fail("escape", "\\"+string(r), "invalid escape \\"+string(r))
			}
			r, ok := hex4(p.s[p.i+2:])
			if !ok {
				return nil, p.fail("u_escape", "", "invalid \\u escape: four hex digits expected")
			}
			p.i += 6
			if r >= 0xD800 && r <= 0xDBFF && p.i+1 < len(p.s) && p.s[p.i] == '\\' && p.s[p.i+1] == 'u' {
				if lo, ok := hex4(p.s[p.i+2:]); ok && lo >= 0xDC00 && lo <= 0xDFFF {
					r = 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00)
					p.i += 6
				}
			}
			out = p.keep(out, r)
		default:
			r, n := utf8.DecodeRune(p.s[p.i:])
			out = p.keep(out, r)
			p.i += n
		}
	}
}

// keep appends r to out, except when only the syntax is checked.
func (p *parser) keep(out []rune, r rune) []rune {
	if p.syntax {
		return out
	}
	return append(out, r)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// number reads a JSON number: an int is kept exactly, a float is parsed
// to float64 and written as Python's repr.
func (p *parser) number() (value, error) {
	start := p.i
	if p.s[p.i] == '-' {
		p.i++
	}
	if p.i >= len(p.s) || !isDigit(p.s[p.i]) {
		return value{}, p.fail("digit", "", "expected a digit")
	}
	if p.s[p.i] == '0' {
		p.i++
	} else {
		for p.i < len(p.s) && isDigit(p.s[p.i]) {
			p.i++
		}
	}
	isFloat := false
	if p.i+1 < len(p.s) && p.s[p.i] == '.' && isDigit(p.s[p.i+1]) {
		isFloat = true
		p.i++
		for p.i < len(p.s) && isDigit(p.s[p.i]) {
			p.i++
		}
	}
	if p.i < len(p.s) && (p.s[p.i] == 'e' || p.s[p.i] == 'E') {
		j := p.i + 1
		if j < len(p.s) && (p.s[j] == '+' || p.s[j] == '-') {
			j++
		}
		if j < len(p.s) && isDigit(p.s[j]) {
			isFloat = true
			for j < len(p.s) && isDigit(p.s[j]) {
				j++
			}
			p.i = j
		}
	}
	if p.syntax {
		return value{kind: kNumber}, nil
	}
	lit := string(p.s[start:p.i])
	if !isFloat {
		digits := strings.TrimPrefix(lit, "-")
		if len(digits) > MaxIntDigits {
			return value{}, &Error{Offset: start, Code: "int_digits", Arg: strconv.Itoa(len(digits)),
				Msg: "integer of " + strconv.Itoa(len(digits)) + " digits: Python refuses more than " + strconv.Itoa(MaxIntDigits)}
		}
		if digits == "0" {
			lit = "0" // -0 is the int 0
		}
		return value{kind: kNumber, text: lit}, nil
	}
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil {
		if len(lit) > 40 {
			lit = lit[:40] + "…"
		}
		return invalid(start, "float_range", lit, "number "+lit+" is too large for a float (Python would read it as Infinity, which is not JSON)"), nil
	}
	return value{kind: kNumber, text: FloatRepr(f)}, nil
}

// FloatRepr writes a finite f as CPython's repr(float) does: the shortest
// digits that round-trip, in positional notation when the decimal exponent
// is in [-4, 16), with ".0" on integral values, else in scientific
// notation with a signed exponent of at least two digits (1e+16, 1e-05).
func FloatRepr(f float64) string {
	e := strconv.FormatFloat(f, 'e', -1, 64)
	mant, exp, _ := strings.Cut(e, "e")
	x, _ := strconv.Atoi(exp)
	if f == 0 || x >= -4 && x < 16 {
		s := strconv.FormatFloat(f, 'f', -1, 64)
		if !strings.ContainsRune(s, '.') {
			s += ".0"
		}
		return s
	}
	return mant + "e" + exp
}

func write(b *strings.Builder, v value) {
	switch v.kind {
	case kNull:
		b.WriteString("null")
	case kTrue:
		b.WriteString("true")
	case kFalse:
		b.WriteString("false")
	case kNumber:
		b.WriteString(v.text)
	case kString:
		writeString(b, v.str)
	case kArray:
		b.WriteByte('[')
		for i, el := range v.arr {
			if i > 0 {
				b.WriteByte(',')
			}
			write(b, el)
		}
		b.WriteByte(']')
	case kObject:
		b.WriteByte('{')
		for i, m := range v.obj {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, m.key)
			b.WriteByte(':')
			write(b, m.val)
		}
		b.WriteByte('}')
	}
}

const hexDigits = "0123456789abcdef"

// upperHex spells a control character as U+001F in messages (fmt's %U).
const upperHex = "0123456789ABCDEF"

// hexString returns b in lower-case hexadecimal, two digits a byte, as
// encoding/hex's EncodeToString does (its test's reference); encoding/hex
// imports fmt, which the browser's module does not link.
func hexString(b []byte) string {
	out := make([]byte, 2*len(b))
	for i, c := range b {
		out[2*i] = hexDigits[c>>4]
		out[2*i+1] = hexDigits[c&0xF]
	}
	return string(out)
}

func writeU(b *strings.Builder, r rune) {
	b.WriteString(`\u`)
	b.WriteByte(hexDigits[r>>12&0xF])
	b.WriteByte(hexDigits[r>>8&0xF])
	b.WriteByte(hexDigits[r>>4&0xF])
	b.WriteByte(hexDigits[r&0xF])
}

// writeString writes s as json.dumps does with ensure_ascii=True.
func writeString(b *strings.Builder, s []rune) {
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r >= ' ' && r <= '~':
			b.WriteByte(byte(r))
		case r > 0xFFFF:
			r -= 0x10000
			writeU(b, 0xD800|(r>>10)&0x3FF)
			writeU(b, 0xDC00|r&0x3FF)
		default:
			writeU(b, r)
		}
	}
	b.WriteByte('"')
}
