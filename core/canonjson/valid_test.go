package canonjson

import (
	"encoding/json"
	"os"
	"runtime/debug"
	"strings"
	"testing"
)

// validCases are documents at the edges of the grammar; Valid must agree
// with encoding/json's Valid on each.
var validCases = []string{
	``, ` `, `0`, `-0`, `01`, `-`, `1.`, `.5`, `1.5`, `1e5`, `1E+5`, `1e`, `1e+`, `1.e5`, `-01`,
	`1e400`, `-1e400`, strings.Repeat("9", 5000), `NaN`, `Infinity`, `-Infinity`, `-I`, `N`,
	`true`, `tru`, `false`, `null`, `nul`, `nulls`, `"a"`, `"a`, `"\u00e9"`, `"\ud800"`, `"\uD83D\uDE00"`,
	`"\x"`, `"\u12"`, `"\u12g4"`, "\"\x01\"", "\"\x7f\"", "\"\xff\xfe\"", `"\/\b\f\n\r\t\\\""`,
	`[]`, `[ ]`, `[1,]`, `[,1]`, `[1 2]`, `[1,2]`, `{}`, `{ }`, `{"a":1}`, `{"a":1,}`, `{"a" 1}`, `{a:1}`,
	`{"a":1 "b":2}`, `{"a":[{"b":null}]}`, ` {"a" : [ 1 , 2 ] } `, "\t\r\n1\n", "1 2", `[1]]`, `{"a":1}}`,
	strings.Repeat("[", 10000) + strings.Repeat("]", 10000),
	strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
	strings.Repeat(`{"a":`, 10000) + "1" + strings.Repeat("}", 10000),
	strings.Repeat(`{"a":`, 10001) + "1" + strings.Repeat("}", 10001),
	strings.Repeat(`[{"a":`, 5000) + "1" + strings.Repeat("}]", 5000),
	strings.Repeat(`[{"a":`, 5000) + "[]" + strings.Repeat("}]", 5000),
	strings.Repeat(`[{"a":`, 5000) + "{}" + strings.Repeat("}]", 5000),
	strings.Repeat(`[{"a":`, 5000) + "1" + strings.Repeat("}]", 4999) + "]]",
	strings.Repeat(`[1,{"a":0,"b":`, 3000) + "null" + strings.Repeat("},2]", 3000),
	"\ufeff1", "1\x00",
}

func TestValid(t *testing.T) {
	cases := append([]string(nil), validCases...)
	if b, err := os.ReadFile("testdata/vectors.json"); err == nil {
		var vf vectorFile
		if err := json.Unmarshal(b, &vf); err != nil {
			t.Fatal(err)
		}
		for _, c := range vf.Cases {
			cases = append(cases, c.Input)
		}
	}
	for _, c := range cases {
		if got, want := Valid([]byte(c)), json.Valid([]byte(c)); got != want {
			t.Errorf("Valid(%s) = %v, encoding/json says %v", short(c), got, want)
		}
	}
}

// FuzzValid: Valid agrees with encoding/json's Valid on any input.
func FuzzValid(f *testing.F) {
	for _, c := range validCases {
		if len(c) < 200 {
			f.Add([]byte(c))
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := Valid(b), json.Valid(b); got != want {
			t.Fatalf("Valid(%q) = %v, encoding/json says %v", b, got, want)
		}
	})
}

// TestValidDoesNotRecurse checks Valid on the deepest documents it accepts
// with a goroutine stack far smaller than recursion would need: in the
// browser a recursion that deep exceeds the JavaScript engine's stack and
// kills the playground. A recursive Valid makes this test binary exit with
// "goroutine stack exceeds 65536-byte limit".
func TestValidDoesNotRecurse(t *testing.T) {
	deep := []string{
		strings.Repeat("[", 10000) + strings.Repeat("]", 10000),
		strings.Repeat(`{"a":`, 10000) + "1" + strings.Repeat("}", 10000),
		strings.Repeat(`[{"a":`, 5000) + "1" + strings.Repeat("}]", 5000),
	}
	defer debug.SetMaxStack(debug.SetMaxStack(64 << 10))
	for _, c := range deep {
		if !Valid([]byte(c)) {
			t.Errorf("Valid(%s) = false, want true", short(c))
		}
	}
}
