package locale

import (
	"slices"
	"testing"
)

func TestExpand(t *testing.T) {
	for _, tc := range []struct {
		t    string
		kv   []string
		want string
	}{
		{"{a} e {b}", []string{"a", "1", "b", "2"}, "1 e 2"},
		{"{a}{a}", []string{"a", "x"}, "xx"},
		{"{unknown} {a}", []string{"a", "x"}, "{unknown} x"},
		{"no braces", []string{"a", "x"}, "no braces"},
		{"open { only", []string{"a", "x"}, "open { only"},
		{"{a}", []string{"a", "{b}", "b", "no"}, "{b}"}, // values are not expanded again
		{"{a}", nil, "{a}"},
		// plural forms: ONE for 1, OTHER else, # the value
		{"({bytes|# byte|# bytes})", []string{"bytes", "1"}, "(1 byte)"},
		{"({bytes|# byte|# bytes})", []string{"bytes", "1.234"}, "(1.234 bytes)"},
		{"({bytes|# byte|# bytes})", []string{"bytes", "0"}, "(0 bytes)"},
		{"{n|arrivato # retry|arrivati # retry} su {total}", []string{"n", "2", "total", "5"}, "arrivati 2 retry su 5"},
		{"{n|# a|# b}", []string{"m", "1"}, "{n|# a|# b}"}, // unknown: left as it is
	} {
		if got := Expand(tc.t, tc.kv...); got != tc.want {
			t.Errorf("Expand(%q) = %q, want %q", tc.t, got, tc.want)
		}
	}
}

func TestDigits(t *testing.T) {
	for _, tc := range []struct {
		lang, in, want string
		ok             bool
	}{
		{"it", "100000000000000000000", "100.000.000.000.000.000.000", true},
		{"es", "1000", "1000", true},
		{"zh", "-12345", "-12,345", true},
		{"it", "0", "0", true},
		{"it", "-0", "0", true},
		{"it", "012", "", false},
		{"it", "1.5", "", false},
		{"it", "1e20", "", false},
		{"it", "", "", false},
		{"it", "-", "", false},
	} {
		got, ok := Locale{Lang: tc.lang}.Digits(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("%s Digits(%q) = %q %v, want %q %v", tc.lang, tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestPlaceholders(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"no names", nil},
		{"{a} and {b.total:2}", []string{"a", "b.total:2"}},
		{"{n|# layer|# layers} {n}", []string{"n|# layer|# layers", "n"}},
		{"open {a", nil},
	} {
		if got := Placeholders(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("Placeholders(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
