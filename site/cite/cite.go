// Package cite is the one check of a citation's field and format: what
// {=ID.FIELD}, {=ID.FIELD[I]} and {=ID.FIELD|FORMAT} (content/README.md)
// may name of a calculator's result. The build checks every citation of
// every page with it (site/markdown, through site/widget's Set.Cite), and
// the browser's module reads the cited value with it (site/widget): a
// citation the build accepts is one the page can show. Which widget ID
// names, and whether it has a compare: line, is the page's structure,
// checked by site/markdown.
//
// It imports no encoding/json (the browser's module links it): a result
// is its top-level fields as raw JSON, in order.
package cite

import (
	"errors"
	"strconv"
	"strings"

	"retrylab/core/canonjson"
)

// Field is one top-level field of a result: its name and its raw JSON
// value.
type Field struct {
	Name string
	Raw  []byte
}

// Spec is a citation's FIELD part parsed: NAME, or NAME[Index].
type Spec struct {
	Name     string
	Index    int
	HasIndex bool
}

// ParseSpec splits "NAME" or "NAME[i]" (i a whole number from 0).
func ParseSpec(s string) (Spec, error) {
	open := strings.IndexByte(s, '[')
	if open < 0 {
		if s == "" {
			return Spec{}, errors.New("the citation names no field")
		}
		return Spec{Name: s}, nil
	}
	if !strings.HasSuffix(s, "]") || open == 0 {
		return Spec{}, errors.New("bad field " + strconv.Quote(s) + ": write NAME or NAME[i]")
	}
	n, err := strconv.Atoi(s[open+1 : len(s)-1])
	if err != nil || n < 0 {
		return Spec{}, errors.New("bad index in " + strconv.Quote(s) + ": write a whole number from 0")
	}
	return Spec{Name: s[:open], Index: n, HasIndex: true}, nil
}

// NoElementError is the error of a citation NAME[i] of a list that has no
// element i: at build time a mistake of the page, in the browser a value
// the reader's input made disappear (site/widget's CiteShown).
type NoElementError struct {
	Spec, Name string
	N          int // elements the list has
}

func (e *NoElementError) Error() string {
	return e.Spec + ": field " + strconv.Quote(e.Name) + " has " + strconv.Itoa(e.N) + " elements (from 0 to " + strconv.Itoa(e.N-1) + ")"
}

// Lookup returns the raw JSON value that spec ("NAME" or "NAME[i]") cites
// of a result whose top-level fields are fields; who names the result in
// the errors (a calculator's name, or "the result"). A field the result
// lacks, an index into a value that is not a list, and an index past the
// list's end (a *NoElementError) are errors naming them.
func Lookup(who string, fields []Field, spec string) ([]byte, error) {
	s, err := ParseSpec(spec)
	if err != nil {
		return nil, err
	}
	var raw []byte
	found := false
	for _, f := range fields {
		if f.Name == s.Name {
			raw, found = f.Raw, true
			break
		}
	}
	if !found {
		names := make([]string, len(fields))
		for i, f := range fields {
			names[i] = f.Name
		}
		return nil, errors.New(who + " has no field " + strconv.Quote(s.Name) + "; its fields are " + strings.Join(names, ", "))
	}
	if !s.HasIndex {
		return raw, nil
	}
	var elems [][]byte
	ok := len(raw) > 0 && raw[0] == '[' && canonjson.Elements(raw, func(e []byte) bool {
		elems = append(elems, e)
		return true
	})
	if !ok {
		return nil, errors.New("field " + strconv.Quote(s.Name) + " is not a list, so " + spec + " has no element")
	}
	if s.Index >= len(elems) {
		return nil, &NoElementError{Spec: spec, Name: s.Name, N: len(elems)}
	}
	return elems[s.Index], nil
}

// ParseFormat checks a citation's FORMAT and splits it into its kind (""
// for the default, "fixed" for N decimals, "percent" for %N, "sci" for
// eN significant digits, "list", "yesno") and its number.
func ParseFormat(f string) (kind string, n int, err error) {
	digits := func(s string, lo, hi int) (int, error) {
		n, err := strconv.Atoi(s)
		if err != nil || n < lo || n > hi || s != strconv.Itoa(n) {
			// made only here: a table formats each of its cells
			return 0, errors.New("unknown format " + strconv.Quote(f) + ": use N, %N, eN, list or yesno (N a number of digits)")
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
