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

// TestFillSameAsRand: Fill, Skip and IntN draw what rand.PCG and
// rand.Rand draw from the same state, in any mix with Uint64; FromRand
// and Store carry a state between the two, both ways.
func TestFillSameAsRand(t *testing.T) {
	ns := []int{1, 2, 3, 5, 7, 10, 64, 100, 1 << 20, 1<<32 + 1, 1<<62 + 12345, 1<<63 - 1}
	for _, seed := range []uint64{0, 1, 20261017, 1 << 53} {
		src := rand.NewPCG(seed, 0x9e3779b97f4a7c15)
		r := rand.New(src)
		p := New(seed, 0x9e3779b97f4a7c15)
		buf := make([]uint64, 300)
		for i := range 20_000 {
			switch i % 5 {
			case 0:
				k := i % len(buf) // 0 included
				p.Fill(buf[:k])
				for j, v := range buf[:k] {
					if w := src.Uint64(); v != w {
						t.Fatalf("seed %d, step %d: Fill[%d] %d, rand %d", seed, i, j, v, w)
					}
				}
			case 1:
				k := i%50 - 3 // negatives skip nothing
				p.Skip(k)
				for range max(0, k) {
					src.Uint64()
				}
			case 2:
				n := ns[i%len(ns)]
				if a, b := r.IntN(n), p.IntN(n); a != b {
					t.Fatalf("seed %d, step %d: IntN(%d) rand %d, pcg %d", seed, i, n, a, b)
				}
			case 3:
				if a, b := src.Uint64(), p.Uint64(); a != b {
					t.Fatalf("seed %d, step %d: Uint64 rand %d, pcg %d", seed, i, a, b)
				}
			case 4:
				if q := FromRand(src); q != p {
					t.Fatalf("seed %d, step %d: FromRand %v, want %v", seed, i, q, p)
				}
				var back rand.PCG
				p.Store(&back)
				if a, b := back.Uint64(), src.Uint64(); a != b {
					t.Fatalf("seed %d, step %d: Store then Uint64 %d, want %d", seed, i, a, b)
				}
				p.Uint64()
			}
		}
	}
}

// BenchmarkFill: a draw a value through Fill beside a loop of Uint64, of
// the stand-in and of math/rand/v2's PCG (in WebAssembly Uint64 is a
// call; Fill keeps the state in locals).
func BenchmarkFill(b *testing.B) {
	buf := make([]uint64, 256)
	b.Run("fill", func(b *testing.B) {
		p := New(1, 2)
		for b.Loop() {
			p.Fill(buf)
		}
	})
	b.Run("pcgrand-uint64", func(b *testing.B) {
		p := New(1, 2)
		for b.Loop() {
			for i := range buf {
				buf[i] = p.Uint64()
			}
		}
	})
	b.Run("math-rand-v2", func(b *testing.B) {
		p := rand.NewPCG(1, 2)
		for b.Loop() {
			for i := range buf {
				buf[i] = p.Uint64()
			}
		}
	})
}
