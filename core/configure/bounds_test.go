package configure

import (
	"math"
	"testing"
)

// boundTraffics are the traffics the bounds are checked on: the defaults,
// slow and fast failures, few and many requests per client, long outages,
// a failure rate above and below what the budgets absorb.
func boundTraffics() map[string]Traffic {
	mk := func(f func(*Traffic)) Traffic {
		t := Default()
		f(&t)
		return t
	}
	return map[string]Traffic{
		"default":      Default(),
		"low-rate":     mk(func(t *Traffic) { t.RPS, t.Clients, t.OutageS, t.FailureRate = 50, 5, 30, 0.3 }),
		"fast-fail":    mk(func(t *Traffic) { t.TimeoutMS, t.LatencyMS = 20, 10 }),
		"long-outage":  mk(func(t *Traffic) { t.RPS, t.Clients, t.OutageS, t.Attempts = 200, 2, 300, 5 }),
		"generous":     mk(func(t *Traffic) { t.MaxAmp, t.FailureRate, t.Attempts = 2, 0.5, 4 }),
		"tight":        mk(func(t *Traffic) { t.MaxAmp, t.FailureRate = 1.01, 0.005 }),
		"slow-success": mk(func(t *Traffic) { t.LatencyMS, t.TimeoutMS, t.Attempts = 900, 1000, 10 }),
		"one-attempt":  mk(func(t *Traffic) { t.Attempts = 1 }),
	}
}

// TestOutageBoundHolds runs every system at 100 % failure on several
// traffics and seeds: the simulated amplification never exceeds the
// closed-form outage bound, and reaches it where the bound is exact.
func TestOutageBoundHolds(t *testing.T) {
	for name, tr := range boundTraffics() {
		d := derive(tr)
		for _, s := range Systems() {
			p, mk := choose(tr, d, s)
			for seed := uint64(1); seed <= 2; seed++ {
				run := simulate(tr, mk(), warmup(s, d.PerClientRPS, d.OKS), 1, seed)
				got := run.Amplification()
				if got > p.OutageBound+1e-9 {
					t.Errorf("%s/%s seed %d: simulated %v > outage bound %v (%s)", name, s, seed, got, p.OutageBound, p.Formula)
				}
				if p.Exact && math.Abs(got-p.OutageBound) > 1e-9 {
					t.Errorf("%s/%s: bound %v marked exact, simulated %v", name, s, p.OutageBound, got)
				}
				if run.Requests != int(d.Requests) {
					t.Errorf("%s/%s: %d requests counted, N = %v", name, s, run.Requests, d.Requests)
				}
			}
		}
	}
}

// TestPathwiseBudgets checks, on runs at the traffic's failure rate and
// at several others, the inequalities the rate bounds come from, which
// hold on every run (not only on average).
func TestPathwiseBudgets(t *testing.T) {
	for name, tr := range boundTraffics() {
		for _, f := range []float64{tr.FailureRate, 0.2, 0.9} {
			tr.FailureRate = f
			d := derive(tr)
			warm := math.Floor(d.PerClientRPS*d.OKS) + 1 // warm-up attempts that may end after 0
			for _, s := range Systems() {
				p, mk := choose(tr, d, s)
				g := mk()
				run := simulate(tr, g, warmup(s, d.PerClientRPS, d.OKS), f, 7)
				if run.Retries > run.Unthrottled {
					t.Errorf("%s/%s f=%v: %d retries > %d asked for", name, s, f, run.Retries, run.Unthrottled)
				}
				inner := g
				if c, ok := g.(*gateCap); ok {
					inner = c.g
				}
				switch gg := inner.(type) {
				case *grpcGate:
					// grants <= M/2 + r·(successes after 0)
					if lim := gg.max/2 + gg.ratio*(float64(run.Succeeded)+warm); float64(run.Retries) > lim+1e-9 {
						t.Errorf("%s/grpc f=%v: %d retries > M/2 + r·S = %v", name, f, run.Retries, lim)
					}
				case *awsGate:
					// failed retries cost c each, paid from Q + first-attempt successes
					if lim := gg.capacity + float64(run.FirstOK) + warm; float64(run.FailedRetry)*gg.cost > lim+1e-9 {
						t.Errorf("%s/aws f=%v: %d failed retries × %v > Q + S1 = %v", name, f, run.FailedRetry, gg.cost, lim)
					}
				case *finagleGate, *envoyGate:
					if lim := p.RateBound; run.Amplification() > lim+1e-9 && p.RateBound < 1+retryShare(f, tr.Attempts)-1e-12 {
						t.Errorf("%s/%s f=%v: simulated %v > budget bound %v", name, s, f, run.Amplification(), lim)
					}
				}
			}
		}
	}
}

// TestRateBoundLongRun: over a long run at the failure rate, the
// simulated amplification stays within the rate bound, up to the noise of
// the expected retries g(f) (four standard deviations of the mean).
func TestRateBoundLongRun(t *testing.T) {
	for name, tr := range boundTraffics() {
		tr.OutageS = math.Min(600, float64(MaxSimRequests)/(tr.RPS/float64(tr.Clients))-WarmupS)
		d := derive(tr)
		for _, s := range Systems() {
			p, mk := choose(tr, d, s)
			got := simulate(tr, mk(), warmup(s, d.PerClientRPS, d.OKS), tr.FailureRate, 11).Amplification()
			noise := 4 * float64(tr.Attempts) / math.Sqrt(d.Requests)
			if got > p.RateBound+noise {
				t.Errorf("%s/%s: simulated %v > rate bound %v + %v", name, s, got, p.RateBound, noise)
			}
		}
	}
}

// TestMeets: at the defaults every budgeted system meets the accepted
// amplification, and tenacity, which has no budget, does not.
func TestMeets(t *testing.T) {
	r, err := Compute(Default(), 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range r.Plans {
		want := p.System != Tenacity
		if p.Meets != want {
			t.Errorf("%s: meets %v, want %v (outage %v, rate %v)", p.System, p.Meets, want, p.OutageBound, p.RateBound)
		}
	}
}

func TestRetryShare(t *testing.T) {
	for _, c := range []struct {
		f    float64
		n    int
		want float64
	}{{0.5, 1, 0}, {0.5, 3, 0.75}, {0.1, 4, 0.111}, {1, 5, 4}} {
		if got := retryShare(c.f, c.n); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("g_%d(%v) = %v, want %v", c.n, c.f, got, c.want)
		}
	}
}

func TestValidate(t *testing.T) {
	for _, c := range []struct {
		field string
		set   func(*Traffic)
	}{
		{"RPS", func(t *Traffic) { t.RPS = 0 }},
		{"RPS", func(t *Traffic) { t.RPS, t.Clients = 1e6, 1 }},
		{"Clients", func(t *Traffic) { t.Clients = 0 }},
		{"FailureRate", func(t *Traffic) { t.FailureRate = 1 }},
		{"MaxAmp", func(t *Traffic) { t.MaxAmp = 0.9 }},
		{"Attempts", func(t *Traffic) { t.Attempts = 11 }},
	} {
		tr := Default()
		c.set(&tr)
		err := tr.Validate()
		fe, ok := err.(*FieldError)
		if !ok || fe.Field != c.field {
			t.Errorf("%+v: error %v, want a FieldError on %s", tr, err, c.field)
		}
	}
}
