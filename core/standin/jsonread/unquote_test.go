package jsonread

import (
	"bytes"
	"encoding/json"
	"testing"
)

var unquoteCases = []string{
	`"a"`, `""`, `"\u00e9\ud83d\ude00"`, `"\ud800x"`, `"\ud800\u0041"`, `"\udc00\ud800"`, `"\ud83d"`, "\"\xff\"", "\"é\xe2\x80\"",
	`"\/\b\f\n\r\t\\\""`, `"\u0000"`, `"\uD83D\uDE00"`, `"a`, `a"`, `"`, `1`, `null`, "\"\x01\"", `"\x"`, `"\u12"`, `"a"b"`, `"\'0000"`,
}

// Unquote reads a string literal as json.Unmarshal into a string does.
func TestUnquote(t *testing.T) {
	for _, c := range unquoteCases {
		checkUnquote(t, []byte(c))
	}
}

func checkUnquote(t *testing.T, b []byte) {
	t.Helper()
	b = bytes.TrimSpace(b) // Unquote reads the literal alone
	var want string
	werr := json.Unmarshal(b, &want)
	got, ok := Unquote(b)
	if !json.Valid(b) || len(b) == 0 || b[0] != '"' {
		// Unquote reads valid string literals (null, which json.Unmarshal
		// reads as "", is its caller's business); it refuses anything
		// else: other values, broken literals, text after the literal
		if ok {
			t.Errorf("Unquote(%q) = %q, accepted; want a refusal (json.Unmarshal: %v)", b, got, werr)
		}
		return
	}
	if (werr == nil) != ok || ok && got != want {
		t.Errorf("Unquote(%q) = %q %v; json.Unmarshal: %q %v", b, got, ok, want, werr)
	}
}

func FuzzUnquote(f *testing.F) {
	for _, c := range unquoteCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, b []byte) { checkUnquote(t, b) })
}
