package metastable

import (
	"math"
	"math/rand/v2"
	"testing"
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
			if i%(p.Queue+1) != 0 {
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
		mean, se, censored := SimDrain(p, p.Queue, 0, 2000, 1e8, rand.New(rand.NewPCG(3, 4)))
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
