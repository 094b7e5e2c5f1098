// Package metastable solves exactly a continuous-time Markov chain of a
// queue whose clients time out and retry, after the model of Metafor
// (Isaacs et al., "Analyzing Metastable Failures", HotOS'25;
// https://github.com/mpi-sws-rse/metafor, metafor/model/single_server/ctmc.py):
// the state is (q, o), q requests in the server's bounded queue (the one
// in service included) and o clients in the orbit, waiting to retry.
// Bronson et al. ("Metastable Failures in Distributed Systems", HotOS'21)
// and Huang et al. ("Metastable Failures in the Wild", OSDI'22) name the
// mechanism: a trigger fills the queue, requests time out while they
// wait, their clients retry, and the retries keep the queue full after
// the trigger is gone.
//
// The transitions (our formulation, written from the paper's description;
// not Metafor's code):
//
//   - a new request arrives at rate λ; it joins the queue when q < Q, and
//     its client enters the orbit at once with probability p(q) that it will
//     time out (the request stays in the queue and is served anyway:
//     wasted work); when q = Q it is refused and its client enters the
//     orbit;
//   - each client in the orbit retries at rate r = R/((R+1)·b) and gives up
//     at rate d = 1/((R+1)·b), b being the mean wait before a retry and R
//     the mean number of retries (a geometric number of retries); a retry
//     joins the queue like a new request, and its client stays in the
//     orbit with probability p(q);
//   - the server completes a request at rate μ when q > 0;
//   - a client that would enter a full orbit (o = O) is lost.
//
// p(q) is the probability that q+1 exponential services (the q ahead and
// its own) take longer than the timeout τ: P(Poisson(μτ) ≤ q).
//
// Everything is computed without sampling: the stationary distribution by
// the GTH algorithm (Grassmann, Taksar, Heyman 1985), which subtracts
// nothing and keeps the band of the generator, and the expected time to
// drain the queue from a full queue and an empty orbit by a banded
// elimination of the hitting-time equations done the same way, each
// pivot a sum of rates (DrainTime). The states are ordered so that
// the band is the narrower one (Params.Index): orbit-major (index
// o·(Q+1)+q) when Q <= O, every transition within Q+2 of the diagonal,
// and queue-major (index q·(O+1)+o) when O < Q, every transition within
// O+2; both solves cost about (Q+1)(O+1)(min(Q,O)+2)² multiply-adds.
package metastable

import (
	"math"

	"retrylab/core/standin/fmath"
)

// Params are the chain's parameters.
type Params struct {
	Lambda   float64 // new requests per second
	Mu       float64 // completions per second of a busy server
	Queue    int     // Q, the queue bound (>= 1)
	Orbit    int     // O, the orbit bound (>= 0)
	TimeoutS float64 // τ
	Retries  float64 // R, mean retries of a client that keeps failing
	WaitS    float64 // b, mean wait in the orbit before a retry or giving up

	// orbitMajor keeps the orbit-major order even when the queue-major
	// one is narrower (the tests compare the two orders).
	orbitMajor bool
}

// States is the number of states of the chain.
func (p Params) States() int { return (p.Queue + 1) * (p.Orbit + 1) }

// Work is the multiply-adds of one solve (stationary or hitting time),
// with 200 more per state for building its row of the generator.
func (p Params) Work() float64 {
	w := float64(p.halfWidth())
	return float64(p.States()) * (w*w + 200)
}

// queueMajor reports whether the states are ordered queue-major (index
// q·(O+1)+o), the narrower band when O < Q, rather than orbit-major
// (index o·(Q+1)+q).
func (p Params) queueMajor() bool { return p.Orbit < p.Queue && !p.orbitMajor }

// halfWidth is the half-width of the generator's band in the states'
// order: the largest index distance of a transition. Queue-major, a
// transition moves the index by ±1 (the orbit alone: a refused client
// joining it, a client giving up), -(O+1) (a service), O (a retry that
// joins the queue and leaves the orbit), O+1 or O+2 (an arrival or a
// retry that joins the queue, its client entering or staying in the
// orbit); orbit-major, by the same with the roles swapped, at most Q+2.
func (p Params) halfWidth() int {
	if p.queueMajor() {
		return p.Orbit + 2
	}
	return p.Queue + 2
}

// Index is the index of state (q, o): q·(O+1)+o when O < Q, o·(Q+1)+q
// otherwise (the order of the narrower band).
func (p Params) Index(q, o int) int {
	if p.queueMajor() {
		return q*(p.Orbit+1) + o
	}
	return o*(p.Queue+1) + q
}

// State is the state (q, o) of index i, the inverse of Index.
func (p Params) State(i int) (q, o int) {
	if p.queueMajor() {
		return i / (p.Orbit + 1), i % (p.Orbit + 1)
	}
	return i % (p.Queue + 1), i / (p.Queue + 1)
}

// drained reports whether the queue is empty (q = 0) in the state of
// index i: queue-major, the first O+1 states.
func (p Params) drained(i int) bool {
	if p.queueMajor() {
		return i <= p.Orbit
	}
	return i%(p.Queue+1) == 0
}

// queueAt is the queue length q of the state of index i.
func (p Params) queueAt(i int) int {
	if p.queueMajor() {
		return i / (p.Orbit + 1)
	}
	return i % (p.Queue + 1)
}

// TimeoutProb returns p(q) for q = 0..Q.
func (p Params) TimeoutProb() []float64 { return p.timeoutProb(nil) }

// timeoutProb is TimeoutProb written into buf's storage when it is large
// enough.
func (p Params) timeoutProb(buf []float64) []float64 {
	m := p.Mu * p.TimeoutS
	out := resize(buf, p.Queue+1)
	// P(Poisson(m) <= q), summed in log space to stay finite for large m
	logTerm := -m // log of e^-m m^k / k!, k = 0
	sum := 0.0
	for q := 0; q <= p.Queue; q++ {
		if q > 0 {
			logTerm += fmath.Log(m) - fmath.Log(float64(q)) // fmath: the same bits on amd64 and wasm (crossarch)
		}
		sum += fmath.Exp(logTerm)
		out[q] = math.Min(sum, 1)
	}
	return out
}

// resize returns n zeros, in buf's storage when it holds n.
func resize(buf []float64, n int) []float64 {
	if cap(buf) < n {
		return make([]float64, n)
	}
	buf = buf[:n]
	clear(buf)
	return buf
}

// Transition is one transition of the chain out of a state.
type Transition struct {
	To   int
	Rate float64
}

// Transitions calls f for every transition out of state (q, o), self
// loops left out.
func (p Params) Transitions(q, o int, pt []float64, f func(to int, rate float64)) {
	r, d := p.rates()
	var out [maxOut]Transition
	for _, t := range out[:p.transitions(q, o, pt, r, d, &out)] {
		f(t.To, t.Rate)
	}
}

// maxOut is the most transitions out of a state: two arrivals, two
// retries, a client giving up and a service.
const maxOut = 6

// rates returns r and d, the rates per client in the orbit of retrying
// and of giving up, per second.
func (p Params) rates() (r, d float64) {
	return p.Retries / ((p.Retries + 1) * p.WaitS), 1 / ((p.Retries + 1) * p.WaitS)
}

// transitions writes Transitions' transitions out of state (q, o) into
// out, in the order Transitions gives them (two may have the same
// target: their rates add in that order), and returns how many; r and d
// are p.rates(). The solves build their matrices with it: one call a
// state, not one a transition.
func (p Params) transitions(q, o int, pt []float64, r, d float64, out *[maxOut]Transition) int {
	k := 0
	add := func(q2, o2 int, rate float64) {
		if rate > 0 && (q2 != q || o2 != o) {
			out[k] = Transition{p.Index(q2, o2), rate}
			k++
		}
	}
	if q < p.Queue {
		pt := pt[q]
		if o < p.Orbit {
			add(q+1, o+1, p.Lambda*pt)
			add(q+1, o, p.Lambda*(1-pt))
		} else {
			add(q+1, o, p.Lambda)
		}
		if o > 0 {
			// a retry that will time out leaves its client in the orbit
			add(q+1, o, float64(o)*r*pt)
			add(q+1, o-1, float64(o)*r*(1-pt))
		}
	} else if o < p.Orbit {
		add(q, o+1, p.Lambda)
	}
	if o > 0 {
		add(q, o-1, float64(o)*d)
	}
	if q > 0 {
		add(q-1, o, p.Mu)
	}
	return k
}

// band is a square matrix stored by diagonals within w of the main one.
type band struct {
	n, w int
	a    []float64
}

// reset makes b the n×n zero matrix of half-width w, in b's storage when
// it is large enough.
func (b *band) reset(n, w int) {
	b.n, b.w = n, w
	b.a = resize(b.a, n*(2*w+1))
}

func (b *band) at(i, j int) *float64 { return &b.a[i*(2*b.w+1)+j-i+b.w] }

// Solver solves chains, keeping its matrix and vectors between solves:
// once it has solved a chain, solving one of no more states and no wider
// band allocates nothing. The zero Solver is ready to use; a Solver is
// not safe for concurrent use.
type Solver struct {
	g                 band      // the generator (Stationary) or the drain equations (DrainTime)
	pt, s, pi, rhs, h []float64 // p(q), and the solves' vectors
	exit              []float64 // DrainTime's rates to the drained states
	tb                table     // SimDrain's transitions
	ptOf              ptKey     // the parameters pt is of, when ptSet
	ptSet             bool
}

// ptKey is what p(q) depends on: μ and τ (as their bits) and Q.
type ptKey struct {
	mu, tau uint64
	queue   int
}

// timeoutProb returns p's p(q), q = 0..Q, in s.pt: computed again only
// when μ, τ or Q differ from the last chain's (a sweep over λ keeps them).
func (s *Solver) timeoutProb(p Params) []float64 {
	k := ptKey{math.Float64bits(p.Mu), math.Float64bits(p.TimeoutS), p.Queue}
	if !s.ptSet || s.ptOf != k {
		s.pt = p.timeoutProb(s.pt)
		s.ptOf, s.ptSet = k, true
	}
	return s.pt
}

// Stationary returns the stationary distribution, by index.
func Stationary(p Params) []float64 { return new(Solver).Stationary(p) }

// Stationary returns the stationary distribution, by index, in s's
// storage: valid until s's next solve.
func (s *Solver) Stationary(p Params) []float64 {
	n, w := p.States(), p.halfWidth()
	pt := s.timeoutProb(p)
	g := &s.g
	g.reset(n, w)
	r, d := p.rates()
	var out [maxOut]Transition
	for i := range n {
		q, o := p.State(i)
		for _, t := range out[:p.transitions(q, o, pt, r, d, &out)] {
			*g.at(i, t.To) += t.Rate
		}
	}
	// GTH: censor the states from the last down to 1.
	sums := resize(s.s, n)
	s.s = sums
	for k := n - 1; k >= 1; k-- {
		lo := max(0, k-w)
		sum := 0.0
		for j := lo; j < k; j++ {
			sum += *g.at(k, j)
		}
		sums[k] = sum
		if sum == 0 {
			continue
		}
		W := 2*w + 1
		bk := k*W + w - k // row k's entry for column j is g.a[bk+j]
		rk := g.a[bk+lo : bk+k]
		for i := lo; i < k; i++ {
			bi := i*W + w - i
			pik := g.a[bi+k]
			if pik == 0 {
				continue
			}
			// row i gains f × row k on columns lo..k-1; the diagonal
			// entry it also changes is never read
			addScaled(g.a[bi+lo:bi+k], rk, pik/sum)
		}
	}
	pi := resize(s.pi, n)
	s.pi = pi
	pi[0] = 1
	total := 1.0
	for k := 1; k < n; k++ {
		if sums[k] == 0 {
			continue
		}
		v := 0.0
		for i := max(0, k-w); i < k; i++ {
			v += pi[i] * *g.at(i, k)
		}
		pi[k] = v / sums[k]
		total += pi[k]
		if total > 1e150 {
			// the unnormalized weights grow geometrically along a long
			// chain: scale what is computed so far (the rest follows it)
			for i := 0; i <= k; i++ {
				pi[i] /= total
			}
			total = 1
		}
	}
	for k := range pi {
		pi[k] /= total
	}
	return pi
}

// DrainTime returns the expected time until the queue is empty (q = 0),
// starting from state (q0, o0).
func DrainTime(p Params, q0, o0 int) float64 { return new(Solver).DrainTime(p, q0, o0) }

// DrainTime returns the expected time until the queue is empty (q = 0),
// starting from state (q0, o0); +Inf when the queue can never drain
// from there.
//
// The hitting-time equations (diag(out-rate) − R)·h = 1 are solved by
// Gaussian elimination in the manner of GTH, which subtracts nothing:
// each pivot is taken as the row's rate out of the states not yet
// eliminated (its rate to the drained states, exit, plus its rates to
// the later states), never as the diagonal less its updates, and every
// update adds quantities of one sign. A chain that drains rarely (drain
// times of 10^7 s and more: condition numbers past 1/ε) then keeps its
// relative accuracy, where plain LU lost every digit (a negative drain
// time at mu=1).
func (s *Solver) DrainTime(p Params, q0, o0 int) float64 {
	n, w := p.States(), p.halfWidth()
	pt := s.timeoutProb(p)
	m := &s.g
	m.reset(n, w)
	rhs := resize(s.rhs, n)
	s.rhs = rhs
	exit := resize(s.exit, n)
	s.exit = exit
	r, d := p.rates()
	var out [maxOut]Transition
	for i := range n {
		q, o := p.State(i)
		if q == 0 {
			// h = 0: the row 1·h = 0 (its pivot is its exit, 1)
			*m.at(i, i), exit[i] = 1, 1
			continue
		}
		rhs[i] = 1
		for _, t := range out[:p.transitions(q, o, pt, r, d, &out)] {
			if j := t.To; p.drained(j) { // h is 0 on the target
				exit[i] += t.Rate
			} else if j != i {
				*m.at(i, j) -= t.Rate
			}
		}
	}
	// elimination: below and right of the diagonal the band holds −rates
	// (≤ 0); row k's pivot is exit[k] plus its rates to the later states
	W := 2*w + 1
	for k := 0; k < n; k++ {
		hi := min(n-1, k+w)
		bk := k*W + w - k
		rk := m.a[bk+k+1 : bk+hi+1]
		piv := exit[k]
		for _, v := range rk {
			piv -= v
		}
		m.a[bk+k] = piv
		for i := k + 1; i <= hi; i++ {
			bi := i*W + w - i
			lik := m.a[bi+k]
			if lik == 0 {
				continue
			}
			f := lik / piv // ≤ 0
			m.a[bi+k] = 0
			// row i's rates to the later states grow by f·row k's (the
			// diagonal's entry too, which its pivot does not read);
			// adding −f×rk is subtracting f×rk, bit for bit
			addScaled(m.a[bi+k+1:bi+hi+1], rk, -f)
			exit[i] -= f * exit[k]
			rhs[i] -= f * rhs[k]
		}
	}
	h := resize(s.h, n)
	s.h = h
	for k := n - 1; k >= 0; k-- {
		v := rhs[k]
		for j := k + 1; j <= min(n-1, k+w); j++ {
			v -= *m.at(k, j) * h[j]
		}
		h[k] = v / *m.at(k, k)
	}
	return h[p.Index(q0, o0)]
}

// addScaled adds f×src[j] to dst[j], for each j of src (dst is at least
// as long). Each element takes one rounded product and one rounded sum,
// as in the plain loop: unrolled (as WebAssembly, each turn of a Go loop
// is a jump through the function's block table), not reordered.
func addScaled(dst, src []float64, f float64) {
	n := len(src)
	dst = dst[:n]
	j := 0
	for ; j+8 <= n; j += 8 {
		d, v := dst[j:j+8:j+8], src[j:j+8:j+8]
		d[0] += f * v[0]
		d[1] += f * v[1]
		d[2] += f * v[2]
		d[3] += f * v[3]
		d[4] += f * v[4]
		d[5] += f * v[5]
		d[6] += f * v[6]
		d[7] += f * v[7]
	}
	for ; j < n; j++ {
		dst[j] += f * src[j]
	}
}

// QueueMarginal returns P(q) for q = 0..Q from a distribution by index.
func QueueMarginal(p Params, pi []float64) []float64 {
	m := make([]float64, p.Queue+1)
	for o := 0; o <= p.Orbit; o++ {
		for q := 0; q <= p.Queue; q++ {
			m[q] += pi[p.Index(q, o)]
		}
	}
	return m
}

// Bimodal reports whether the queue's distribution m has two modes: a
// low and a high local maximum at least a quarter of the queue apart,
// each at least twice the lowest point between them, the smaller holding
// at least 1e-6 of probability within its side of that lowest point.
// It returns the two modes (or the single mode twice).
func Bimodal(m []float64) (bool, int, int) {
	best := 0
	for i, v := range m {
		if v > m[best] {
			best = i
		}
	}
	// the highest point on each side of the global mode, far enough away
	gap := max(1, len(m)/4)
	other, found := -1, false
	for i, v := range m {
		if absInt(i-best) >= gap && (!found || v > m[other]) {
			other, found = i, true
		}
	}
	if !found {
		return false, best, best
	}
	lo, hi := min(best, other), max(best, other)
	valley := lo
	for i := lo; i <= hi; i++ {
		if m[i] < m[valley] {
			valley = i
		}
	}
	if valley == lo || valley == hi || m[other] < 2*m[valley] || m[best] < 2*m[valley] {
		return false, best, best
	}
	// the side of the smaller mode
	mass := 0.0
	if other < valley {
		for i := 0; i < valley; i++ {
			mass += m[i]
		}
	} else {
		for i := valley + 1; i < len(m); i++ {
			mass += m[i]
		}
	}
	if mass < 1e-6 {
		return false, best, best
	}
	return true, lo, hi
}

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
