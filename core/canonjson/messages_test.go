package canonjson

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestMessages pins whole error messages byte for byte (they were written
// with fmt's %d, %q, %U and %c; the package builds them with strconv so
// that the browser's module does not link fmt).
func TestMessages(t *testing.T) {
	long := "1" + strings.Repeat("0", 60) + "e400"
	for _, c := range []struct{ in, want string }{
		{"NaN", "at byte 0: NaN is not allowed (Python would write NaN, which is not JSON)"},
		{"[1,x]", "at byte 3: unexpected character 'x': expected a value"},
		{"[1,'a']", `at byte 3: unexpected character '\'': expected a value`},
		{"[\x01]", `at byte 1: unexpected character '\x01': expected a value`},
		{"[\x7f]", `at byte 1: unexpected character '\x7f': expected a value`},
		{"[é]", "at byte 1: unexpected character 'é': expected a value"},
		{"[你]", "at byte 1: unexpected character '你': expected a value"},
		{"[\u00a0]", `at byte 1: unexpected character '\u00a0': expected a value`},
		{"[\u2028]", `at byte 1: unexpected character '\u2028': expected a value`},
		{"[😀]", "at byte 1: unexpected character '😀': expected a value"},
		{"\"\x01\"", "at byte 1: control character U+0001 inside a string must be escaped"},
		{"[\"ab\x1f\"]", "at byte 4: control character U+001F inside a string must be escaped"},
		{"\"\x00\"", "at byte 1: control character U+0000 inside a string must be escaped"},
		{`"\q"`, `at byte 1: invalid escape \q`},
		{`"ab\'"`, `at byte 3: invalid escape \'`},
		{"\"\\é\"", "at byte 1: invalid escape \\é"},
		{"\"\\你\"", "at byte 1: invalid escape \\你"},
		{"\"\\\x7f\"", "at byte 1: invalid escape \\\x7f"},
		{strings.Repeat("[", MaxDepth+1), "at byte 500: nested deeper than 500 levels"},
		{strings.Repeat(`{"a":`, MaxDepth+1), "at byte 2500: nested deeper than 500 levels"},
		{strings.Repeat("7", MaxIntDigits+1), "at byte 0: integer of 4301 digits: Python refuses more than 4300"},
		{"[0, -" + strings.Repeat("9", 10000) + "]", "at byte 4: integer of 10000 digits: Python refuses more than 4300"},
		{"[1E400]", "at byte 1: number 1E400 is too large for a float (Python would read it as Infinity, which is not JSON)"},
		{"[" + long + "]", "at byte 1: number " + long[:40] + "… is too large for a float (Python would read it as Infinity, which is not JSON)"},
		{"\"\xff\"", "at byte 1: invalid UTF-8"},
	} {
		_, err := Canonical([]byte(c.in))
		if err == nil {
			t.Errorf("Canonical(%q): no error, want %q", short(c.in), c.want)
			continue
		}
		if got := err.Error(); got != c.want {
			t.Errorf("Canonical(%q):\n got  %q\n want %q", short(c.in), got, c.want)
		}
	}
	if got, want := (&Error{Offset: -3, Msg: ""}).Error(), "at byte -3: "; got != want {
		t.Errorf("Error{-3, \"\"} = %q, want %q", got, want)
	}
}

// TestMessagesFmt checks, for every byte, the messages that quote the byte
// against fmt with the format they were written with (%q, %U, %c of the
// byte as a rune), parsing without Canonical's UTF-8 check so that bytes
// 0x80-0xff are reached too: alone they start no UTF-8 sequence, and
// "unexpected character" quotes them as '\xNN' (a whole character, as in
// '你', is quoted whole: TestMessages).
func TestMessagesFmt(t *testing.T) {
	n := 0
	for i := range 256 {
		b := byte(i)
		p := parser{s: []byte{b}}
		if _, err := p.value(0); err != nil && strings.Contains(err.Error(), "unexpected character") {
			n++
			want := fmt.Sprintf("at byte 0: unexpected character %q: expected a value", rune(b))
			if b >= 0x80 { // a lone byte that starts no UTF-8 sequence
				want = fmt.Sprintf("at byte 0: unexpected character '\\x%02x': expected a value", b)
			}
			if got := err.Error(); got != want {
				t.Errorf("byte %#x: %q, want %q", b, got, want)
			}
		}
		p = parser{s: []byte{'"', b, '"'}}
		if _, err := p.str(); b < 0x20 {
			n++
			if got, want := errString(err), fmt.Sprintf("at byte 1: control character %U inside a string must be escaped", rune(b)); got != want {
				t.Errorf("byte %#x: %q, want %q", b, got, want)
			}
		}
		p = parser{s: []byte{'"', '\\', b, '"'}}
		if _, err := p.str(); !strings.ContainsRune(`"\/bfnrtu`, rune(b)) {
			n++
			if got, want := errString(err), fmt.Sprintf("at byte 1: invalid escape \\%c", b); got != want {
				t.Errorf("byte %#x: %q, want %q", b, got, want)
			}
		}
	}
	if n < 256+32+200 {
		t.Errorf("only %d messages checked", n)
	}
}

func errString(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// TestCodes checks the code and the argument of every kind of refusal:
// they are what a translated message is built from.
func TestCodes(t *testing.T) {
	for _, c := range []struct{ in, code, arg string }{
		{"[\xff]", "utf8", ""},
		{"1 2", "extra", ""},
		{"[1,", "eof_value", ""},
		{"[NaN]", "nonfinite", "NaN"},
		{"Infinity", "nonfinite", "Infinity"},
		{"[-Infinity]", "nonfinite", "-Infinity"},
		{"[你]", "char", "'你'"},
		{strings.Repeat("[", MaxDepth+1), "depth", "500"},
		{"{1:2}", "key", ""},
		{`{"a" 1}`, "colon", ""},
		{`{"a":1`, "eof_object", ""},
		{`{"a":1 "b"}`, "object_sep", ""},
		{"[1", "eof_array", ""},
		{"[1 2]", "array_sep", ""},
		{`"ab`, "eof_string", ""},
		{"\"\x01\"", "control", "U+0001"},
		{`"\`, "eof_escape", ""},
		{`"\é"`, "escape", `\é`},
		{`"\u12"`, "u_escape", ""},
		{"-x", "digit", ""},
		{strings.Repeat("7", MaxIntDigits+1), "int_digits", "4301"},
		{"1E400", "float_range", "1E400"},
	} {
		_, err := Canonical([]byte(c.in))
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%.20q: %v, want an *Error", c.in, err)
			continue
		}
		if e.Code != c.code || e.Arg != c.arg {
			t.Errorf("%.20q: code %q arg %q, want %q %q (%v)", c.in, e.Code, e.Arg, c.code, c.arg, err)
		}
	}
}
