package locale

import "testing"

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
	} {
		if got := Expand(tc.t, tc.kv...); got != tc.want {
			t.Errorf("Expand(%q) = %q, want %q", tc.t, got, tc.want)
		}
	}
}
