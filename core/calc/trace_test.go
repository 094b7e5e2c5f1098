package calc

import (
	"encoding/json"
	"net/url"
	"reflect"
	"testing"

	"retrylab/core/limits"
)

// TestWithTrace: under Args.WithTrace a calculator's result carries what
// the request-flow views draw, and its JSON stays the same; without it,
// nothing is recorded.
func TestWithTrace(t *testing.T) {
	reg := New()
	const n = 50
	for _, tc := range []struct {
		calc   string
		values url.Values
	}{
		{"policies", nil},
		{"policies", url.Values{"policies": {"naive,grpc"}, "loop": {"closed"}}},
		{"dispatch", nil},
		{"dispatch", url.Values{"mode": {"naive"}, "jobs": {"300"}}},
		{"limits", nil},
	} {
		c, _ := reg.Lookup(tc.calc)
		a, err := c.Parse(tc.values)
		if err != nil {
			t.Fatal(err)
		}
		plain, err := c.Run(a)
		if err != nil {
			t.Fatal(err)
		}
		traced, err := c.Run(a.WithTrace(n))
		if err != nil {
			t.Fatal(err)
		}
		pj, _ := json.Marshal(plain)
		tj, _ := json.Marshal(traced)
		if string(pj) != string(tj) {
			t.Errorf("%s %v: the traced run's JSON differs from the plain run's", tc.calc, tc.values)
		}
		switch p := plain.(type) {
		case PoliciesResult:
			r := traced.(PoliciesResult)
			if p.Traces != nil {
				t.Errorf("policies: a plain run recorded %d traces", len(p.Traces))
			}
			if len(r.Traces) != len(r.Results) {
				t.Fatalf("policies %v: %d traces for %d policies", tc.values, len(r.Traces), len(r.Results))
			}
			for i, tr := range r.Traces {
				if len(tr.Marks) == 0 || len(tr.Marks) > n {
					t.Errorf("policies %s: %d marks, want 1 to %d", r.Results[i].Policy, len(tr.Marks), n)
				}
				// the counters end with every request counted: the result's
				if k := len(tr.Counters.Served); k == 0 || tr.Counters.Served[k-1] != r.Results[i].Succeeded {
					t.Errorf("policies %s: counters end with %v served, want %d", r.Results[i].Policy, tr.Counters.Served[max(k-1, 0):], r.Results[i].Succeeded)
				}
			}
		case DispatchResult:
			r := traced.(DispatchResult)
			if p.Flow != nil {
				t.Errorf("dispatch: a plain run recorded a flow")
			}
			if len(r.Flow) != 2 || r.Flow[0].Mode != "naive" || r.Flow[1].Mode != "dispatcher" {
				t.Fatalf("dispatch %v: flow of %d runs, want naive and dispatcher", tc.values, len(r.Flow))
			}
			for _, run := range r.Flow {
				if len(run.Trace.Jobs) == 0 || len(run.Trace.Jobs) > n {
					t.Errorf("dispatch %s: %d jobs traced, want 1 to %d", run.Mode, len(run.Trace.Jobs), n)
				}
				// each mode's run is the calculator's run in that mode
				_, vres, err := c.Vary(a, "mode", run.Mode)
				if err != nil {
					t.Fatal(err)
				}
				v := vres.(DispatchResult)
				if run.Result.Completed != v.Completed || run.Result.Requests != v.Requests || run.Result.MakespanS != v.MakespanS || run.Result.Retries != v.Retries {
					t.Errorf("dispatch %s: the flow's run (%d completed, %d requests, %v s) is not the calculator's (%d, %d, %v s)",
						run.Mode, run.Result.Completed, run.Result.Requests, run.Result.MakespanS, v.Completed, v.Requests, v.MakespanS)
				}
			}
		case LimitsResult:
			r := traced.(LimitsResult)
			if p.Play != nil {
				t.Errorf("limits: a plain run recorded a play")
			}
			if r.Play == nil || len(r.Play.Steps) != int(r.Play.HorizonS) {
				t.Fatalf("limits: play %+v, want one step a second", r.Play)
			}
		}
	}
}

// TestLimitsPlay: the limits trace lasts until a little after the first
// bucket runs dry, within [LimitsMinS, LimitsMaxS], and a workload too
// large to trace records none.
func TestLimitsPlay(t *testing.T) {
	for _, tc := range []struct {
		rpm, tpm, calls, tokens float64
		horizon                 float64
	}{
		{600, 300000, 1000, 200, 120}, // workload A: the request bucket is dry at 90 s
		{600, 300000, 100, 5000, 120}, // workload B: the token bucket is dry at 90 s
		{600, 300000, 500, 200, 60},   // within both limits: the shortest trace
		{600, 300000, 601, 200, 600},  // barely over: the longest trace
		{600, 300000, 1200, 1000, 60}, // the token bucket is dry at 15 s
	} {
		c := limits.Config{RPM: tc.rpm, TPM: tc.tpm}
		if h := limitsHorizon(c, tc.calls, tc.tokens); h != tc.horizon {
			t.Errorf("%+v: horizon %v s, want %v", tc, h, tc.horizon)
		}
	}
	c, _ := New().Lookup("limits")
	a, err := c.Parse(url.Values{"calls_per_min": {"1000000000"}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Run(a.WithTrace(1))
	if err != nil {
		t.Fatal(err)
	}
	if p := res.(LimitsResult).Play; p != nil {
		t.Errorf("calls_per_min=1e9: a play of %d steps, want none (too large to trace)", len(p.Steps))
	}
}

// TestReuseEqualsRun: a calculator's Reuse answers a variant from the
// base's traced result with what running the variant gives (dispatch:
// the other mode's run of its Flow), in every mode and for values that
// change the runs' shape; and it declines what it cannot answer (another
// parameter, a traced variant, an untraced base).
func TestReuseEqualsRun(t *testing.T) {
	reg := New()
	reused := 0
	for _, c := range reg.List() {
		if c.Reuse == nil {
			continue
		}
		for _, q := range append([]string{""}, c.Examples...) {
			for _, p := range c.Params {
				if p.Kind != Choice {
					continue
				}
				for _, from := range p.Choices {
					values, err := url.ParseQuery(q)
					if err != nil {
						t.Fatal(err)
					}
					values.Set(p.Name, from)
					a, err := c.Parse(values)
					if err != nil {
						t.Fatal(err)
					}
					base, err := c.Run(a.WithTrace(20))
					if err != nil {
						t.Fatal(err)
					}
					untraced, err := c.Run(a)
					if err != nil {
						t.Fatal(err)
					}
					for _, to := range p.Choices {
						va, got, err := c.VaryFrom(a.WithTrace(0), base, p.Name, to)
						if err != nil {
							t.Fatal(err)
						}
						want, err := c.Run(va)
						if err != nil {
							t.Fatal(err)
						}
						gj, _ := json.Marshal(got)
						wj, _ := json.Marshal(want)
						if string(gj) != string(wj) || !reflect.DeepEqual(got, want) {
							t.Errorf("%s?%s %s %s→%s: reused result differs from the run's", c.Name, q, p.Name, from, to)
						}
						if _, ok := c.Reuse(base, p.Name, va); ok {
							reused++
						}
						if _, ok := c.Reuse(base, p.Name, va.WithTrace(20)); ok {
							t.Errorf("%s: Reuse answers a traced variant (its result would lack the trace)", c.Name)
						}
						if _, ok := c.Reuse(untraced, p.Name, va); ok {
							t.Errorf("%s: Reuse answers from an untraced base", c.Name)
						}
					}
				}
			}
		}
	}
	if reused == 0 {
		t.Fatal("no variant was answered by Reuse")
	}
}
