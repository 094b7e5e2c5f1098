package widget

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"retrylab/core/calc"
	"retrylab/site/locale"
)

// TestSets checks that the articles' sets split All: every calculator is
// in exactly one article's set, each set's views are those of All for its
// calculators, and a set's output is All's, byte for byte, at the
// calculator's defaults in every view it offers.
func TestSets(t *testing.T) {
	all := All()
	owner := map[string]string{}
	for _, s := range []*Set{Retries(), RateLimits(), Policies(), BackoffWork()} {
		for _, c := range s.Registry().List() {
			if prev, ok := owner[c.Name]; ok {
				t.Errorf("%s is in the sets %s and %s", c.Name, prev, s.Name())
			}
			owner[c.Name] = s.Name()
			if got, want := s.Views(c), all.Views(c); !slices.Equal(got, want) {
				t.Errorf("%s: set %s offers views %v, All offers %v", c.Name, s.Name(), got, want)
			}
			if got, want := s.DefaultViews(c), All().DefaultViews(c); !slices.Equal(got, want) {
				t.Errorf("%s: set %s defaults to %v, want %v", c.Name, s.Name(), got, want)
			}
			a, err := c.Parse(nil)
			if err != nil {
				t.Fatal(err)
			}
			res, err := c.Run(a)
			if err != nil {
				t.Fatal(err)
			}
			got, err := s.RenderOutput(c, a, res, s.Views(c), locale.Locale{})
			if err != nil {
				t.Fatal(err)
			}
			want, err := All().RenderOutput(c, a, res, All().Views(c), locale.Locale{})
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("%s: set %s renders another output than All", c.Name, s.Name())
			}
			d, err := s.Encode(res)
			if err != nil {
				t.Fatal(err)
			}
			field := d.r.list[0].Name
			gotText, gotValue, err1 := s.Cite(c, res, field, "", locale.Locale{})
			wantText, wantValue, err2 := All().Cite(c, res, field, "", locale.Locale{})
			if gotText != wantText || gotValue != wantValue || err1 != nil || err2 != nil {
				t.Errorf("%s.%s: set %s cites %q %q (%v), All %q %q (%v)", c.Name, field, s.Name(), gotText, gotValue, err1, wantText, wantValue, err2)
			}
			for _, other := range []*Set{Retries(), RateLimits(), Policies(), BackoffWork()} {
				if other.Name() == s.Name() {
					continue
				}
				// Another article's set links no encoder for this result.
				if _, err := other.Encode(res); err == nil || !strings.Contains(err.Error(), "no JSON encoder") {
					t.Errorf("%s: set %s decodes a result of set %s: %v", c.Name, other.Name(), s.Name(), err)
				}
			}
		}
		for name := range s.views {
			if !s.Holds(name) {
				t.Errorf("set %s has views for %s, which it does not hold", s.Name(), name)
			}
		}
	}
	for _, c := range all.Registry().List() {
		if owner[c.Name] == "" {
			t.Errorf("%s is in no article's set", c.Name)
		}
	}
	if len(owner) != len(all.Registry().List()) || len(allViews()) != len(retriesViewTable())+len(rateLimitsViewTable())+len(policiesViewTable())+len(backoffWorkViewTable()) {
		t.Errorf("the articles' sets do not add up to All")
	}
	// A calculator outside the set keeps the table and the generic bars.
	if got := Retries().Views(calc.RateLimits().List()[0]); !slices.Equal(got, []string{"table", "bars"}) {
		t.Errorf("retries offers %v for limits, want only the generic views", got)
	}
	var none *Set
	if none.Name() != "" || none.Holds("jitter") || len(none.Registry().List()) != 0 {
		t.Errorf("the nil set holds something")
	}
}

func TestFor(t *testing.T) {
	for _, tc := range []struct {
		names []string
		want  string
	}{
		{nil, ""},
		{[]string{"jitter"}, "retries"},
		{[]string{"peak", "attempts", "peak"}, "retries"},
		{[]string{"dispatch", "limits"}, "rate-limits"},
		{[]string{"policies"}, "policies"},
		{[]string{"policies", "jitter"}, ""},
		{[]string{"contention", "metastable"}, "backoff-work"},
		{[]string{"jitter", "limits"}, ""},
		{[]string{"jitter", "nope"}, ""},
	} {
		if got := For(tc.names).Name(); got != tc.want {
			t.Errorf("For(%v) = %q, want %q", tc.names, got, tc.want)
		}
	}
	var names []string
	for _, s := range Sets() {
		names = append(names, s.Name())
	}
	if got := strings.Join(names, " "); got != "retries rate-limits policies backoff-work" {
		t.Errorf("Sets() = %s", got)
	}
}

func ExampleFor() {
	for _, page := range [][]string{{"jitter", "peak"}, {"dispatch"}, {"budget", "backoff"}} {
		fmt.Println(page, "→", For(page).Name())
	}
	// Output:
	// [jitter peak] → retries
	// [dispatch] → rate-limits
	// [budget backoff] →
}

// The sets are calc.Articles, in order: each article's set has
// the article's slug as its name, the article's calculators, and the
// views of All for exactly those of them that have specialised views
// (the set constructors name their registry, view table and encoders
// themselves, so that a module links one article only: this test holds
// them to the one declaration).
func TestSetsFollowArticles(t *testing.T) {
	arts := calc.Articles()
	sets := Sets()
	if len(sets) != len(arts) {
		t.Fatalf("Sets() has %d sets, want one per article of calc.Articles (%d)", len(sets), len(arts))
	}
	all := allViews()
	for i, a := range arts {
		s := sets[i]
		if s.Name() != a.Slug {
			t.Errorf("set %d is %q, want the article's slug %q", i, s.Name(), a.Slug)
		}
		var got, want []string
		for _, c := range s.Registry().List() {
			got = append(got, c.Name)
		}
		for _, c := range a.Registry().List() {
			want = append(want, c.Name)
			if c.Article != a.Number {
				t.Errorf("%s: Article %d, want %d", c.Name, c.Article, a.Number)
			}
			if vs := all[c.Name]; len(vs) != len(s.views[c.Name]) {
				t.Errorf("set %s: %d views for %s, All has %d", s.Name(), len(s.views[c.Name]), c.Name, len(vs))
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("set %s holds %v, the article %v", s.Name(), got, want)
		}
		for name := range s.views {
			if !s.Holds(name) {
				t.Errorf("set %s has views for %s, which is not in its article", s.Name(), name)
			}
		}
	}
}
