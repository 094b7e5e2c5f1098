package widget

import (
	"net/url"
	"strings"
	"testing"

	"retrylab/core/calc"
)

// TestCompareBudget: the budget widget beside the same requests without a
// budget draws both runs' histograms and says how the total changes.
func TestCompareBudget(t *testing.T) {
	c, _ := calc.New().Lookup("budget")
	for lang, loc := range locales(t) {
		html, err := Render(Spec{Calc: c, ID: "bud", Compare: "budget=false"}, loc)
		if err != nil {
			t.Fatalf("%s: %v", lang, err)
		}
		for _, want := range []string{`data-compare="budget=false"`, `data-run="base"`, `data-run="variant"`, `data-compare-sentence`} {
			if !strings.Contains(html, want) {
				t.Errorf("%s: no %s", lang, want)
			}
		}
		runs := html[strings.Index(html, `data-run="base"`):]
		if n := strings.Count(runs, `data-view="histogram"`); n != 2 {
			t.Errorf("%s: %d histograms in the comparison, want 2 (one per run)", lang, n)
		}
		// the outputs are the page's result, once: none in the runs' copies
		if strings.Contains(runs, "data-out=") || !strings.Contains(html[:strings.Index(html, `data-run="base"`)], `data-out="attempts_histogram"`) {
			t.Errorf("%s: data-out in a compared run, or not in the widget's own chart", lang)
		}
		// the sentence names the total: 120 with the budget, 300 without
		s := html[strings.Index(html, "data-compare-sentence"):]
		s = s[:strings.Index(s, "</p>")]
		if !strings.Contains(s, "120") || !strings.Contains(s, "300") {
			t.Errorf("%s: the sentence %q does not state 120 → 300", lang, s)
		}
	}
}

// TestVariantCite: Variant runs the comparison that the views ask for,
// and citing its result gives the compared run's values, which follow the
// reader's input; without a comparison there is no variant.
func TestVariantCite(t *testing.T) {
	set := All()
	c, _ := calc.New().Lookup("budget")
	loc := locales(t)["it"]
	views := []string{"table", CompareView("budget=false")}
	for _, tc := range []struct {
		values     url.Values
		base, vary string // total_attempts with and without the budget
	}{
		{nil, "120", "300"},
		{url.Values{"requests": {"1000"}}, "1.020", "3.000"},
		{url.Values{"attempts": {"5"}, "tokens": {"7"}}, "107", "500"},
	} {
		a, err := c.Parse(tc.values)
		if err != nil {
			t.Fatal(err)
		}
		res, _ := c.Run(a)
		v, ok, err := Variant(c, a, views)
		if !ok || err != nil {
			t.Fatalf("%v: variant %v, %v", tc.values, ok, err)
		}
		base, _, err1 := set.CiteShown(c, res, "total_attempts", "", loc)
		vary, raw, err2 := set.CiteShown(c, v, "total_attempts", "", loc)
		if err1 != nil || err2 != nil || base != tc.base || vary != tc.vary {
			t.Errorf("%v: total_attempts %q (%v) beside %q (%v), want %s and %s", tc.values, base, err1, vary, err2, tc.base, tc.vary)
		}
		if raw != strings.ReplaceAll(tc.vary, ".", "") {
			t.Errorf("%v: value %s, want %s", tc.values, raw, tc.vary)
		}
	}
	a, _ := c.Parse(nil)
	if _, ok, _ := Variant(c, a, []string{"table"}); ok {
		t.Error("a variant without a compare view")
	}
	if _, ok, err := Variant(c, a, []string{CompareView("budget=maybe")}); !ok || err == nil {
		t.Errorf("a refused compare value: ok %v, err %v; want the refusal", ok, err)
	}
}

func TestDropOuts(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`<td data-out="a" data-value="[1,2]">x</td>`, `<td>x</td>`},
		{`<g data-out="a"><td data-out="b" data-value="&#34;q&#34;" class="c">`, `<g><td class="c">`},
		{`<p data-value="1">`, `<p data-value="1">`},
		{`<p data-out="unclosed`, `<p`},
	} {
		if got := dropOuts(tc.in); got != tc.want {
			t.Errorf("dropOuts(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
