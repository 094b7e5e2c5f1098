// Command encgen writes site/widget's encode_gen.go: for each type a
// calculator returns (found by running every calculator of calc.New() at
// its defaults), a function that appends exactly the bytes json.Marshal
// writes for it, without reflect, so that the browser's module links
// neither reflect nor encoding/json; and the functions that pick the
// encoder by the value's type: encodeResult for every calculator's
// result, and one for each article of calc.Articles (encodeRetries for
// calc.Retries, …), so that an article's module (site/widget.Set) links
// the encoders of its own calculators only.
//
// With -views it writes views_gen.go instead: the view table of each
// article's set, from the line //retrylab:views CALCULATOR in the doc
// comment of the function that lists a calculator's views (views.go).
//
// Run it with `go generate ./site/widget` (natively). It follows
// encoding/json's rules: struct fields by json tags (name, omitempty,
// string, "-"), embedded structs and their dominance rules, nil slices
// and maps as null, maps with sorted keys (string, integer or
// TextMarshaler keys), pointers, arrays, []byte as base64, MarshalJSON
// and MarshalText (through the pointer when the value is addressable).
// A type it cannot encode exactly (interfaces, omitzero, json.Number,
// channels, functions, complex numbers, recursive types) is an error
// here, not a difference at run time.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"reflect"
	"strings"

	"retrylab/core/calc"
	"retrylab/site/widget/internal/enctest"
)

func main() {
	out := flag.String("o", "encode_gen.go", "the file to write")
	test := flag.Bool("test", false, "write the encoders of enctest's types (for encode_gen_test.go)")
	views := flag.Bool("views", false, "write the view tables of the articles from the //retrylab:views lines (for views_gen.go)")
	flag.Parse()
	gen := generate
	switch {
	case *test:
		gen = generateTest
	case *views:
		gen = func() ([]byte, error) { return generateViews(".") }
	}
	src, err := gen()
	if err != nil {
		fmt.Fprintln(os.Stderr, "encgen:", err)
		os.Exit(1)
	}
	if old, err := os.ReadFile(*out); err == nil && bytes.Equal(old, src) {
		return
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "encgen:", err)
		os.Exit(1)
	}
}

// generate returns the source of encode_gen.go.
func generate() ([]byte, error) {
	type registry struct {
		fn, what string
		reg      *calc.Registry
	}
	regs := []registry{{"encodeResult", "a calculator returns", calc.New()}}
	for _, a := range calc.Articles() {
		// encodeRetries for the article "retries" (calc.Retries), …
		name := exportedSlug(a.Slug)
		regs = append(regs, registry{"encode" + name, "a calculator of calc." + name + " returns", a.Registry()})
	}
	var ds []dispatcher
	for _, r := range regs {
		types, err := resultTypes(r.reg)
		if err != nil {
			return nil, err
		}
		ds = append(ds, dispatcher{fn: r.fn, what: r.what, types: types})
	}
	b, err := source(ds, "appendJSON")
	if err != nil {
		return nil, err
	}
	// Under the build tag standin_orig_encoders, encode_orig.go puts
	// encoding/json in the encoders' place, for core/standin/bench.sh
	// (what the generated encoders save).
	return bytes.Replace(b, []byte("\npackage widget\n"), []byte("\n//go:build !standin_orig_encoders\n\npackage widget\n"), 1), nil
}

// exportedSlug writes an article's slug as a Go name: "rate-limits" →
// "RateLimits", the name of its registry function in core/calc and of its
// set in site/widget.
func exportedSlug(slug string) string {
	var b strings.Builder
	for _, w := range strings.Split(slug, "-") {
		if w != "" {
			b.WriteString(strings.ToUpper(w[:1]) + w[1:])
		}
	}
	return b.String()
}

// generateTest returns the source of encode_gen_test.go: the encoders of
// enctest's types.
func generateTest() ([]byte, error) {
	var roots []reflect.Type
	for _, v := range enctest.Types() {
		roots = append(roots, reflect.TypeOf(v))
	}
	return source([]dispatcher{{fn: "encodeTestValue", what: "of package enctest", types: roots}}, "appendTestJSON")
}

// resultTypes returns the dynamic type of the result of every calculator
// of reg at its defaults, in the registry's order, without repeats.
func resultTypes(reg *calc.Registry) ([]reflect.Type, error) {
	var roots []reflect.Type
	seen := map[reflect.Type]bool{}
	for _, c := range reg.List() {
		res, err := c.Compute(nil)
		if err != nil {
			return nil, fmt.Errorf("%s at its defaults: %v", c.Name, err)
		}
		t := reflect.TypeOf(res)
		if t == nil {
			return nil, fmt.Errorf("%s at its defaults returns nil", c.Name)
		}
		if !seen[t] {
			seen[t] = true
			roots = append(roots, t)
		}
	}
	return roots, nil
}
