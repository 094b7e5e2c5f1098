package main

import (
	"net/url"
	"strings"
	"testing"

	"retrylab/core/calc"
)

// TestReadWorst: the workerd section of make bench reads a line per
// request and refuses a list that leaves out a calculator with a work
// bound, names an unknown one or holds a query the calculator refuses,
// so that its figures cover every calculator.
func TestReadWorst(t *testing.T) {
	reg := calc.New()
	var all []string
	for _, c := range reg.List() {
		all = append(all, c.Name+" ")
	}
	for _, tc := range []struct {
		name  string
		lines []string
		want  string // in the error; "" for none
	}{
		{"every calculator", all, ""},
		{"a query", append([]string{"attempts n=3&q=0.5"}, all...), ""},
		{"one left out", all[1:], reg.List()[0].Name},
		{"unknown", append([]string{"nosuch q=1"}, all...), `no calculator "nosuch"`},
		{"refused", append([]string{"attempts q=2"}, all...), "line 1"},
		{"bad escape", append([]string{"attempts q=%zz"}, all...), "line 1"},
	} {
		got, err := readWorst(strings.NewReader(strings.Join(tc.lines, "\n")+"\n"), reg)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: error %v, want one naming %q", tc.name, err, tc.want)
		case tc.want == "" && len(got) != len(tc.lines):
			t.Errorf("%s: %d requests read of %d lines", tc.name, len(got), len(tc.lines))
		}
	}
}

// TestUncachedPath: every calculator's request at its defaults is
// spelled with a tab, which the edge layer leaves to Go (worker/edge's
// canonValue), and reads back, as Go reads it, as the same question;
// idempotency-key, whose only parameter is a text the edge layer always
// leaves to Go, keeps its query.
func TestUncachedPath(t *testing.T) {
	for _, c := range calc.New().List() {
		p, err := uncachedPath(worstRequest{calc: c})
		if err != nil {
			t.Errorf("%s: %v", c.Name, err)
			continue
		}
		path, q, _ := strings.Cut(p, "?")
		vals, err := url.ParseQuery(q)
		if err != nil {
			t.Fatal(err)
		}
		a, err := c.Parse(vals)
		if path != "/api/v1/"+c.Name || err != nil || a.Canonical() != "" {
			t.Errorf("%s: %s reads as %q, %v; want the defaults", c.Name, p, a.Canonical(), err)
		}
		if !strings.Contains(q, "%09") && c.Name != "idempotency-key" {
			t.Errorf("%s: %s has no tab", c.Name, p)
		}
	}
}
