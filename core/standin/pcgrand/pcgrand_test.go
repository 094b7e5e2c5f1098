package pcgrand

import (
	"math/rand/v2"
	"testing"
)

// TestSameAsRand: PCG's draws are math/rand/v2's from the same seeds,
// NormFloat64's rarer paths (the base strip and the wedges) included, in
// any mix of the two kinds.
func TestSameAsRand(t *testing.T) {
	for _, seed := range []uint64{0, 1, 20261017, 1 << 53} {
		r := rand.New(rand.NewPCG(seed, 7<<32|190))
		p := New(seed, 7<<32|190)
		for i := range 2_000_000 {
			if i%5 == 3 {
				if a, b := r.Float64(), p.Float64(); a != b {
					t.Fatalf("seed %d, draw %d: Float64 %v, pcg %v", seed, i, a, b)
				}
			} else if a, b := r.NormFloat64(), p.NormFloat64(); a != b {
				t.Fatalf("seed %d, draw %d: NormFloat64 %v, pcg %v", seed, i, a, b)
			}
		}
	}
}

// BenchmarkNormFloat64: the stand-in beside the original it replaces
// (rand.New over rand.NewPCG), one normal draw per op (make bench:
// core/bench/recompute.sh).
func BenchmarkNormFloat64(b *testing.B) {
	b.Run("pcgrand", func(b *testing.B) {
		p, s := New(1, 2), 0.0
		for b.Loop() {
			s += p.NormFloat64()
		}
		sink = s
	})
	b.Run("math-rand-v2", func(b *testing.B) {
		r, s := rand.New(rand.NewPCG(1, 2)), 0.0
		for b.Loop() {
			s += r.NormFloat64()
		}
		sink = s
	})
}

var sink float64

// TestExpSameAsRand: ExpFloat64's draws are math/rand/v2's from the same
// seeds, its rarer paths (the base strip and the wedges) included, mixed
// with Float64 as core/metastable's simulation draws them.
func TestExpSameAsRand(t *testing.T) {
	for _, seed := range []uint64{0, 1, 20261017, 1 << 53} {
		r := rand.New(rand.NewPCG(seed, 0x6d657461))
		p := New(seed, 0x6d657461)
		for i := range 2_000_000 {
			if i%3 == 1 {
				if a, b := r.Float64(), p.Float64(); a != b {
					t.Fatalf("seed %d, draw %d: Float64 %v, pcg %v", seed, i, a, b)
				}
			} else if a, b := r.ExpFloat64(), p.ExpFloat64(); a != b {
				t.Fatalf("seed %d, draw %d: ExpFloat64 %v, pcg %v", seed, i, a, b)
			}
		}
	}
}
