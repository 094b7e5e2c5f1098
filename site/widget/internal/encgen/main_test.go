package main

import (
	"bytes"
	"os"
	"testing"
)

// The checked-in encoders are what encgen writes now: a calculator, a
// result type or encgen changed without regenerating fails here.
func TestGenerated(t *testing.T) {
	for _, tc := range []struct {
		file string
		gen  func() ([]byte, error)
	}{
		{"../../encode_gen.go", generate},
		{"../../encode_gen_test.go", generateTest},
		{"../../views_gen.go", func() ([]byte, error) { return generateViews("../..") }},
	} {
		want, err := tc.gen()
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(tc.file)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("site/widget/%s is not what encgen writes now: run `go generate ./site/widget`", tc.file[6:])
		}
	}
}
