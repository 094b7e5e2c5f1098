package metastable

import (
	"math/rand/v2"
	"testing"

	"retrylab/core/standin/pcgrand"
)

// defaults are the metastable calculator's defaults (core/calc/metastable.go).
var defaults = Params{Lambda: 8.5, Mu: 10, Queue: 40, Orbit: 20, TimeoutS: 2.5, Retries: 3, WaitS: 5}

// BenchmarkStationary solves the stationary distribution at the defaults
// with one Solver, as the calculator's sweep does.
func BenchmarkStationary(b *testing.B) {
	var s Solver
	b.ReportAllocs()
	for b.Loop() {
		s.Stationary(defaults)
	}
}

// BenchmarkDrainTime solves the drain time from a full queue at the
// defaults with one Solver.
func BenchmarkDrainTime(b *testing.B) {
	var s Solver
	b.ReportAllocs()
	for b.Loop() {
		s.DrainTime(defaults, defaults.Queue, 0)
	}
}

// BenchmarkSimDrain simulates 30 drains sharing 300,000 events at the
// defaults, as the calculator does (pcgrand's draws).
func BenchmarkSimDrain(b *testing.B) {
	var s Solver
	b.ReportAllocs()
	for b.Loop() {
		r := pcgrand.New(20261017, 0x6d657461)
		s.SimDrain(defaults, defaults.Queue, 0, 30, 300_000, &r)
	}
}

// BenchmarkSimDrainRand is BenchmarkSimDrain with the oracle's draws
// (simDrainRand: rand.Rand over rand.PCG, the same stream), for the
// cost of its interface call per draw.
func BenchmarkSimDrainRand(b *testing.B) {
	var s Solver
	b.ReportAllocs()
	for b.Loop() {
		s.simDrainRand(defaults, defaults.Queue, 0, 30, 300_000, rand.New(rand.NewPCG(20261017, 0x6d657461)))
	}
}

// A Solver that has solved a chain solves it again, and a smaller one,
// without allocating, and gives the same bits as a new Solver.
func TestSolverReuse(t *testing.T) {
	var s Solver
	small := Params{Lambda: 3, Mu: 2, Queue: 5, Orbit: 7, TimeoutS: 1, Retries: 1.5, WaitS: 0.5}
	s.Stationary(defaults)
	s.DrainTime(defaults, defaults.Queue, 0)
	r := pcgrand.New(1, 2)
	s.SimDrain(defaults, defaults.Queue, 0, 1, 10, &r)
	allocs := testing.AllocsPerRun(5, func() {
		for _, p := range []Params{defaults, small} {
			s.Stationary(p)
			s.DrainTime(p, p.Queue, 0)
			s.SimDrain(p, p.Queue, 0, 1, 10, &r)
		}
	})
	if allocs > 0 {
		t.Errorf("%v allocations per solve of a chain solved before", allocs)
	}
	want := Stationary(small)
	for i, v := range s.Stationary(small) {
		if v != want[i] {
			t.Errorf("π[%d] = %v after a larger solve, %v with a new Solver", i, v, want[i])
		}
	}
	if got, want := s.DrainTime(small, 3, 2), DrainTime(small, 3, 2); got != want {
		t.Errorf("drain time %v after a larger solve, %v with a new Solver", got, want)
	}
}
