package calc

import (
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// run1 runs calculator name on key=value pairs and checks that the result
// encodes; it returns the result decoded from its JSON, as the API and the
// widgets see it.
func run1(t *testing.T, name string, pairs ...string) map[string]any {
	t.Helper()
	c, ok := New().Lookup(name)
	if !ok {
		t.Fatalf("no calculator %s", name)
	}
	a, err := c.ParsePairs(pairs)
	if err != nil {
		t.Fatalf("%s %v: %v", name, pairs, err)
	}
	res, err := c.Run(a)
	if err != nil {
		t.Fatalf("%s %v: %v", name, pairs, err)
	}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// refused runs name on pairs and returns the *Error it must give.
func pairsValues(pairs []string) url.Values {
	v := url.Values{}
	for _, p := range pairs {
		k, val, _ := strings.Cut(p, "=")
		v.Add(k, val)
	}
	return v
}

func nums(t *testing.T, m map[string]any, field string) []float64 {
	t.Helper()
	l, ok := m[field].([]any)
	if !ok {
		t.Fatalf("field %s is %T, want a list", field, m[field])
	}
	out := make([]float64, len(l))
	for i, v := range l {
		out[i] = v.(float64)
	}
	return out
}

func fl(xs ...float64) []float64 { return xs }

// contractFields lists, per calculator, the result fields of
// ../shared/CALCULATORS.md: each must be present.
var contractFields = map[string][]string{
	"attempts":      {"q", "n", "expected_attempts", "success_probability"},
	"amplification": {"attempts", "levels", "calls_per_level", "final_calls"},
	"budget":        {"first_attempts", "retries", "total_attempts", "unbudgeted_total", "attempts_histogram"},
	"jitter":        {"total", "counts", "bin_starts_ms", "peak", "peak_bin_start_ms", "mean_arrival_ms", "max_arrival_ms", "arrivals_ms"},
	"deadline":      {"worst_case_ms", "fits", "remaining_before_attempt_ms", "attempt_budget_ms", "attempts_admitted"},
	"peak":          {"p_bin", "expected_per_bin", "single_bin_tail", "union_bound", "exact_any_bin"},
}

func TestArticle1ContractFields(t *testing.T) {
	var names []string
	for _, c := range New().List() {
		if c.Article == 1 {
			names = append(names, c.Name)
		}
	}
	if want := []string{"attempts", "amplification", "budget", "jitter", "deadline", "peak"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("article 1 calculators %v, want %v", names, want)
	}
	for name, fields := range contractFields {
		m := run1(t, name)
		for _, f := range fields {
			if _, ok := m[f]; !ok {
				t.Errorf("%s: no field %s in %v", name, f, m)
			}
		}
	}
}

func TestFigureAttempts(t *testing.T) {
	for _, c := range []struct {
		q    string
		e, s float64
	}{{"0.1", 1.11, 0.999}, {"0.5", 1.75, 0.875}, {"0.9", 2.71, 0.271}} {
		m := run1(t, "attempts", "q="+c.q)
		if math.Abs(m["expected_attempts"].(float64)-c.e) > 1e-12 || math.Abs(m["success_probability"].(float64)-c.s) > 1e-12 {
			t.Errorf("q=%s: %v", c.q, m)
		}
	}
}

func TestFigureAmplification(t *testing.T) {
	m := run1(t, "amplification")
	if !reflect.DeepEqual(nums(t, m, "calls_per_level"), fl(3, 9, 27)) || m["final_calls"] != 27.0 || m["levels"] != 3.0 {
		t.Fatalf("3,3,3: %v", m)
	}
	if tree := m["tree"].([]any); len(tree) != 40 {
		t.Fatalf("tree of %d nodes", len(tree))
	}
	m = run1(t, "amplification", "attempts=1,1,3")
	if m["final_calls"] != 3.0 {
		t.Fatalf("1,1,3: %v", m)
	}
	// Ten layers of 100: 10^20 calls, exact, and no tree but a note.
	c, _ := New().Lookup("amplification")
	res, err := c.Compute(url.Values{"attempts": {"100,100,100,100,100,100,100,100,100,99"}})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res)
	if !strings.Contains(string(b), `"final_calls":99000000000000000000`) || !strings.Contains(string(b), `"tree_note":"the call tree has`) ||
		strings.Contains(string(b), `"tree":`) {
		t.Fatalf("huge: %s", b)
	}
}

func TestFigureBudget(t *testing.T) {
	m := run1(t, "budget")
	if m["total_attempts"] != 120.0 || m["unbudgeted_total"] != 300.0 || !reflect.DeepEqual(nums(t, m, "attempts_histogram"), fl(80, 20, 0)) {
		t.Fatalf("defaults: %v", m)
	}
	m = run1(t, "budget", "processes=10")
	if m["retries"] != 200.0 || m["total_attempts"] != 300.0 {
		t.Fatalf("ten processes: %v", m)
	}
	m = run1(t, "budget", "order=depth")
	if m["total_attempts"] != 120.0 || !reflect.DeepEqual(nums(t, m, "attempts_histogram"), fl(90, 0, 10)) {
		t.Fatalf("depth: %v", m)
	}
	m = run1(t, "budget", "requests=1000000", "attempts=100", "tokens=1000000000", "processes=1000")
	if m["retries"] != 99e6 {
		t.Fatalf("largest: %v", m["retries"])
	}
	// without a budget every request makes all its attempts, and no token
	// is taken from any counter
	for _, tc := range []struct {
		args          []string
		total, tokens float64
	}{
		{[]string{"budget=false"}, 300, 20},
		{[]string{"budget=false", "processes=10", "order=depth"}, 300, 200},
		{[]string{"budget=false", "tokens=0"}, 300, 0},
		{[]string{"budget=false", "requests=1000000", "attempts=100", "processes=1000"}, 1e8, 20000},
	} {
		m = run1(t, "budget", tc.args...)
		if m["total_attempts"] != tc.total || m["total_attempts"] != m["unbudgeted_total"] || m["tokens_left"] != tc.tokens {
			t.Errorf("%v: total %v (unbudgeted %v), tokens left %v; want %v, the same, %v", tc.args, m["total_attempts"], m["unbudgeted_total"], m["tokens_left"], tc.total, tc.tokens)
		}
	}
}

func TestFigureJitter(t *testing.T) {
	m := run1(t, "jitter")
	if !reflect.DeepEqual(nums(t, m, "counts"), fl(9, 7, 9, 12, 14, 14, 7, 11, 6, 11)) || m["peak"] != 14.0 || m["total"] != 100.0 {
		t.Fatalf("full: %v", m)
	}
	if len(nums(t, m, "arrivals_ms")) != 100 || !reflect.DeepEqual(nums(t, m, "bin_starts_ms"), fl(0, 10, 20, 30, 40, 50, 60, 70, 80, 90)) {
		t.Fatalf("full: %v", m)
	}
	m = run1(t, "jitter", "strategy=fixed")
	counts := nums(t, m, "counts")
	if len(counts) != 11 || counts[10] != 100 || m["peak_bin_start_ms"] != 100.0 {
		t.Fatalf("fixed: %v", m)
	}
	// A seed beyond 2^64, and its negative: the same draws (CPython uses |seed|).
	a := run1(t, "jitter", "seed=123456789012345678901234567890")
	b := run1(t, "jitter", "seed=-123456789012345678901234567890")
	if !reflect.DeepEqual(a["arrivals_ms"], b["arrivals_ms"]) || reflect.DeepEqual(a["arrivals_ms"], m["arrivals_ms"]) {
		t.Fatal("seed sign or size mishandled")
	}
	m = run1(t, "jitter", "clients=1000000")
	if _, ok := m["arrivals_ms"]; ok || m["total"] != 1e6 {
		t.Fatalf("a million clients: arrivals listed or total %v", m["total"])
	}
	m = run1(t, "jitter", "waves=3", "strategy=equal", "cap_ms=250")
	if !reflect.DeepEqual(nums(t, m, "ceilings_ms"), fl(100, 200, 250)) || m["total"] != 300.0 {
		t.Fatalf("waves: %v", m["ceilings_ms"])
	}
}

func TestFigureDeadline(t *testing.T) {
	m := run1(t, "deadline")
	if m["worst_case_ms"] != 750.0 || m["fits"] != false || m["attempts_admitted"] != 3.0 ||
		!reflect.DeepEqual(nums(t, m, "remaining_before_attempt_ms"), fl(600, 350, 50)) ||
		!reflect.DeepEqual(nums(t, m, "attempt_budget_ms"), fl(200, 200, 50)) {
		t.Fatalf("defaults: %v", m)
	}
	m = run1(t, "deadline", "min_attempt_ms=100")
	if m["attempts_admitted"] != 2.0 {
		t.Fatalf("min_attempt_ms: %v", m)
	}
	m = run1(t, "deadline", "attempts=5")
	if !reflect.DeepEqual(nums(t, m, "waits_ms"), fl(50, 100, 200, 400)) {
		t.Fatalf("default waits for 5 attempts: %v", m["waits_ms"])
	}
	m = run1(t, "deadline", "attempts=1")
	if m["worst_case_ms"] != 200.0 || len(nums(t, m, "waits_ms")) != 0 {
		t.Fatalf("one attempt: %v", m)
	}
}

func TestFigurePeak(t *testing.T) {
	m := run1(t, "peak")
	tail, ub := m["single_bin_tail"].(float64), m["union_bound"].(float64)
	if s := fmt.Sprintf("%.6g %.6g", tail, ub); s != "1.30728e-05 0.000130728" {
		t.Fatalf("tail and bound %s", s)
	}
	ex := m["exact_any_bin"].(float64)
	if !(ex < ub && ex > 0.9999*ub) {
		t.Fatalf("exact %v, union %v: want slightly below", ex, ub)
	}
	at := nums(t, m, "max_at_least")
	if math.Abs(at[14]-0.83) > 0.005 || m["max_most_likely"] != 14.0 {
		t.Fatalf("P(max >= 14) = %v, most likely %v", at[14], m["max_most_likely"])
	}
	// n = 2000, k = 100 is exact; the largest n and k give null and a note.
	m = run1(t, "peak", "clients=2000", "bins=100", "threshold=40")
	if _, ok := m["exact_any_bin"].(float64); !ok {
		t.Fatalf("n=2000 k=100: %v", m)
	}
	m = run1(t, "peak", "clients=100000", "bins=10000", "threshold=15")
	if m["exact_any_bin"] != nil || m["note"] == nil || m["max_note"] == nil {
		t.Fatalf("largest: %v", m)
	}
	// Tails far below the float64 range keep their logarithm.
	m = run1(t, "peak", "clients=100000", "bins=2", "threshold=100000")
	if m["single_bin_tail"] != 0.0 || math.Abs(m["single_bin_tail_log10"].(float64)+100000*math.Log10(2)) > 1e-6 {
		t.Fatalf("tiny tail: %v %v", m["single_bin_tail"], m["single_bin_tail_log10"])
	}
}

func TestArticle1Refusals(t *testing.T) {
	checkRefusals(t, func(name string, pairs []string) error {
		_, err := New().Compute(name, pairsValues(pairs))
		return err
	}, []refusal{
		{"amplification", []string{"attempts=3,0"}, "attempts", CodeRange},
		{"amplification", []string{"attempts="}, "attempts", CodeListLen},
		{"amplification", []string{"attempts=1,1,1,1,1,1,1,1,1,1,1"}, "attempts", CodeListLen},
		{"amplification", []string{"attempts=3,x"}, "attempts", CodeNotNumber},
		{"budget", []string{"order=random"}, "order", CodeChoice},
		{"budget", []string{"tokens=-1"}, "tokens", CodeRange},
		{"budget", []string{"requests=1.5"}, "requests", CodeNotInteger},
		{"jitter", []string{"clients=1000000", "waves=11"}, "clients", CodeWork},
		{"jitter", []string{"width_ms=0.0009"}, "width_ms", CodeWork},
		{"jitter", []string{"cap_ms=50"}, "cap_ms", CodeConstraint},
		{"jitter", []string{"seed=1.5"}, "seed", CodeNotInteger},
		{"jitter", []string{"seed=1e3"}, "seed", CodeNotInteger},
		{"jitter", []string{"width_ms=NaN"}, "width_ms", CodeNotFinite},
		{"jitter", []string{"base_ms=Inf"}, "base_ms", CodeNotFinite},
		{"jitter", []string{"base_ms=0"}, "base_ms", CodeRange},
		{"jitter", []string{"strategy=Full"}, "strategy", CodeChoice},
		{"jitter", []string{"colour=red"}, "colour", CodeUnknownParam},
		{"deadline", []string{"waits_ms=50"}, "waits_ms", CodeConstraint},
		{"deadline", []string{"waits_ms=50,-1"}, "waits_ms", CodeRange},
		{"deadline", []string{"timeout_ms=0"}, "timeout_ms", CodeRange},
		{"peak", []string{"threshold=101"}, "threshold", CodeConstraint},
		{"peak", []string{"bins=0"}, "bins", CodeRange},
		{"peak", []string{"clients=100001"}, "clients", CodeRange},
	})
}

// TestRegistry runs every calculator at its defaults, parses every declared
// default, and checks what the forms and messages need: help, kinds,
// choices, ranges that contain the default.
func TestRegistry(t *testing.T) {
	reg := New()
	seen := map[string]bool{}
	for _, c := range reg.List() {
		if seen[c.Name] || c.Name == "" || c.Help == "" || c.Run == nil || c.Article < 1 || c.Article > len(Articles()) {
			t.Errorf("calculator %q: duplicate or incomplete", c.Name)
		}
		seen[c.Name] = true
		for _, p := range c.Params {
			if p.Help == "" {
				t.Errorf("%s.%s has no Help", c.Name, p.Name)
			}
			if p.Kind == 0 {
				t.Errorf("%s.%s has no Kind", c.Name, p.Name)
			}
			if p.Kind == Choice && len(p.Choices) == 0 {
				t.Errorf("%s.%s: a choice without choices", c.Name, p.Name)
			}
			if p.Default == "" && !(p.Optional || p.Kind == Text || p.Kind == JSON) {
				t.Errorf("%s.%s has no default", c.Name, p.Name)
			}
			if p.Default != "" {
				if _, _, err := p.parse(c.Name, p.Default); err != nil {
					t.Errorf("%s.%s: default %q does not parse: %v", c.Name, p.Name, p.Default, err)
				}
			}
			if p.SliderMax != 0 && p.Kind.IsNumeric() && !p.inRange(p.SliderMax) {
				t.Errorf("%s.%s: slider max %v out of range", c.Name, p.Name, p.SliderMax)
			}
		}
		res, err := reg.Compute(c.Name, url.Values{})
		if err != nil {
			t.Errorf("%s at defaults: %v", c.Name, err)
			continue
		}
		if _, err := json.Marshal(res); err != nil {
			t.Errorf("%s: result does not encode: %v", c.Name, err)
		}
	}
	if _, err := reg.Compute("nope", nil); err == nil {
		t.Error("unknown calculator accepted")
	} else if e, ok := err.(*Error); !ok || e.Code != CodeUnknownCalc {
		t.Errorf("unknown calculator: %v", err)
	}
}

// TestQueryRoundTrip: the canonical query of parsed Args reproduces the
// same result (the widgets share state through it).
func TestQueryRoundTrip(t *testing.T) {
	for name, pairs := range map[string][]string{
		"amplification": {"attempts=2, 4"},
		"budget":        {"requests=+50", "order=depth"},
		"jitter":        {"seed=-00042", "strategy=decorrelated", "waves=3", "cap_ms=1e3"},
		"deadline":      {"attempts=2", "waits_ms=10.50"},
		"peak":          {"clients=50", "threshold=012"},
	} {
		c, _ := New().Lookup(name)
		a, err := c.ParsePairs(pairs)
		if err != nil {
			t.Fatal(err)
		}
		r1, _ := c.Run(a)
		r2, err := c.Compute(a.Query())
		if err != nil {
			t.Fatalf("%s %v", name, a.Query())
		}
		b1, _ := json.Marshal(r1)
		b2, _ := json.Marshal(r2)
		if string(b1) != string(b2) {
			t.Errorf("%s: %s then %s", name, b1, b2)
		}
	}
}

func ExampleRegistry_Compute() {
	res, err := New().Compute("budget", url.Values{"processes": {"10"}})
	if err != nil {
		panic(err)
	}
	r := res.(BudgetResult)
	fmt.Println(r.TotalAttempts, r.Retries, r.AttemptsHistogram)
	// Output: 300 200 [0 0 100]
}

func ExampleRetries() {
	fmt.Println(Retries().Names())
	fmt.Println(RateLimits().Names())
	_, err := Retries().Compute("limits", nil)
	fmt.Println(err)
	// Output:
	// attempts, amplification, budget, jitter, deadline, peak
	// limits, capacity, concurrency, backoff, idempotency-key, dispatch, errors, timeouts, estimate
	// unknown calculator "limits"; the calculators are attempts, amplification, budget, jitter, deadline, peak
}

func ExampleCalculator_Compute() {
	c, _ := New().Lookup("jitter")
	res, _ := c.Compute(url.Values{"clients": {"100"}, "strategy": {"full"}})
	r := res.(JitterResult)
	fmt.Println(r.Counts, r.Peak)
	// Output: [9 7 9 12 14 14 7 11 6 11] 14
}

func Example_refusal() {
	_, err := New().Compute("jitter", url.Values{"clients": {"1000000"}, "waves": {"30"}})
	fmt.Println(err)
	// Output: clients: clients × waves must be at most 5000000, got 30000000
}

// TestPeakExactForN2000K100: the contract requires the exact value for
// n = 2000, k = 100 at every threshold.
func TestPeakExactForN2000K100(t *testing.T) {
	c, _ := New().Lookup("peak")
	for _, tt := range []int{0, 1, 20, 21, 25, 30, 35, 38, 39, 40, 41, 45, 60, 100, 500, 2000} {
		res, err := c.Compute(url.Values{"clients": {"2000"}, "bins": {"100"}, "threshold": {strconv.Itoa(tt)}})
		if err != nil {
			t.Fatal(err)
		}
		r := res.(PeakResult)
		if r.ExactAnyBin == nil || *r.ExactAnyBin > r.UnionBound || r.MaxAtLeast == nil {
			t.Fatalf("t=%d: %+v", tt, r)
		}
	}
}

// TestArticleRegistries checks that Retries, RateLimits and Policies split New: each
// lists, in New's order, exactly the calculators of its article.
func TestArticleRegistries(t *testing.T) {
	for _, tc := range []struct {
		name    string
		reg     *Registry
		article int
	}{{"Retries", Retries(), 1}, {"RateLimits", RateLimits(), 2}, {"Policies", Policies(), 3}} {
		var want []string
		for _, c := range New().List() {
			if c.Article == tc.article {
				want = append(want, c.Name)
			}
		}
		var got []string
		for _, c := range tc.reg.List() {
			got = append(got, c.Name)
		}
		if strings.Join(got, ",") != strings.Join(want, ",") || len(got) == 0 {
			t.Errorf("%s() lists %v, want the calculators of article %d: %v", tc.name, got, tc.article, want)
		}
	}
}
