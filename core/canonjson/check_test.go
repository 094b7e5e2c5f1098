package canonjson

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
)

// checkLikeCanonical holds Check(text) to Canonical(text)'s error: nil
// together, or equal *Errors (offset, message, code and argument).
func checkLikeCanonical(t *testing.T, text []byte) {
	t.Helper()
	_, want := Canonical(text)
	got := Check(text)
	if (got == nil) != (want == nil) || got != nil && !reflect.DeepEqual(got, want) {
		t.Errorf("Check(%q) = %#v, Canonical's error is %#v", short(string(text)), got, want)
	}
}

// TestCheck: every CPython vector (accepted and refused), the refusals of
// TestErrors and a few more.
func TestCheck(t *testing.T) {
	b, err := os.ReadFile("testdata/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var vf vectorFile
	if err := json.Unmarshal(b, &vf); err != nil {
		t.Fatal(err)
	}
	refused := 0
	for _, c := range vf.Cases {
		checkLikeCanonical(t, []byte(c.Input))
		if Check([]byte(c.Input)) != nil {
			refused++
		}
	}
	if refused < 20 {
		t.Errorf("only %d vectors refused by Check", refused)
	}
	for _, s := range []string{"NaN", `{"x": Infinity}`, "[1E400]", "", "[1,]", `{"a":1}x`, "\"\x01\"", "\"\xff\"", `"\q"`,
		`{"a":NaN,"a":1}`, `{"a":1,"a":NaN}`, " 1 ", "{}", strings.Repeat("[", MaxDepth+1), strings.Repeat("7", MaxIntDigits+1)} {
		checkLikeCanonical(t, []byte(s))
	}
}

func FuzzCheck(f *testing.F) {
	for _, s := range []string{`{"a":[1,2.5,"x"]}`, `{"b":1,"b":NaN}`, `[`, "\"\xed\xa0\x80\"", `1e400`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		checkLikeCanonical(t, b)
	})
}
