package strategies

import (
	"math"
	"math/rand/v2"
	"testing"
)

func params(clients int, f float64) Params {
	return Params{Requests: 10000, Clients: clients, Retries: 3, Deposit: 0.1, BucketCap: 10,
		Window: 10, Threshold: 0.1, FailureRate: f}
}

func run(p Params, st Strategy) Result { return Run(p, st, rand.New(rand.NewPCG(1, 2))) }

// The post's shapes at full failure: N retries multiply the load by N+1;
// the token bucket keeps it near 1 with few large clients and not with
// many small ones.
func TestShapesAtFullFailure(t *testing.T) {
	if got := run(params(10, 1), Retries).Load; got != 4 {
		t.Errorf("3 retries at full failure: load %v, want 4", got)
	}
	if got := run(params(10, 1), NoRetries).Load; got != 1 {
		t.Errorf("no retries: load %v, want 1", got)
	}
	few := run(params(10, 1), Adaptive).Load
	many := run(params(5000, 1), Adaptive).Load
	if few > 1.05 {
		t.Errorf("token bucket, 10 clients: load %v, want near 1", few)
	}
	if many < 3 {
		t.Errorf("token bucket, 5000 clients: load %v, want near 4", many)
	}
}

// With no failures every strategy makes one call per request and every
// request succeeds; at a low failure rate the bucket behaves like N
// retries.
func TestLowFailure(t *testing.T) {
	for _, st := range All {
		if r := run(params(10, 0), st); r.Load != 1 || r.SuccessRate != 1 {
			t.Errorf("%v at 0 failures: %+v", st, r)
		}
	}
	a, n := run(params(10, 0.02), Adaptive), run(params(10, 0.02), Retries)
	if math.Abs(a.Load-n.Load) > 0.005 || math.Abs(a.SuccessRate-n.SuccessRate) > 0.001 {
		t.Errorf("at 2%% failures the bucket (%+v) should act as 3 retries (%+v)", a, n)
	}
	// no retries: success rate is 1-f
	if r := run(params(10, 0.3), NoRetries); math.Abs(r.SuccessRate-0.7) > 0.02 {
		t.Errorf("no retries at 30%%: success %v", r.SuccessRate)
	}
}

// A breaker whose client has little history stops retrying after its
// first failure: many small clients make it act as no retries.
func TestBreakerManySmallClients(t *testing.T) {
	r := run(params(10000, 0.5), Breaker)
	if r.Load != 1 {
		t.Errorf("breaker with one request per client: load %v, want 1", r.Load)
	}
}

// benchmarkCalc runs what the retry-strategies calculator runs
// (core/calc/strategies.go) at its defaults but clients: every strategy
// at failure rate 0.5 and at the curves' 21 failure rates, 0 to 1 by
// 0.05, each run from the same seed.
func benchmarkCalc(b *testing.B, clients int) {
	b.ReportAllocs()
	for b.Loop() {
		for k := -1; k <= 20; k++ {
			p := params(clients, 0.5)
			if k >= 0 {
				p.FailureRate = float64(k) / 20
			}
			for _, st := range All {
				Run(p, st, rand.New(rand.NewPCG(20261017, 0x7374726174)))
			}
		}
	}
}

// BenchmarkDefaults: the calculator at its defaults, 10 clients.
func BenchmarkDefaults(b *testing.B) { benchmarkCalc(b, 10) }

// BenchmarkManyClients: the article's comparison, 5000 clients.
func BenchmarkManyClients(b *testing.B) { benchmarkCalc(b, 5000) }
