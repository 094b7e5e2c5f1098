package contention

import (
	"math"
	"testing"
)

func params(n int) Params {
	return Params{Clients: n, BaseMS: 5, CapMS: 2000, NetMeanMS: 10, NetSDMS: 2}
}

// The shapes of the post's two figures at 100 clients: exponential
// backoff without jitter takes the longest of all strategies, and full
// jitter makes far fewer calls than no backoff.
func TestShapes(t *testing.T) {
	res := map[Strategy]Result{}
	for _, st := range Strategies {
		res[st] = Run(params(100), st, 20, 1)
		t.Logf("%-12s time %8.0f ms calls %7.0f", st, res[st].TimeMS, res[st].Calls)
	}
	for _, st := range Strategies {
		if st != Exponential && res[st].TimeMS >= res[Exponential].TimeMS {
			t.Errorf("%v takes %v ms, not less than exponential's %v", st, res[st].TimeMS, res[Exponential].TimeMS)
		}
	}
	if res[Full].Calls*3 > res[None].Calls {
		t.Errorf("full jitter makes %v calls, not far fewer than no backoff's %v", res[Full].Calls, res[None].Calls)
	}
}

// Every client writes once successfully: at least n calls; with no
// backoff and one success per round, calls grow about as n²/2.
func TestCallsBounds(t *testing.T) {
	for _, n := range []int{1, 10, 50} {
		for _, st := range Strategies {
			r := Run(params(n), st, 3, 7)
			if r.Calls < float64(n) || r.Calls > Work(n, 1)*1.5 {
				t.Errorf("%v at %d clients: %v calls, outside [%d, %v]", st, n, r.Calls, n, Work(n, 1)*1.5)
			}
		}
	}
}

func TestDeterministic(t *testing.T) {
	a, b := Run(params(30), Full, 2, 9), Run(params(30), Full, 2, 9)
	if a != b {
		t.Fatalf("same seed, different results: %v %v", a, b)
	}
}

// BenchmarkDefaults runs what the contention calculator runs at its
// defaults (core/calc/contention.go): every strategy at 100 clients and
// along the curves' 10 client counts, 190 down to 10 by 20, 2 runs each,
// with one Sim.
func BenchmarkDefaults(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		var s Sim
		for _, st := range Strategies {
			s.Run(params(100), st, 2, 20261017)
			for n := 10; n <= 190; n += 20 {
				s.Run(params(n), st, 2, 20261017)
			}
		}
	}
}

// TestTreeSameAsHeap: runs with the tree give the heap's results bit for
// bit, over client counts, strategies, seeds and delays, those where
// every delay is the same (net_sd_ms 0: the tree gives up at once) and
// those of a coarse grid (0.5 ms: ties now and then) included.
func TestTreeSameAsHeap(t *testing.T) {
	var tree, heap, gaveUp int
	for _, n := range []int{1, 2, 3, 5, 8, 33, 100, 257} {
		for _, st := range Strategies {
			for _, net := range [][2]float64{{10, 2}, {10, 0}, {0, 0}, {3, 40}} {
				p := Params{Clients: n, BaseMS: 5, CapMS: 2000, NetMeanMS: net[0], NetSDMS: net[1]}
				for seed := range uint64(3) {
					var a, b Sim
					a.start(p, st, seed)
					b.start(p, st, seed)
					wt, wc := b.runHeap(st)
					gt, gc := a.run(st)
					if gt != wt || gc != wc || a.r != b.r {
						t.Errorf("%+v %v seed %d: tree %v ms %d calls, heap %v ms %d calls (or the draws differ)", p, st, seed, gt, gc, wt, wc)
					}
					a.start(p, st, seed)
					if _, _, ok := a.runTree(st); ok {
						tree++
					} else {
						gaveUp++
					}
					heap++
				}
			}
		}
	}
	t.Logf("%d runs, %d by the tree to the end, %d given up", heap, tree, gaveUp)
}

// TestCeilings: the table of the waits' ceilings gives
// math.Min(cap, math.Ldexp(base, min(n, 1000))) for every n.
func TestCeilings(t *testing.T) {
	for _, bc := range [][2]float64{{5, 2000}, {5, 5}, {3, 1e7}, {1e5, 10}, {5e-324, 1e7}, {1e-300, 1e300}, {0, 2000}, {7, 0}} {
		var s Sim
		s.start(Params{Clients: 1, BaseMS: bc[0], CapMS: bc[1]}, Exponential, 1)
		for n := range 1100 {
			s.attempt = []int{n}
			want := math.Min(bc[1], math.Ldexp(bc[0], min(n, 1000)))
			if got := s.backoff(Exponential, 0); got != want {
				t.Fatalf("base %v cap %v n %d: %v, want %v", bc[0], bc[1], n, got, want)
			}
		}
	}
}

// TestSimReusesMemory: a Sim's runs after the first, at no more clients,
// allocate nothing (in WebAssembly the collector is dear).
func TestSimReusesMemory(t *testing.T) {
	var s Sim
	s.Run(params(190), Full, 1, 1)
	if n := testing.AllocsPerRun(5, func() { s.Run(params(100), Decorrelated, 2, 3) }); n > 2 {
		t.Errorf("%v allocations a Run, want none", n)
	}
}
