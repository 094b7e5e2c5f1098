package calc

import (
	"encoding/json"
	"errors"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"retrylab/core/policies"
)

// The article's story at the calculator's defaults: naive retries never
// recover within the horizon, no retries and every budget do, naive
// retries at least double the load.
func TestPoliciesDefaults(t *testing.T) {
	r := mustCompute(t, "policies").(PoliciesResult)
	if len(r.Results) != len(policies.Shown()) || len(r.Policy) != len(r.Results) || len(r.TS) != 60 {
		t.Fatalf("%d results, %d names, %d bins", len(r.Results), len(r.Policy), len(r.TS))
	}
	if r.Utilization != 0.7 {
		t.Errorf("utilization %v, want 0.7", r.Utilization)
	}
	for i, run := range r.Results {
		p := policies.Policy(run.Policy)
		want := p != policies.Naive && p != policies.Backoff
		if run.Recovered != want || (run.RecoveryS == nil) == want || (run.Status == "recovered") != want {
			t.Errorf("%s: recovered %v (%v s), want %v", p, run.Recovered, run.RecoveryS, want)
		}
		if r.Policy[i] != run.Policy || r.Recovered[i] != run.Recovered || r.Amplification[i] != run.Amplification ||
			r.Goodput[i] != run.Goodput || r.WastedWork[i] != run.WastedWork || !reflect.DeepEqual(r.RecoveryS[i], run.RecoveryS) {
			t.Errorf("%s: the lists and the result object disagree", p)
		}
		if pre, _ := policies.Find(p); pre.Project == "" || pre.Version == "" || pre.Config == "" || run.Project != pre.Project || run.Config != pre.Config {
			t.Errorf("%s: project %q version %q config %q", p, run.Project, run.Version, run.Config)
		}
		if p.Budgeted() && run.Amplification > 1.25 {
			t.Errorf("%s: amplification %v, a budget keeps it near 1", p, run.Amplification)
		}
		if len(run.OfferedPerS) != len(r.TS) || len(run.Queue) != len(r.TS) {
			t.Errorf("%s: series of %d and %d bins", p, len(run.OfferedPerS), len(run.Queue))
		}
	}
	if a := r.Amplification[1]; r.Policy[1] != "naive" || a < 2 {
		t.Errorf("naive amplification %v, want >= 2", a)
	}
	// null, not 0, for a policy that never recovers
	b, _ := json.Marshal(r.Results[1])
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil || m["recovery_s"] != nil {
		t.Errorf("naive recovery_s = %v, want null", m["recovery_s"])
	}
}

// A subset of policies, in the caller's order, on the same arrivals.
func TestPoliciesSubset(t *testing.T) {
	r := mustCompute(t, "policies", "policies=aws, none", "loop=closed").(PoliciesResult)
	if !reflect.DeepEqual(r.Policy, []string{"aws", "none"}) {
		t.Fatalf("policies %v", r.Policy)
	}
	full := mustCompute(t, "policies", "loop=closed").(PoliciesResult)
	if !reflect.DeepEqual(r.Results[1], full.Results[0]) {
		t.Error("none differs when run with other policies")
	}
}

func TestPoliciesRefusals(t *testing.T) {
	for _, tc := range []struct {
		args      []string
		param     string
		code      Code
		detailKey string
	}{
		{[]string{"policies=none,forever"}, "policies", CodeConstraint, "detail.policies.unknown"},
		{[]string{"policies=aws,aws"}, "policies", CodeConstraint, "detail.policies.repeated"},
		{[]string{"policies="}, "policies", CodeConstraint, "detail.policies.unknown"},
		{[]string{"rate_per_s=10001", "horizon_s=60"}, "rate_per_s", CodeWork, "detail.policies.requests"},
		{[]string{"loop=closed", "clients=100000", "think_ms=1"}, "clients", CodeWork, "detail.policies.requests"},
		{[]string{"trigger_start_s=299"}, "trigger_s", CodeConstraint, "detail.policies.trigger_s"},
		{[]string{"policies=" + strings.Join(allPolicies(), ","), "rate_per_s=1000", "horizon_s=600"}, "rate_per_s", CodeWork, "detail.policies.requests"},
		{[]string{"trigger_start_s=1"}, "trigger_start_s", CodeConstraint, "detail.policies.trigger_start_s"},
		{[]string{"bin_s=0.01"}, "bin_s", CodeConstraint, "detail.policies.bin_s"},
		{[]string{"loop=half"}, "loop", CodeChoice, ""},
		{[]string{"attempts=11"}, "attempts", CodeRange, ""},
	} {
		_, err := compute(t, "policies", tc.args...)
		e, ok := errors.AsType[*Error](err)
		if !ok || e.Param != tc.param || e.Code != tc.code || (tc.detailKey != "" && e.Vars["detail_key"] != tc.detailKey) {
			t.Errorf("%v: %v, want %s %s %s", tc.args, err, tc.param, tc.code, tc.detailKey)
		}
	}
}

// The largest run the bound admits answers (a 10-minute outage at 1,000
// requests per second, every policy): the contract's work bound.
func TestPoliciesLargest(t *testing.T) {
	if testing.Short() {
		t.Skip("a second of work")
	}
	r := mustCompute(t, "policies", "rate_per_s=1000", "slots=143", "queue_cap=7000", "horizon_s=600",
		"trigger_start_s=60", "trigger_s=30").(PoliciesResult)
	if r.Recovered[1] || !r.Recovered[0] {
		t.Errorf("600,000 requests: recovered %v", r.Recovered)
	}
}

// TestPoliciesParam: every field of core/policies' Scenario has its
// parameter.
func TestPoliciesParam(t *testing.T) {
	c, _ := New().Lookup("policies")
	typ := reflect.TypeFor[policies.Scenario]()
	for i := range typ.NumField() {
		field := typ.Field(i).Name
		if name := policiesParam(field); name == "" || c.Param(name) == nil {
			t.Errorf("policiesParam(%q) = %q, not a parameter of policies", field, name)
		}
	}
	if policiesParam("Nope") != "" {
		t.Error("an unknown field has a parameter")
	}
}

// The result's URL state reproduces it.
func TestPoliciesQuery(t *testing.T) {
	c, _ := New().Lookup("policies")
	a, err := c.ParsePairs([]string{"loop=closed", "policies=none,naive", "trigger=capacity"})
	if err != nil {
		t.Fatal(err)
	}
	r1, _ := c.Run(a)
	r2, err := c.Compute(url.Values(a.Query()))
	if err != nil || !reflect.DeepEqual(r1, r2) {
		t.Errorf("the query %v does not reproduce the result: %v", a.Query(), err)
	}
}

func allPolicies() []string {
	var out []string
	for _, p := range policies.All() {
		out = append(out, string(p))
	}
	return out
}

// The presets: every one names its project, version and configuration;
// Envoy without a retry policy and Finagle's default stack (on timeouts)
// are none; AWS's 2026 standard mode charges 14 per transient retry.
func TestPoliciesPresets(t *testing.T) {
	r := mustCompute(t, "policies", "policies=none,envoy-route,finagle-default,aws-2025,aws,aws-adaptive").(PoliciesResult)
	for i := 1; i <= 2; i++ {
		a, b := r.Results[0], r.Results[i]
		if a.Attempts != b.Attempts || a.Succeeded != b.Succeeded || !reflect.DeepEqual(a.GoodputPerS, b.GoodputPerS) {
			t.Errorf("%s differs from none: %d/%d attempts, %d/%d succeeded", b.Policy, b.Attempts, a.Attempts, b.Succeeded, a.Succeeded)
		}
	}
	aws, _ := policies.Find(policies.AWS)
	old, _ := policies.Find(policies.AWS2025)
	if aws.AWS.RetryCost != 14 || aws.AWS.TimeoutCost != 14 || old.AWS.RetryCost != 5 || old.AWS.TimeoutCost != 10 {
		t.Errorf("AWS costs: 2026 %+v, before %+v", *aws.AWS, *old.AWS)
	}
	// adaptive mode's limiter waits for a throttling error: standard here
	if a, b := r.Results[4], r.Results[5]; a.Attempts != b.Attempts || a.Succeeded != b.Succeeded {
		t.Errorf("aws-adaptive differs from aws: %d/%d attempts", b.Attempts, a.Attempts)
	}
	c, _ := New().Lookup("policies")
	notes := strings.Join(c.Notes, "\n")
	for _, p := range policies.Presets() {
		if !strings.Contains(notes, string(p.Name)+": "+p.Project+", "+p.Version+"; "+p.Config) {
			t.Errorf("-h does not list %s", p.Name)
		}
	}
}
