package calc

import (
	"fmt"
	"net/url"
	"testing"
)

// TestCanonical: equivalent queries (order, explicit defaults, number
// spelling, booleans, spaces) share one canonical query; different values
// do not.
func TestCanonical(t *testing.T) {
	reg := New()
	for _, tc := range []struct {
		calc  string
		query []string // all equivalent
		want  string
	}{
		{"attempts", []string{"", "q=0.5", "n=3&q=.50", "q=5e-1&n=3.0", "n=+3"}, ""},
		{"attempts", []string{"q=0.9&n=5", "n=5&q=0.90", "n=5e0&q=9e-1", "q=%200.9%20&n=5"}, "q=0.9&n=5"},
		{"amplification", []string{"attempts=1,1,3", "attempts=1, 1 ,3.0"}, "attempts=1%2C1%2C3"},
		{"amplification", []string{"attempts=3,3,3", ""}, ""},
		{"backoff", []string{"jitter=false", "jitter=0", "jitter=OFF"}, "jitter=false"},
		{"backoff", []string{"jitter=yes", ""}, ""},
		{"budget", []string{"order=depth&requests=1e3", "requests=1000&order=depth"}, "requests=1000&order=depth"},
	} {
		for _, q := range tc.query {
			v, err := url.ParseQuery(q)
			if err != nil {
				t.Fatal(err)
			}
			c, ok := reg.Lookup(tc.calc)
			if !ok {
				t.Fatalf("no calculator %s", tc.calc)
			}
			a, err := c.Parse(v)
			if err != nil {
				t.Errorf("%s?%s: %v", tc.calc, q, err)
				continue
			}
			if got := a.Canonical(); got != tc.want {
				t.Errorf("%s?%s: Canonical = %q, want %q", tc.calc, q, got, tc.want)
			}
		}
	}
}

// TestCanonicalDefaults: every calculator at its defaults has the empty
// canonical query.
func TestCanonicalDefaults(t *testing.T) {
	for _, c := range New().List() {
		a, err := c.Parse(nil)
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		if got := a.Canonical(); got != "" {
			t.Errorf("%s at its defaults: Canonical = %q, want \"\"", c.Name, got)
		}
	}
}

func ExampleArgs_Canonical() {
	c, _ := New().Lookup("attempts")
	a, _ := c.Parse(url.Values{"n": {"5.0"}, "q": {".90"}})
	b, _ := c.Parse(url.Values{"q": {"0.9"}, "n": {"5"}})
	fmt.Println(a.Canonical(), a.Canonical() == b.Canonical())
	// Output: q=0.9&n=5 true
}
