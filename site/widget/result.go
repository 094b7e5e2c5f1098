package widget

import (
	"bytes"
	"errors"
	"math"
	"reflect"
	"strconv"
	"strings"

	"retrylab/calc"
	"retrylab/core/canonjson"
	"retrylab/site/locale"
)

// field is one top-level field of a result, as its JSON encodes it.
type field struct {
	Name string
	Raw  []byte
}

// result is a calculator result decoded into its fields, in JSON order.
type result struct {
	list  []field
	index map[string]int
}

// Decoded is a result encoded to JSON once and split into its fields.
// RenderOutput and Cite accept it in place of the calculator's result, so
// a page that renders a result and cites it many times encodes it once
// (a histogram of 100000 bins takes milliseconds to encode).
type Decoded struct{ r *result }

// Decode encodes res (a calculator's result, or its JSON as a
// json.RawMessage) for RenderOutput and Cite.
func Decode(res any) (Decoded, error) {
	r, err := decode(res)
	if err != nil {
		return Decoded{}, err
	}
	return Decoded{r}, nil
}

// decode encodes r to JSON (appendJSON: json.Marshal's bytes without
// encoding/json, which would add to the wasm module) and splits the
// object into its fields.
func decode(r any) (*result, error) {
	if d, ok := r.(Decoded); ok && d.r != nil {
		return d.r, nil
	}
	b, given := rawMessage(r)
	if !given {
		var err error
		b, err = appendJSON(nil, r) // valid JSON by construction
		if err != nil {
			return nil, errors.New("widget: result does not encode: " + err.Error())
		}
	}
	b = bytes.TrimSpace(b)
	if len(b) < 2 || b[0] != '{' || given && !canonjson.Valid(b) {
		return nil, errors.New("widget: result is not a JSON object")
	}
	list, ok := splitObject(b)
	if !ok {
		return nil, errors.New("widget: result is not a JSON object")
	}
	res := &result{list: list, index: make(map[string]int, len(list))}
	for i, f := range list {
		res.index[f.Name] = i
	}
	return res, nil
}

// rawMessage returns the bytes of r when r is an encoding/json RawMessage
// (recognized by its type's name, without importing encoding/json).
func rawMessage(r any) ([]byte, bool) {
	t := reflect.TypeOf(r)
	if t == nil || t.Kind() != reflect.Slice || t.Elem().Kind() != reflect.Uint8 ||
		t.Name() != "RawMessage" || t.PkgPath() != "encoding/json" {
		return nil, false
	}
	return reflect.ValueOf(r).Bytes(), true
}

// splitObject splits a valid JSON object into its members, in order.
func splitObject(b []byte) ([]field, bool) {
	var list []field
	if len(b) < 1<<12 {
		list = make([]field, 0, bytes.Count(b, []byte{':'})) // an upper bound that fits small objects
	}
	ok := eachMember(b, func(key, val []byte) bool {
		name, ok := canonjson.Unquote(key)
		list = append(list, field{name, val})
		return ok
	})
	return list, ok
}

// eachMember calls fn with the key (a string literal, quotes included) and
// the value of each member of the valid JSON object b, in order, until fn
// returns false; it returns false when b is not an object or fn did.
func eachMember(b []byte, fn func(key, val []byte) bool) bool {
	b = bytes.TrimSpace(b)
	if len(b) < 2 || b[0] != '{' {
		return false
	}
	i := skipSpace(b, 1)
	for i < len(b) && b[i] != '}' {
		kEnd := skipValue(b, i)
		key := b[i:kEnd]
		i = skipSpace(b, kEnd)
		i = skipSpace(b, i+1) // ':'
		vEnd := skipValue(b, i)
		if !fn(key, bytes.TrimSpace(b[i:vEnd])) {
			return false
		}
		i = skipSpace(b, vEnd)
		if i < len(b) && b[i] == ',' {
			i = skipSpace(b, i+1)
		}
	}
	return true
}

// splitList splits a valid JSON array into its elements (what
// json.Unmarshal into a []json.RawMessage gives); ok is false when raw is
// not an array.
func splitList(raw []byte) (elems [][]byte, ok bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) < 2 || raw[0] != '[' {
		return nil, false
	}
	i := skipSpace(raw, 1)
	elems = [][]byte{}
	for i < len(raw) && raw[i] != ']' {
		end := skipValue(raw, i)
		elems = append(elems, bytes.TrimSpace(raw[i:end]))
		i = skipSpace(raw, end)
		if i < len(raw) && raw[i] == ',' {
			i = skipSpace(raw, i+1)
		}
	}
	return elems, true
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipValue returns the end of the JSON value that starts at b[i] (b is
// valid JSON).
func skipValue(b []byte, i int) int {
	depth := 0
	for j := i; j < len(b); j++ {
		switch b[j] {
		case '"':
			for j++; j < len(b) && b[j] != '"'; j++ {
				if b[j] == '\\' {
					j++
				}
			}
			if depth == 0 {
				return j + 1
			}
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return j + 1
			}
			if depth < 0 {
				return j
			}
		case ',', ':':
			if depth == 0 {
				return j
			}
		}
	}
	return len(b)
}

func (r *result) raw(name string) ([]byte, bool) {
	i, ok := r.index[name]
	if !ok {
		return nil, false
	}
	return r.list[i].Raw, true
}

// num returns a numeric field.
func (r *result) num(name string) (float64, bool) {
	raw, ok := r.raw(name)
	if !ok {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	return f, err == nil
}

// nums returns a field that is a list of numbers.
func (r *result) nums(name string) ([]float64, bool) {
	raw, ok := r.raw(name)
	if !ok {
		return nil, false
	}
	return numList(raw)
}

func (r *result) names() []string {
	s := make([]string, len(r.list))
	for i, f := range r.list {
		s[i] = f.Name
	}
	return s
}

// numList decodes a JSON list of numbers (without encoding/json's
// reflection: a result may hold 100000 of them).
func numList(raw []byte) ([]float64, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) < 2 || raw[0] != '[' || raw[len(raw)-1] != ']' {
		return nil, false
	}
	body := bytes.TrimSpace(raw[1 : len(raw)-1])
	if len(body) == 0 {
		return []float64{}, true
	}
	xs := make([]float64, 0, bytes.Count(body, []byte{','})+1)
	for len(body) > 0 {
		i := bytes.IndexByte(body, ',')
		if i < 0 {
			i = len(body)
		}
		f, err := strconv.ParseFloat(string(bytes.TrimSpace(body[:i])), 64)
		if err != nil {
			return nil, false // not a number (or a number beyond float64: not plotted)
		}
		xs = append(xs, f)
		if i == len(body) {
			break
		}
		body = body[i+1:]
	}
	return xs, true
}

// listLen counts the elements of a JSON list, stopping once it passes
// limit; ok is false when raw is not a list.
func listLen(raw []byte, limit int) (n int, ok bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) < 2 || raw[0] != '[' {
		return 0, false
	}
	i := skipSpace(raw, 1)
	for i < len(raw) && raw[i] != ']' {
		n++
		if n > limit {
			return n, true
		}
		i = skipSpace(raw, skipValue(raw, i))
		if i < len(raw) && raw[i] == ',' {
			i = skipSpace(raw, i+1)
		}
	}
	return n, true
}

// jsonKind classifies a raw value by its first byte.
func jsonKind(raw []byte) byte {
	if len(raw) == 0 {
		return 0
	}
	switch c := raw[0]; {
	case c == '"':
		return 's'
	case c == 't' || c == 'f':
		return 'b'
	case c == 'n':
		return 'z'
	case c == '[':
		return 'a'
	case c == '{':
		return 'o'
	}
	return 'n'
}

// Cite returns the text and the JSON value of a citation {=ID.FIELD|FORMAT}
// of result (docs/authoring.md): field is "NAME" or "NAME[i]"; format is
// "" (integers grouped, other numbers to at most 6 significant digits,
// scientific below 10^-4; booleans yes/no; lists in the list style), "N"
// (N decimals), "%N" (percentage with N decimals), "eN" (scientific, N
// significant digits), "list" or "yesno". The text is plain (not
// HTML-escaped). A field the result lacks, an index out of range or a
// format that does not fit the value is an error naming them. A text field
// cited whole in the default format is one of the calculator's
// enumerations (limits' binding: rpm, tpm, both) and reads as its label
// field.CALC.NAME.VALUE, as in the widget's table; c nil leaves it as it is.
func Cite(c *calc.Calculator, res any, fieldSpec, format string, loc locale.Locale) (text, value string, err error) {
	r, err := decode(res)
	if err != nil {
		return "", "", err
	}
	return r.cite(c, fieldSpec, format, loc)
}

func (r *result) cite(c *calc.Calculator, fieldSpec, format string, loc locale.Locale) (text, value string, err error) {
	name, idx, hasIdx, err := parseFieldSpec(fieldSpec)
	if err != nil {
		return "", "", err
	}
	raw, ok := r.raw(name)
	if !ok {
		return "", "", errors.New("the result has no field " + strconv.Quote(name) + "; its fields are " + strings.Join(r.names(), ", "))
	}
	if hasIdx {
		elems, ok := splitList(raw)
		if jsonKind(raw) != 'a' || !ok {
			return "", "", errors.New("field " + strconv.Quote(name) + " is not a list, so " + fieldSpec + " has no element")
		}
		if idx >= len(elems) {
			return "", "", errors.New(fieldSpec + ": field " + strconv.Quote(name) + " has " + strconv.Itoa(len(elems)) + " elements (from 0 to " + strconv.Itoa(len(elems)-1) + ")")
		}
		raw = elems[idx]
	}
	text, err = formatValue(raw, format, loc)
	if err != nil {
		return "", "", errors.New(fieldSpec + "|" + format + ": " + err.Error())
	}
	if c != nil && !hasIdx && format == "" && jsonKind(raw) == 's' {
		text = valueLabel(c, loc, name, text)
	}
	return text, string(raw), nil
}

// parseFieldSpec splits "NAME[i]".
func parseFieldSpec(s string) (name string, idx int, hasIdx bool, err error) {
	open := strings.IndexByte(s, '[')
	if open < 0 {
		if s == "" {
			return "", 0, false, errors.New("the citation names no field")
		}
		return s, 0, false, nil
	}
	if !strings.HasSuffix(s, "]") || open == 0 {
		return "", 0, false, errors.New("bad field " + strconv.Quote(s) + ": write NAME or NAME[i]")
	}
	n, err := strconv.Atoi(s[open+1 : len(s)-1])
	if err != nil || n < 0 {
		return "", 0, false, errors.New("bad index in " + strconv.Quote(s) + ": write a whole number from 0")
	}
	return s[:open], n, true, nil
}

// CheckFormat reports whether format is one of the citation formats.
func CheckFormat(format string) error {
	_, _, err := parseFormat(format)
	return err
}

// parseFormat splits a format into its kind ("", "fixed", "percent",
// "sci", "list", "yesno") and its number.
func parseFormat(f string) (kind string, n int, err error) {
	bad := errors.New("unknown format " + strconv.Quote(f) + ": use N, %N, eN, list or yesno (N a number of digits)")
	digits := func(s string, lo, hi int) (int, error) {
		n, err := strconv.Atoi(s)
		if err != nil || n < lo || n > hi || s != strconv.Itoa(n) {
			return 0, bad
		}
		return n, nil
	}
	switch {
	case f == "":
		return "", 0, nil
	case f == "list" || f == "yesno":
		return f, 0, nil
	case strings.HasPrefix(f, "%"):
		n, err := digits(f[1:], 0, 10)
		return "percent", n, err
	case strings.HasPrefix(f, "e"):
		n, err := digits(f[1:], 1, 17)
		return "sci", n, err
	}
	n, err = digits(f, 0, 15)
	return "fixed", n, err
}

// formatValue writes a raw JSON value in a citation format.
func formatValue(raw []byte, format string, loc locale.Locale) (string, error) {
	kind, n, err := parseFormat(format)
	if err != nil {
		return "", err
	}
	jk := jsonKind(raw)
	switch kind {
	case "":
		return defaultText(raw, loc), nil
	case "yesno":
		if jk != 'b' {
			return "", errors.New("yesno needs a true/false value, got " + short(raw))
		}
		return loc.YesNo(string(raw) == "true"), nil
	case "list":
		elems, ok := splitList(raw)
		if jk != 'a' || !ok {
			return "", errors.New("list needs a list value, got " + short(raw))
		}
		items := make([]string, len(elems))
		for i, e := range elems {
			items[i] = defaultText(e, loc)
		}
		return loc.List(items), nil
	}
	if jk == 'z' {
		return none(loc), nil
	}
	if jk != 'n' {
		return "", errors.New("format " + format + " needs a number, got " + short(raw))
	}
	v, err := strconv.ParseFloat(string(raw), 64)
	if err != nil {
		return "", errors.New("format " + format + " needs a number, got " + short(raw))
	}
	switch kind {
	case "fixed":
		return loc.Fixed(v, n), nil
	case "percent":
		return loc.Percent(v, n), nil
	}
	return loc.Sci(v, n), nil
}

// defaultText writes a value in the default form.
func defaultText(raw []byte, loc locale.Locale) string {
	switch jsonKind(raw) {
	case 'n':
		v, err := strconv.ParseFloat(string(raw), 64)
		if err != nil || math.IsInf(v, 0) {
			return string(raw)
		}
		if len(raw) <= 25 && math.Abs(v) >= 1e15 {
			// large exact integers (seeds, call counts of any size) keep
			// every digit, grouped; beyond 24 digits, scientific
			if s, ok := loc.Digits(string(raw)); ok {
				return s
			}
		}
		return loc.Number(v)
	case 'b':
		return loc.YesNo(string(raw) == "true")
	case 's':
		if s, ok := canonjson.Unquote(raw); ok {
			return s
		}
	case 'z':
		return none(loc)
	case 'a':
		if elems, ok := splitList(raw); ok {
			items := make([]string, len(elems))
			for i, e := range elems {
				items[i] = defaultText(e, loc)
			}
			return loc.List(items)
		}
	}
	return string(raw)
}

func none(loc locale.Locale) string { return loc.TOr("widget.none", "—") }

func short(raw []byte) string {
	s := string(raw)
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return s
}
