package cite

import (
	"errors"
	"strings"
	"testing"
)

func TestLookup(t *testing.T) {
	fields := []Field{
		{"peak", []byte(`14`)},
		{"counts", []byte(`[1, 2,3 ,[4,5]]`)},
		{"key", []byte(`"a,b"`)},
	}
	for _, tc := range []struct {
		spec, want, err string
	}{
		{"peak", `14`, ""},
		{"key", `"a,b"`, ""},
		{"counts", `[1, 2,3 ,[4,5]]`, ""},
		{"counts[0]", `1`, ""},
		{"counts[2]", `3`, ""},
		{"counts[3]", `[4,5]`, ""},
		{"counts[4]", "", `counts[4]: field "counts" has 4 elements (from 0 to 3)`},
		{"peak[0]", "", `field "peak" is not a list, so peak[0] has no element`},
		{"key[0]", "", `field "key" is not a list`},
		{"nope", "", `calc has no field "nope"; its fields are peak, counts, key`},
		{"nope[1]", "", `calc has no field "nope"`},
		{"", "", "the citation names no field"},
		{"[1]", "", `bad field "[1]": write NAME or NAME[i]`},
		{"counts[x]", "", `bad index in "counts[x]"`},
		{"counts[-1]", "", `bad index in "counts[-1]"`},
		{"counts[1", "", `bad field "counts[1"`},
	} {
		got, err := Lookup("calc", fields, tc.spec)
		switch {
		case tc.err == "" && (err != nil || string(got) != tc.want):
			t.Errorf("Lookup(%q) = %s, %v; want %s", tc.spec, got, err, tc.want)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("Lookup(%q) = %s, %v; want the error %q", tc.spec, got, err, tc.err)
		}
	}
	if _, err := Lookup("calc", fields, "counts[9]"); !errors.As(err, new(*NoElementError)) {
		t.Errorf("Lookup(counts[9]): %v is not a *NoElementError", err)
	}
}

func TestParseFormat(t *testing.T) {
	for _, tc := range []struct {
		f, kind string
		n       int
		ok      bool
	}{
		{"", "", 0, true},
		{"list", "list", 0, true},
		{"yesno", "yesno", 0, true},
		{"0", "fixed", 0, true},
		{"2", "fixed", 2, true},
		{"15", "fixed", 15, true},
		{"16", "", 0, false},
		{"02", "", 0, false},
		{"%1", "percent", 1, true},
		{"%10", "percent", 10, true},
		{"%11", "", 0, false},
		{"%", "", 0, false},
		{"e1", "sci", 1, true},
		{"e17", "sci", 17, true},
		{"e0", "", 0, false},
		{"e", "", 0, false},
		{"x", "", 0, false},
		{"-1", "", 0, false},
	} {
		kind, n, err := ParseFormat(tc.f)
		if (err == nil) != tc.ok || (tc.ok && (kind != tc.kind || n != tc.n)) {
			t.Errorf("ParseFormat(%q) = %q %d %v, want %q %d ok=%v", tc.f, kind, n, err, tc.kind, tc.n, tc.ok)
		}
	}
}
