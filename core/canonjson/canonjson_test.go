package canonjson

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"unicode/utf8"
)

type vectorFile struct {
	Python string `json:"python"`
	Tenant string `json:"tenant"`
	Task   string `json:"task"`
	Cases  []struct {
		Input     string  `json:"input"`
		Canonical *string `json:"canonical"`
		Key       string  `json:"key"`
		Error     string  `json:"error"`
	} `json:"cases"`
}

// TestCPythonVectors compares with what CPython wrote (see
// core/canonjson/testdata/canonjson.py); no Python is needed to run it.
func TestCPythonVectors(t *testing.T) {
	b, err := os.ReadFile("testdata/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var vf vectorFile
	if err := json.Unmarshal(b, &vf); err != nil {
		t.Fatal(err)
	}
	if len(vf.Cases) < 200 {
		t.Fatalf("only %d vectors", len(vf.Cases))
	}
	var refused int
	for i, c := range vf.Cases {
		key, got, err := Key(vf.Tenant, vf.Task, []byte(c.Input))
		if c.Canonical == nil {
			refused++
			if err == nil {
				t.Errorf("case %d %q: CPython fails (%s) but got %q", i, short(c.Input), c.Error, got)
			}
			continue
		}
		if err != nil {
			t.Errorf("case %d %q: %v; CPython writes %q", i, short(c.Input), err, short(*c.Canonical))
			continue
		}
		if got != *c.Canonical {
			t.Errorf("case %d %q:\n got  %s\n want %s", i, short(c.Input), got, *c.Canonical)
		}
		if key != c.Key {
			t.Errorf("case %d: key %s, want %s", i, key, c.Key)
		}
	}
	if refused < 20 {
		t.Errorf("only %d refusals in the vectors", refused)
	}
}

func short(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

func TestErrors(t *testing.T) {
	tests := []struct {
		in, msg string
		offset  int
	}{
		{"NaN", "NaN is not allowed", 0},
		{`{"x": Infinity}`, "Infinity is not allowed", 6},
		{"[-Infinity]", "-Infinity is not allowed", 1},
		{"[1E400]", "too large for a float", 1},
		{"", "unexpected end of input", 0},
		{"[1,]", "expected a value", 3},
		{`{"a":1}x`, "extra data", 7},
		{"\"\x01\"", "control character", 1},
		{"\"\xff\"", "invalid UTF-8", 1},
		{`"\q"`, `invalid escape \q`, 1},
		{strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1), "nested deeper than 500", MaxDepth},
		{strings.Repeat("7", MaxIntDigits+1), "Python refuses more than 4300", 0},
	}
	for _, tt := range tests {
		_, err := Canonical([]byte(tt.in))
		var e *Error
		if !errors.As(err, &e) || !strings.Contains(e.Msg, tt.msg) || e.Offset != tt.offset {
			t.Errorf("Canonical(%q) = %v; want %q at byte %d", short(tt.in), err, tt.msg, tt.offset)
		}
	}
	deep := strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth)
	if _, err := Canonical([]byte(deep)); err != nil {
		t.Errorf("%d levels refused: %v", MaxDepth, err)
	}
}

func TestFloatRepr(t *testing.T) {
	for f, want := range map[float64]string{1e16: "1e+16", 1e15: "1000000000000000.0", 1e-5: "1e-05", 1e-4: "0.0001",
		0.1: "0.1", 1: "1.0", 1e300: "1e+300", 0: "0.0", 5e-324: "5e-324", 1.5: "1.5", 123456789.125: "123456789.125"} {
		if got := FloatRepr(f); got != want {
			t.Errorf("FloatRepr(%v) = %s, want %s", f, got, want)
		}
	}
}

func FuzzCanonical(f *testing.F) {
	for _, s := range []string{`{"a":[1,2.5,"x"]}`, `"\ud83d\ude00"`, `1e16`, `{"b":1,"b":2}`, `NaN`, `[`, `"\u00"`, `-0`, "\"\xed\xa0\x80\""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		out, err := Canonical(b)
		if err != nil {
			return
		}
		// The canonical form is ASCII, valid JSON, and a fixed point.
		for i := 0; i < len(out); i++ {
			if out[i] >= utf8.RuneSelf {
				t.Fatalf("non-ASCII output %q", out)
			}
		}
		again, err := Canonical([]byte(out))
		if err != nil || again != out {
			t.Fatalf("not a fixed point: %q → %q (%v)", out, again, err)
		}
	})
}

func ExampleKey() {
	key, canonical, _ := Key("acme", "summarize", []byte(`{"max_output_tokens": 1000, "document_id": "doc-42"}`))
	fmt.Println(canonical)
	fmt.Println(key)
	// Output:
	// {"document_id":"doc-42","max_output_tokens":1000}
	// acme:summarize:8a5dbf3d81e17c323058f3e9d175f5ad2ceeb7ba6e27c9b5ffebe9100579dc35
}

// As in Python, a NaN or an overflowing float replaced by a later
// duplicate key is not in the document, so it is not refused.
func TestInvalidReplacedByDuplicate(t *testing.T) {
	for in, want := range map[string]string{
		`{"a":NaN,"a":1}`:                   `{"a":1}`,
		`{"a":1e400,"b":[],"a":-0.0}`:       `{"a":-0.0,"b":[]}`,
		`{"\ud83c\udf04":-Infinity,"🌄":""}`: `{"\ud83c\udf04":""}`,
	} {
		got, err := Canonical([]byte(in))
		if err != nil || got != want {
			t.Errorf("Canonical(%s) = %s, %v; want %s", in, got, err, want)
		}
	}
	if _, err := Canonical([]byte(`{"a":1,"a":NaN}`)); err == nil {
		t.Error("a NaN that wins is accepted")
	}
}
