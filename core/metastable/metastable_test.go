package metastable

import (
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"

	"retrylab/core/standin/pcgrand"
)

// dense returns the generator of p as a dense matrix, built from
// Transitions with the diagonal set so that rows sum to zero.
func dense(p Params) [][]float64 {
	n := p.States()
	g := make([][]float64, n)
	for i := range g {
		g[i] = make([]float64, n)
	}
	pt := p.TimeoutProb()
	for o := 0; o <= p.Orbit; o++ {
		for q := 0; q <= p.Queue; q++ {
			i := p.Index(q, o)
			p.Transitions(q, o, pt, func(j int, x float64) {
				g[i][j] += x
				g[i][i] -= x
			})
		}
	}
	return g
}

// gauss solves a x = b by Gaussian elimination with partial pivoting.
func gauss(a [][]float64, b []float64) []float64 {
	n := len(b)
	for k := range n {
		piv := k
		for i := k + 1; i < n; i++ {
			if math.Abs(a[i][k]) > math.Abs(a[piv][k]) {
				piv = i
			}
		}
		a[k], a[piv] = a[piv], a[k]
		b[k], b[piv] = b[piv], b[k]
		for i := k + 1; i < n; i++ {
			f := a[i][k] / a[k][k]
			for j := k; j < n; j++ {
				a[i][j] -= f * a[k][j]
			}
			b[i] -= f * b[k]
		}
	}
	x := make([]float64, n)
	for i := n - 1; i >= 0; i-- {
		v := b[i]
		for j := i + 1; j < n; j++ {
			v -= a[i][j] * x[j]
		}
		x[i] = v / a[i][i]
	}
	return x
}

var small = []Params{
	{Lambda: 8.5, Mu: 10, Queue: 8, Orbit: 5, TimeoutS: 0.6, Retries: 3, WaitS: 2},
	{Lambda: 3, Mu: 2, Queue: 5, Orbit: 7, TimeoutS: 1, Retries: 1.5, WaitS: 0.5},
	{Lambda: 1, Mu: 10, Queue: 3, Orbit: 0, TimeoutS: 5, Retries: 0, WaitS: 1},
}

// The banded GTH solve against a dense solve of πG = 0 with one equation
// replaced by Σπ = 1.
func TestStationaryAgainstDense(t *testing.T) {
	for _, p := range small {
		g := dense(p)
		n := len(g)
		a := make([][]float64, n) // Gᵀ
		for i := range a {
			a[i] = make([]float64, n)
			for j := range n {
				a[i][j] = g[j][i]
			}
		}
		b := make([]float64, n)
		for j := range n {
			a[n-1][j] = 1
		}
		b[n-1] = 1
		want := gauss(a, b)
		got := Stationary(p)
		for i := range want {
			if math.Abs(got[i]-want[i]) > 1e-12+1e-9*want[i] {
				t.Errorf("%+v: π[%d] = %v, dense %v", p, i, got[i], want[i])
			}
		}
	}
}

// The banded drain time against a dense solve of the hitting-time
// equations.
func TestDrainAgainstDense(t *testing.T) {
	for _, p := range small {
		g := dense(p)
		// unknowns: the states with q > 0
		var idx []int
		pos := map[int]int{}
		for i := range g {
			if q, _ := p.State(i); q != 0 {
				pos[i] = len(idx)
				idx = append(idx, i)
			}
		}
		a := make([][]float64, len(idx))
		b := make([]float64, len(idx))
		for r, i := range idx {
			a[r] = make([]float64, len(idx))
			for c, j := range idx {
				a[r][c] = g[i][j]
			}
			b[r] = -1
		}
		h := gauss(a, b)
		want := h[pos[p.Index(p.Queue, 0)]]
		got := DrainTime(p, p.Queue, 0)
		if math.Abs(got-want) > 1e-9*want {
			t.Errorf("%+v: drain %v, dense %v", p, got, want)
		}
	}
}

// The simulated mean drain time falls within its 99.9% band around the
// exact value.
func TestDrainAgainstSimulation(t *testing.T) {
	for _, p := range append(small, Params{Lambda: 8.5, Mu: 10, Queue: 20, Orbit: 20, TimeoutS: 1.5, Retries: 3, WaitS: 5}) {
		exact := DrainTime(p, p.Queue, 0)
		r := pcgrand.New(3, 4)
		mean, se, censored := SimDrain(p, p.Queue, 0, 2000, 1e8, &r)
		if censored > 0 || math.Abs(mean-exact) > 3.3*se {
			t.Errorf("%+v: exact %v, simulated %v ± %v (%d censored)", p, exact, mean, se, censored)
		}
	}
}

// Where the exact stationary distribution of the queue is bimodal, a long
// simulation's occupancy is too, and where it is not, neither is the
// simulation's.
func TestBistableAgreesWithSimulation(t *testing.T) {
	base := Params{Mu: 10, Queue: 20, Orbit: 20, TimeoutS: 1.5, Retries: 3, WaitS: 5}
	seen := map[bool]bool{}
	for _, lam := range []float64{6, 8.5, 10} {
		p := base
		p.Lambda = lam
		exact, _, _ := Bimodal(QueueMarginal(p, Stationary(p)))
		sim, _, _ := Bimodal(SimOccupancy(p, 3e6, rand.New(rand.NewPCG(5, 6))))
		if exact != sim {
			t.Errorf("λ=%v: exact bimodal %v, simulation %v", lam, exact, sim)
		}
		seen[exact] = true
	}
	if !seen[true] || !seen[false] {
		t.Errorf("the λ tested should include a bistable and a unimodal case: %v", seen)
	}
}

func TestTimeoutProb(t *testing.T) {
	p := Params{Mu: 2, TimeoutS: 1, Queue: 2}
	pt := p.TimeoutProb()
	want := []float64{math.Exp(-2), 3 * math.Exp(-2), 5 * math.Exp(-2)}
	for i := range want {
		if math.Abs(pt[i]-want[i]) > 1e-15 {
			t.Errorf("p(%d) = %v, want %v", i, pt[i], want[i])
		}
	}
}

// randomChains are n chains of at most 13×13 states with random rates,
// both Q < O and O < Q, from a fixed seed.
func randomChains(n int) []Params {
	r := rand.New(rand.NewPCG(30, 31))
	ps := make([]Params, n)
	for k := range ps {
		ps[k] = Params{Lambda: 0.1 + 20*r.Float64(), Mu: 0.5 + 20*r.Float64(), Queue: 1 + r.IntN(12), Orbit: r.IntN(13),
			TimeoutS: 0.05 + 5*r.Float64(), Retries: 6 * r.Float64(), WaitS: 0.1 + 10*r.Float64()}
	}
	return ps
}

// Index and State are inverses, and every transition stays within the
// band's half-width, min(Q, O)+2 (Q+2 in the orbit-major order).
func TestOrderBand(t *testing.T) {
	for _, p := range append(randomChains(200), defaults, small[0], small[1], small[2]) {
		for _, om := range []bool{false, true} {
			p.orbitMajor = om
			want := min(p.Queue, p.Orbit) + 2
			if om {
				want = p.Queue + 2
			}
			if w := p.halfWidth(); w != want {
				t.Errorf("%+v: half-width %d, want %d", p, w, want)
			}
			pt := p.TimeoutProb()
			seen := make([]bool, p.States())
			for q := 0; q <= p.Queue; q++ {
				for o := 0; o <= p.Orbit; o++ {
					i := p.Index(q, o)
					if q2, o2 := p.State(i); q2 != q || o2 != o || seen[i] {
						t.Fatalf("%+v: Index(%d, %d) = %d, State %d, %d (seen before: %v)", p, q, o, i, q2, o2, seen[i])
					}
					seen[i] = true
					if p.queueAt(i) != q || p.drained(i) != (q == 0) {
						t.Errorf("%+v: queueAt(%d) = %d, drained %v; want %d", p, i, p.queueAt(i), p.drained(i), q)
					}
					p.Transitions(q, o, pt, func(j int, _ float64) {
						if absInt(j-i) > p.halfWidth() {
							t.Errorf("%+v: (%d, %d) → index %d is %d from %d, beyond the half-width %d", p, q, o, j, absInt(j-i), i, p.halfWidth())
						}
					})
				}
			}
		}
	}
}

// agree reports whether a and b agree within a relative 1e-9.
func agree(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b)) }

// The queue-major order changes the exact solves' results only by
// rounding, and the simulation's not at all: it draws the same
// transitions in the same order, whatever the indices.
func TestOrdersAgree(t *testing.T) {
	var a, b Solver
	for _, p := range append(randomChains(300), small...) {
		old := p
		old.orbitMajor = true
		piOld := slices.Clone(a.Stationary(old))
		pi := b.Stationary(p)
		for q := 0; q <= p.Queue; q++ {
			for o := 0; o <= p.Orbit; o++ {
				if x, y := piOld[old.Index(q, o)], pi[p.Index(q, o)]; !agree(x, y) {
					t.Errorf("%+v: π(%d, %d) = %v in the orbit-major order, %v in the queue-major order", p, q, o, x, y)
				}
			}
		}
		// The drain-time equations M h = 1 of a chain whose queue seldom
		// drains are ill-conditioned (κ past 1/ε), but the elimination
		// subtracts nothing: both orders keep their relative accuracy
		// (with plain LU they differed as much as κε, and at mu=1 one
		// returned a negative time)
		for _, s := range [][2]int{{p.Queue, 0}, {1, p.Orbit}, {p.Queue, p.Orbit}, {(p.Queue + 1) / 2, p.Orbit / 2}} {
			x, y := a.DrainTime(old, s[0], s[1]), b.DrainTime(p, s[0], s[1])
			if math.Abs(x-y) > 1e-10*math.Abs(x) {
				t.Errorf("%+v: drain time from (%d, %d) %v in the orbit-major order, %v in the queue-major order", p, s[0], s[1], x, y)
			}
		}
		r1, r2 := pcgrand.New(7, 8), pcgrand.New(7, 8)
		m1, se1, c1 := a.SimDrain(old, p.Queue, 0, 5, 20_000, &r1)
		m2, se2, c2 := b.SimDrain(p, p.Queue, 0, 5, 20_000, &r2)
		if !(m1 == m2 || math.IsNaN(m1) && math.IsNaN(m2)) || !(se1 == se2 || math.IsNaN(se1) && math.IsNaN(se2)) || c1 != c2 {
			t.Errorf("%+v: simulated drain %v ± %v (%d censored) in the orbit-major order, %v ± %v (%d) in the queue-major order", p, m1, se1, c1, m2, se2, c2)
		}
		if x, y := SimOccupancy(old, 2000, rand.New(rand.NewPCG(9, 10))), SimOccupancy(p, 2000, rand.New(rand.NewPCG(9, 10))); !slices.Equal(x, y) {
			t.Errorf("%+v: simulated occupancy %v in the orbit-major order, %v in the queue-major order", p, x, y)
		}
	}
}

// TestDrainIllConditioned: chains that seldom drain, against the same
// equations solved densely in 512-bit arithmetic with partial pivoting:
// the drain time keeps its relative accuracy (plain LU in float64 gave a
// negative drain time at mu=1 and lost every digit past a condition
// number of 1/ε).
func TestDrainIllConditioned(t *testing.T) {
	for _, p := range []Params{
		{Lambda: 8.5, Mu: 1, Queue: 12, Orbit: 8, TimeoutS: 2.5, Retries: 3, WaitS: 5},
		{Lambda: 40, Mu: 10, Queue: 14, Orbit: 6, TimeoutS: 2.5, Retries: 3, WaitS: 5},
		{Lambda: 8.5, Mu: 1, Queue: 9, Orbit: 16, TimeoutS: 1, Retries: 6, WaitS: 2},
	} {
		want := bigDrain(p, p.Queue, 0)
		got := DrainTime(p, p.Queue, 0)
		if want < 1e7 {
			t.Errorf("%+v: drain time %v: not ill-conditioned, the test needs other chains", p, want)
		}
		if !(math.Abs(got-want) <= 1e-11*want) {
			t.Errorf("%+v: drain time %v, 512-bit dense %v", p, got, want)
		}
	}
}

// bigDrain solves the hitting-time equations of p densely in 512-bit
// floating point, Gaussian elimination with partial pivoting, from the
// rates exactly as Transitions gives them (the diagonal their sum in 512
// bits: a float64 sum would perturb the equations by more than the error
// measured).
func bigDrain(p Params, q0, o0 int) float64 {
	const prec = 512
	var idx []int
	pos := map[int]int{}
	for i := range p.States() {
		if q, _ := p.State(i); q != 0 {
			pos[i] = len(idx)
			idx = append(idx, i)
		}
	}
	n := len(idx)
	nf := func(x float64) *big.Float { return new(big.Float).SetPrec(prec).SetFloat64(x) }
	pt := p.TimeoutProb()
	a := make([][]*big.Float, n)
	for r, i := range idx {
		a[r] = make([]*big.Float, n+1)
		for c := range n {
			a[r][c] = nf(0)
		}
		a[r][n] = nf(1)
		q, o := p.State(i)
		p.Transitions(q, o, pt, func(j int, x float64) {
			if j == i {
				return
			}
			a[r][r].Add(a[r][r], nf(x))
			if c, ok := pos[j]; ok {
				a[r][c].Sub(a[r][c], nf(x))
			}
		})
	}
	for k := range n {
		piv := k
		for r := k + 1; r < n; r++ {
			if new(big.Float).Abs(a[r][k]).Cmp(new(big.Float).Abs(a[piv][k])) > 0 {
				piv = r
			}
		}
		a[k], a[piv] = a[piv], a[k]
		for r := k + 1; r < n; r++ {
			if a[r][k].Sign() == 0 {
				continue
			}
			f := new(big.Float).SetPrec(prec).Quo(a[r][k], a[k][k])
			for c := k; c <= n; c++ {
				a[r][c].Sub(a[r][c], new(big.Float).SetPrec(prec).Mul(f, a[k][c]))
			}
		}
	}
	h := make([]*big.Float, n)
	for k := n - 1; k >= 0; k-- {
		v := new(big.Float).SetPrec(prec).Set(a[k][n])
		for c := k + 1; c < n; c++ {
			v.Sub(v, new(big.Float).SetPrec(prec).Mul(a[k][c], h[c]))
		}
		h[k] = v.Quo(v, a[k][k])
	}
	x, _ := h[pos[p.Index(q0, o0)]].Float64()
	return x
}

// simDrainRand is SimDrain drawing from a rand.Rand, the oracle of
// TestSimDrainSameAsRand: the loop the production one replaced, with
// math/rand/v2's own Float64 and ExpFloat64 (table.step).
func (s *Solver) simDrainRand(p Params, q0, o0, runs, events int, r *rand.Rand) (mean, se float64, censored int) {
	tb := &s.tb
	tb.reset(p, s.timeoutProb(p))
	var sum, sum2 float64
	done := 0
	for range runs {
		i, t := p.Index(q0, o0), 0.0
		for !p.drained(i) && events > 0 {
			events--
			h, j := tb.step(i, r)
			t += h
			i = j
		}
		if !p.drained(i) {
			censored++
			continue
		}
		sum += t
		sum2 += t * t
		done++
	}
	mean, se = meanSE(sum, sum2, done)
	return mean, se, censored
}

// TestSimDrainSameAsRand: SimDrain from pcgrand.New(a, b) gives
// simDrainRand's results from rand.New(rand.NewPCG(a, b)), bit for bit,
// in both orders of the states, censored runs included.
func TestSimDrainSameAsRand(t *testing.T) {
	ps := append(small, defaults, Params{Lambda: 12, Mu: 10, Queue: 20, Orbit: 30, TimeoutS: 1.5, Retries: 3, WaitS: 5})
	for _, p := range ps {
		for _, c := range []struct{ runs, events int }{{30, 300_000}, {200, 5_000}, {1, 1}} {
			var a, b Solver
			m1, se1, c1 := a.simDrainRand(p, p.Queue, 0, c.runs, c.events, rand.New(rand.NewPCG(20261017, 0x6d657461)))
			r := pcgrand.New(20261017, 0x6d657461)
			m2, se2, c2 := b.SimDrain(p, p.Queue, 0, c.runs, c.events, &r)
			same := func(x, y float64) bool {
				return math.Float64bits(x) == math.Float64bits(y) || math.IsNaN(x) && math.IsNaN(y)
			}
			if !same(m1, m2) || !same(se1, se2) || c1 != c2 {
				t.Errorf("%+v, %v: simDrainRand %v ± %v (%d censored), SimDrain %v ± %v (%d)", p, c, m1, se1, c1, m2, se2, c2)
			}
		}
	}
}
