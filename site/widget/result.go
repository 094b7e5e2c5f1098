package widget

import (
	"bytes"
	"errors"
	"math"
	"strconv"

	"retrylab/core/calc"
	"retrylab/core/canonjson"
	"retrylab/site/cite"
	"retrylab/site/locale"
)

// field is one top-level field of a result, as its JSON encodes it.
type field = cite.Field

// result is a calculator's result: the value the calculator returned,
// which the views draw (typed), and its JSON split into its top-level
// fields, in order, which the results table and the citations read by
// the names the pages use.
type result struct {
	val   any
	list  []field
	index map[string]int
	// nums are the typed values of list's fields that are lists of
	// numbers (the zero numbers for the others), for the generic bars
	nums []numbers
}

// Encoded is a calculator's result encoded to JSON once, its top-level
// fields marked (Set.Encode). Set.RenderOutput and Set.Cite accept it in
// place of the result, so that a page that renders a result and cites it
// many times encodes it once (a histogram of 100000 bins takes
// milliseconds to encode).
type Encoded struct{ r *result }

// encodeAll encodes r with the encoders of every calculator's result.
func encodeAll(r any) (*result, error) { return encodeWith(encodeResult, r) }

// encoder is encodeResult or another of the dispatchers encgen writes
// (encodeRetries, encodeRateLimits: a Set's).
type encoder func(e *jsonEnc, res any) (ok bool)

// encodeWith encodes r with the encoders of enc, the generated encoders
// marking where each top-level field's value lies (jsonEnc.member): the
// JSON is written once and never parsed again.
func encodeWith(enc encoder, r any) (*result, error) {
	if d, ok := r.(Encoded); ok && d.r != nil {
		return d.r, nil
	}
	e := &jsonEnc{b: make([]byte, 0, 512)}
	if !enc(e, r) {
		return nil, errors.New("widget: no JSON encoder for this result: it is not of a type a calculator of this set returns (after adding a calculator or changing its result type, run go generate ./site/widget)")
	}
	if e.err != nil {
		return nil, errors.New("widget: result does not encode: " + e.err.Error())
	}
	if len(e.b) < 2 || e.b[0] != '{' {
		return nil, errors.New("widget: result is not a JSON object")
	}
	spans := e.spans()
	res := &result{val: r, list: make([]field, len(spans)), index: make(map[string]int, len(spans)), nums: make([]numbers, len(spans))}
	for i, m := range spans {
		res.list[i] = field{Name: m.name, Raw: e.b[m.start:m.end:m.end]}
		res.nums[i] = m.nums
		res.index[m.name] = i
	}
	return res, nil
}

// splitList splits a JSON array into its elements (what json.Unmarshal
// into a []json.RawMessage gives: null is no element); ok is false when
// raw is neither an array nor null. (Its callers read arrays only.)
func splitList(raw []byte) (elems [][]byte, ok bool) {
	elems = [][]byte{}
	if string(bytes.TrimSpace(raw)) == "null" {
		return elems, true
	}
	// counted first: the list is made once, not grown element by element
	n := 0
	if !canonjson.Elements(raw, func([]byte) bool { n++; return true }) {
		return nil, false
	}
	elems = make([][]byte, 0, n)
	canonjson.Elements(raw, func(e []byte) bool {
		elems = append(elems, e)
		return true
	})
	return elems, true
}

func (r *result) raw(name string) ([]byte, bool) {
	i, ok := r.index[name]
	if !ok {
		return nil, false
	}
	return r.list[i].Raw, true
}

// numList decodes a JSON list of numbers (without encoding/json's
// reflection: a result may hold 100000 of them). The results table reads
// it to tell an echoed list parameter; no chart reads JSON (the generic
// bars get the result's own slices: jsonEnc.topLevel).
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
	ok = canonjson.Elements(raw, func([]byte) bool {
		n++
		return n <= limit
	})
	if !ok && n > limit {
		return n, true // stopped after the limit
	}
	return n, ok
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

// CiteShown is Cite for a citation that a reader's input recomputes in
// the browser: an element of a list that the new result does not hold
// (the page cites the third wait and the reader leaves two) reads as the
// language's placeholder widget.none ("—"), with value "", instead of
// the number of an earlier input that no longer holds. Other errors are
// Cite's.
func (s *Set) CiteShown(c *calc.Calculator, res any, fieldSpec, format string, loc locale.Locale) (text, value string, err error) {
	text, value, err = s.Cite(c, res, fieldSpec, format, loc)
	if _, ok := errors.AsType[*cite.NoElementError](err); ok {
		return none(loc), "", nil
	}
	return text, value, err
}

// cite is the citation check of site/cite (the build's and the
// browser's), then the format.
func (r *result) cite(c *calc.Calculator, fieldSpec, format string, loc locale.Locale) (text, value string, err error) {
	who := "the result"
	if c != nil {
		who = c.Name
	}
	raw, err := cite.Lookup(who, r.list, fieldSpec)
	if err != nil {
		return "", "", err
	}
	spec, _ := cite.ParseSpec(fieldSpec)
	name, hasIdx := spec.Name, spec.HasIndex
	text, err = formatValue(raw, format, loc)
	if err != nil {
		return "", "", errors.New(fieldSpec + "|" + format + ": " + err.Error())
	}
	if c != nil && !hasIdx && format == "" && jsonKind(raw) == 's' {
		text = valueLabel(c, loc, name, text)
	}
	return text, string(raw), nil
}

// formatValue writes a raw JSON value in a citation format.
func formatValue(raw []byte, format string, loc locale.Locale) (string, error) {
	kind, n, err := cite.ParseFormat(format)
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
