package calc

import (
	"sort"
	"strings"
	"testing"
)

// replacerExpand is Expand as it was written before it became a loop:
// strings.NewReplacer over "{param}" and then every var in sorted order.
// It is the reference of TestExpand and FuzzExpand.
func replacerExpand(e *Error, t string) string {
	pairs := []string{"{param}", e.Param}
	keys := make([]string, 0, len(e.Vars))
	for k := range e.Vars {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		pairs = append(pairs, "{"+k+"}", e.Vars[k])
	}
	return strings.NewReplacer(pairs...).Replace(t)
}

func TestExpand(t *testing.T) {
	vars := map[string]string{"value": `"2"`, "range": "[0, 1]", "a": "A", "a}b": "AB", "": "EMPTY",
		"param": "shadowed", "x": "{a}", "long": strings.Repeat("é", 30)}
	tests := []struct {
		name  string
		param string
		vars  map[string]string
		t     string
		want  string
	}{
		{"no var", "q", nil, "{param} must be a number", "q must be a number"},
		{"no brace", "q", vars, "nothing to do", "nothing to do"},
		{"empty template", "q", vars, "", ""},
		{"every var", "q", vars, "{param} must be in {range}, got {value}", `q must be in [0, 1], got "2"`},
		{"param wins over a var named param", "q", vars, "{param}", "q"},
		{"empty param", "", vars, "[{param}]", "[]"},
		{"unknown name kept", "q", vars, "{nosuch} {param}", "{nosuch} q"},
		{"smallest name wins", "q", vars, "{a}b}", "Ab}"},
		{"empty name", "q", vars, "{}{}", "EMPTYEMPTY"},
		{"no re-expansion", "q", vars, "{x}", "{a}"},
		{"unclosed", "q", vars, "{a", "{a"},
		{"nested", "q", vars, "{{a}}", "{A}"},
		{"adjacent", "q", vars, "{a}{a}{param}", "AAq"},
		{"at the ends", "q", vars, "{a} middle {a}", "A middle A"},
		{"utf-8 around", "q", vars, "é{long}ü", "é" + strings.Repeat("é", 30) + "ü"},
		{"invalid utf-8 kept", "q", vars, "\xff{a}\xfe", "\xffA\xfe"},
		{"only a brace", "q", nil, "{", "{"},
		{"english template", "jobs", map[string]string{"detail": "jobs × max_attempts must be at most 10"}, EnglishTemplate(CodeWork), "jobs: jobs × max_attempts must be at most 10"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := &Error{Param: tt.param, Vars: tt.vars}
			got := e.Expand(tt.t)
			if got != tt.want {
				t.Errorf("Expand(%q) = %q, want %q", tt.t, got, tt.want)
			}
			if ref := replacerExpand(e, tt.t); got != ref {
				t.Errorf("Expand(%q) = %q, strings.Replacer gives %q", tt.t, got, ref)
			}
		})
	}
}

// FuzzExpand holds Expand to strings.NewReplacer's expansion for any
// template, parameter and up to three vars (names and values may hold
// braces, be empty or be invalid UTF-8).
func FuzzExpand(f *testing.F) {
	f.Add("{param} must be in {range}, got {value}", "q", "range", "[0, 1]", "value", `"2"`, "x", "")
	f.Add("{a}b}{a}", "", "a", "A", "a}b", "AB", "", "E")
	f.Add("{}{{param}}", "{param}", "param", "P", "", "{}", "b", "{b}")
	f.Fuzz(func(t *testing.T, tmpl, param, k1, v1, k2, v2, k3, v3 string) {
		e := &Error{Param: param, Vars: map[string]string{k1: v1, k2: v2, k3: v3}}
		if got, want := e.Expand(tmpl), replacerExpand(e, tmpl); got != want {
			t.Errorf("Expand(%q) with param %q, vars %q = %q, strings.Replacer gives %q", tmpl, param, e.Vars, got, want)
		}
		e.Vars = nil
		if got, want := e.Expand(tmpl), replacerExpand(e, tmpl); got != want {
			t.Errorf("Expand(%q) with param %q, no vars = %q, strings.Replacer gives %q", tmpl, param, got, want)
		}
	})
}
