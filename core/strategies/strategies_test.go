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
// 0.05, each run from the same seeds (one Runner).
func benchmarkCalc(b *testing.B, clients int) {
	b.ReportAllocs()
	for b.Loop() {
		r := NewRunner(20261017, 0x7374726174)
		for k := -1; k <= 20; k++ {
			p := params(clients, 0.5)
			if k >= 0 {
				p.FailureRate = float64(k) / 20
			}
			for _, st := range All {
				r.Run(p, st)
			}
		}
	}
}

// BenchmarkDefaults: the calculator at its defaults, 10 clients.
func BenchmarkDefaults(b *testing.B) { benchmarkCalc(b, 10) }

// BenchmarkManyClients: the article's comparison, 5000 clients.
func BenchmarkManyClients(b *testing.B) { benchmarkCalc(b, 5000) }

// reference is Run as first written, one loop for every strategy: Run and
// Runner must give its results exactly.
func reference(p Params, st Strategy, r *rand.Rand) Result {
	if p.Requests <= 0 {
		return Result{}
	}
	window := make([]bool, max(p.Window, 1))
	calls, ok := 0, 0
	per, extra := p.Requests/p.Clients, p.Requests%p.Clients
	for c := range p.Clients {
		n := per
		if c < extra {
			n++
		}
		tokens := p.BucketCap
		filled, pos, fails := 0, 0, 0 // the breaker's ring of recent outcomes
		for range n {
			for attempt := 0; ; attempt++ {
				calls++
				failed := r.Float64() < p.FailureRate
				if filled == len(window) {
					if window[pos] {
						fails--
					}
				} else {
					filled++
				}
				window[pos] = failed
				if failed {
					fails++
				}
				if pos++; pos == len(window) {
					pos = 0
				}
				if !failed {
					ok++
					tokens = min(p.BucketCap, tokens+p.Deposit)
					break
				}
				if attempt >= p.Retries {
					break
				}
				allowed := false
				switch st {
				case Retries:
					allowed = true
				case Adaptive:
					if tokens >= 1 {
						tokens--
						allowed = true
					}
				case Breaker:
					allowed = float64(fails) < p.Threshold*float64(filled)
				}
				if !allowed {
					break
				}
			}
		}
	}
	return Result{SuccessRate: float64(ok) / float64(p.Requests), Load: float64(calls) / float64(p.Requests)}
}

// TestSameAsReference: Run and a Runner's runs, every strategy over
// varied parameters, give reference's results bit for bit, and Run leaves
// its source where reference does. The small maxKept of one Runner makes
// its runs go past the kept draws.
func TestSameAsReference(t *testing.T) {
	var cases []Params
	for _, clients := range []int{1, 3, 10, 5000} {
		for _, f := range []float64{0, 0.05, 0.5, 0.93, 1} {
			for _, retries := range []int{0, 1, 3, 7} {
				p := params(clients, f)
				p.Requests, p.Retries = 3001, retries
				cases = append(cases, p)
			}
		}
	}
	odd := params(7, 0.6)
	odd.Deposit, odd.BucketCap, odd.Window, odd.Threshold = 0.37, 2.5, 1, 0.5
	cases = append(cases, odd)
	odd.Deposit, odd.BucketCap, odd.Window, odd.Threshold = 0, 0, 33, 0
	cases = append(cases, odd)
	odd.Threshold = 1
	cases = append(cases, odd)
	// zeros of either sign and NaN where the bucket's min sees them
	for _, bd := range [][2]float64{{math.Copysign(0, -1), 0}, {0, math.Copysign(0, -1)}, {math.Copysign(0, -1), math.Copysign(0, -1)},
		{math.NaN(), 0.1}, {10, math.NaN()}, {math.Inf(1), 0.1}, {1, math.Inf(-1)}, {1.5, 0.5}} {
		odd.BucketCap, odd.Deposit = bd[0], bd[1]
		cases = append(cases, odd)
	}
	small := NewRunner(5, 6)
	small.maxKept = 1000
	runners := []*Runner{NewRunner(5, 6), small}
	for _, p := range cases {
		for _, st := range All {
			want, wr := reference(p, st, rand.New(rand.NewPCG(5, 6))), rand.New(rand.NewPCG(5, 6))
			reference(p, st, wr)
			gr := rand.New(rand.NewPCG(5, 6))
			if got := Run(p, st, gr); got != want || gr.Uint64() != wr.Uint64() {
				t.Errorf("Run(%+v, %v) = %+v, want %+v (or the source moved differently)", p, st, got, want)
			}
			for i, r := range runners {
				if got := r.Run(p, st); got != want {
					t.Errorf("Runner %d: Run(%+v, %v) = %+v, want %+v", i, p, st, got, want)
				}
			}
		}
	}
}

// TestRunnerReusesMemory: a Runner's runs after the first allocate
// nothing (in WebAssembly the collector is dear).
func TestRunnerReusesMemory(t *testing.T) {
	r := NewRunner(1, 2)
	r.Run(params(5000, 1), Breaker)
	for _, st := range All {
		if n := testing.AllocsPerRun(5, func() { r.Run(params(10, 0.5), st) }); n > 2 {
			t.Errorf("%v: %v allocations a Run, want none", st, n)
		}
	}
}
