package calc

import (
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"testing"

	"retrylab/core/policies"
)

// TestMemoSameResult runs the policies calculator through a sequence of
// edits with one Memo, with and without a trace: every result equals the
// one computed whole without a Memo, and only the runs that changed are
// computed (the parts the Memo gains).
func TestMemoSameResult(t *testing.T) {
	c, _ := New().Lookup("policies")
	// a short outage, so that the test runs a few dozen simulations quickly
	base := "horizon_s=40&trigger_start_s=10&trigger_s=4&bin_s=1&rate_per_s=140"
	// naive and backoff read the attempts; grpc and envoy have their own
	steps := []struct {
		query string
		runs  int // the policies' runs computed (not in the Memo)
	}{
		{"policies=none,naive,grpc", 3},
		{"policies=naive,grpc,envoy", 1},            // envoy turned on
		{"policies=naive,grpc,envoy&attempts=4", 1}, // naive reads the attempts
		{"policies=grpc,naive&attempts=3", 0},       // the order changed, nothing else
		{"policies=backoff,envoy&attempts=4", 1},    // backoff is new
		{"policies=backoff,envoy&attempts=4&seed=5", 2},
		{"policies=none,naive,grpc&trigger_factor=4", 3},
		{"policies=none,naive,grpc&loop=closed", 3},
		{"policies=none,naive,grpc&loop=closed&clients=100", 3},
		{"policies=none,naive,grpc", 0}, // the first again
	}
	for _, trace := range []int{0, 200} {
		memo := new(Memo)
		for _, s := range steps {
			a, err := c.Parse(mustQuery(t, base+"&"+s.query))
			if err != nil {
				t.Fatalf("%s: %v", s.query, err)
			}
			a = a.WithTrace(trace)
			want, err := c.Run(a)
			if err != nil {
				t.Fatalf("%s: %v", s.query, err)
			}
			before := len(memo.order)
			got, err := c.Run(a.WithMemo(memo))
			if err != nil {
				t.Fatalf("%s, with the memo: %v", s.query, err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("trace %d, %s: the result with the memo differs from the one computed whole", trace, s.query)
			}
			if n := len(memo.order) - before; n != s.runs {
				t.Errorf("trace %d, %s: %d runs computed, want %d", trace, s.query, n, s.runs)
			}
		}
	}
}

// TestMemoVary: a widget's comparison (Vary) takes the memo of its page
// run, and the variant's policies that its parameter does not change
// come from it.
func TestMemoVary(t *testing.T) {
	c, _ := New().Lookup("policies")
	a, err := c.Parse(mustQuery(t, "horizon_s=40&trigger_start_s=10&trigger_s=4&bin_s=1&policies=none,naive,grpc"))
	if err != nil {
		t.Fatal(err)
	}
	memo := new(Memo)
	a = a.WithMemo(memo)
	if _, err := c.Run(a); err != nil {
		t.Fatal(err)
	}
	before := len(memo.order)
	_, got, err := c.Vary(a, "attempts", "5")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(memo.order) - before; n != 1 {
		t.Errorf("the variant computed %d runs, want 1 (naive)", n)
	}
	va, _, _ := c.Vary(a, "attempts", "5")
	want, _ := c.Run(va.WithMemo(nil))
	if !reflect.DeepEqual(got, want) {
		t.Error("the variant with the memo differs from the one computed whole")
	}
}

// TestPolicyKeyFields: every field of the Scenario is in the key of a
// policy's run (a field added to the Scenario and left out of policyKey
// would give two different runs one key), and the attempts only for the
// policies that read them.
func TestPolicyKeyFields(t *testing.T) {
	s := policies.Default()
	key := policyKey(s, policies.Naive, 1, 0)
	v := reflect.ValueOf(&s).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		old := reflect.ValueOf(f.Interface())
		switch f.Kind() {
		case reflect.Int:
			f.SetInt(f.Int() + 1)
		case reflect.Float64:
			f.SetFloat(f.Float() + 0.5)
		case reflect.String:
			f.SetString(f.String() + "x")
		default:
			t.Fatalf("Scenario.%s is a %s: teach policyKey and this test", v.Type().Field(i).Name, f.Kind())
		}
		if policyKey(s, policies.Naive, 1, 0) == key {
			t.Errorf("Scenario.%s is not in policyKey", v.Type().Field(i).Name)
		}
		f.Set(old)
	}
	for _, k := range []string{policyKey(s, policies.Naive, 2, 0), policyKey(s, policies.Naive, 1, 10), policyKey(s, policies.Backoff, 1, 0)} {
		if k == key {
			t.Errorf("the seed, the trace or the policy is not in the key %q", k)
		}
	}
	grpc := policyKey(s, policies.GRPC, 1, 0)
	s.Attempts++
	if policyKey(s, policies.GRPC, 1, 0) != grpc {
		t.Error("the key of grpc, which has its own attempts, changed with the scenario's")
	}
}

// TestMemoBound: a Memo keeps at most MemoParts parts, dropping the
// oldest; a nil Memo keeps nothing.
func TestMemoBound(t *testing.T) {
	m := new(Memo)
	for i := range MemoParts + 5 {
		m.put(strconv.Itoa(i), memoPart{})
	}
	if len(m.parts) != MemoParts || len(m.order) != MemoParts {
		t.Fatalf("%d parts, %d keys, want %d", len(m.parts), len(m.order), MemoParts)
	}
	if _, ok := m.get("4"); ok {
		t.Error("the oldest part is kept")
	}
	if _, ok := m.get(strconv.Itoa(MemoParts + 4)); !ok {
		t.Error("the newest part is not kept")
	}
	again := strconv.Itoa(MemoParts + 4) // kept: put again, no second key
	m.put(again, memoPart{})
	if n := slices.Index(m.order, again); len(m.order) != MemoParts || n < 0 || slices.Contains(m.order[n+1:], again) {
		t.Errorf("a part put again is listed twice, or another dropped for it")
	}
	var none *Memo
	none.put("x", memoPart{})
	if _, ok := none.get("x"); ok {
		t.Error("a nil Memo kept a part")
	}
}

func mustQuery(t *testing.T, q string) map[string][]string {
	t.Helper()
	v, err := url.ParseQuery(q)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
