package metastable

import (
	"math"
	"math/rand/v2"

	"retrylab/core/standin/pcgrand"
)

// table holds every state's transitions for sampling: the targets and
// cumulative rates of state i are to[start[i]:start[i+1]] and
// cum[start[i]:start[i+1]].
type table struct {
	start []int32
	to    []int32
	cum   []float64
}

// reset fills t with p's transitions, in t's storage when it is large
// enough.
func (t *table) reset(p Params, pt []float64) {
	n := p.States()
	if cap(t.start) < n+1 {
		t.start = make([]int32, n+1)
	}
	t.start = t.start[:n+1]
	t.start[0] = 0
	if cap(t.to) < 6*n { // at most 6 transitions out of a state
		t.to, t.cum = make([]int32, 0, 6*n), make([]float64, 0, 6*n)
	}
	t.to, t.cum = t.to[:0], t.cum[:0]
	r, d := p.rates()
	var out [maxOut]Transition
	for i := range n {
		q, o := p.State(i)
		sum := 0.0
		for _, tr := range out[:p.transitions(q, o, pt, r, d, &out)] {
			sum += tr.Rate
			t.to = append(t.to, int32(tr.To))
			t.cum = append(t.cum, sum)
		}
		t.start[i+1] = int32(len(t.to))
	}
}

// step draws the holding time in state i and the next state.
func (t *table) step(i int, r *rand.Rand) (float64, int) {
	return t.next(i, r.Float64(), r.ExpFloat64()) // in this order: the arguments are evaluated left to right
}

// next is step's holding time and next state from its draws: u uniform
// in [0, 1), which picks the transition, and e exponential with mean 1.
func (t *table) next(i int, u, e float64) (float64, int) {
	lo, hi := t.start[i], t.start[i+1]
	total := t.cum[hi-1]
	u *= total
	k := lo
	for k < hi-1 && u >= t.cum[k] {
		k++
	}
	return e / total, int(t.to[k])
}

// SimDrain simulates the chain (Gillespie's method: an exponential
// holding time, then a transition chosen by its rate) from state (q0, o0)
// until the queue is empty (q = 0), runs times, with draws from r; the
// runs share a budget of events transitions in all, taken in turn, so a
// run that does not drain leaves less, or nothing, to those after it.
//
// It returns the mean drain time and its standard error, in seconds (the
// rates being per second), over the runs that drained, and censored, the
// number of runs that had not drained when the budget ran out (left out
// of the mean). mean and se are NaN when no run drained (runs <= 0 or
// events too few); se is 0 when exactly one did.
//
// r advances two draws per transition (a uniform, then an exponential).
// From pcgrand.New(a, b) the results are those, bit for bit, of the same
// simulation drawing from rand.New(rand.NewPCG(a, b)) (the same stream,
// drawn in the same order; TestSimDrainSameAsRand), without rand.Rand's
// interface call per draw, which is most of the simulation's time in
// WebAssembly.
func SimDrain(p Params, q0, o0, runs, events int, r *pcgrand.PCG) (mean, se float64, censored int) {
	return new(Solver).SimDrain(p, q0, o0, runs, events, r)
}

// SimDrain is the package's SimDrain with s's transition table: once s
// has simulated a chain, simulating one of no more states allocates
// nothing.
func (s *Solver) SimDrain(p Params, q0, o0, runs, events int, r *pcgrand.PCG) (mean, se float64, censored int) {
	tb := &s.tb
	tb.reset(p, s.timeoutProb(p))
	var sum, sum2 float64
	done := 0
	for range runs {
		i, t := p.Index(q0, o0), 0.0
		for !p.drained(i) && events > 0 {
			events--
			h, j := tb.next(i, r.Float64(), r.ExpFloat64()) // in this order: the arguments are evaluated left to right
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

// meanSE is the mean and the standard error of the mean of done drain
// times of sum sum and sum of squares sum2: NaN and NaN when done is 0,
// a standard error of 0 when it is 1.
func meanSE(sum, sum2 float64, done int) (mean, se float64) {
	if done == 0 {
		return math.NaN(), math.NaN()
	}
	mean = sum / float64(done)
	if done > 1 {
		v := (sum2 - float64(done)*mean*mean) / float64(done-1)
		se = math.Sqrt(math.Max(v, 0) / float64(done))
	}
	return mean, se
}

// SimOccupancy simulates the chain from (0, 0) for events transitions and
// returns the share of time the queue spent at each length.
func SimOccupancy(p Params, events int, r *rand.Rand) []float64 {
	tb := new(table)
	tb.reset(p, p.TimeoutProb())
	occ := make([]float64, p.Queue+1)
	i, total := 0, 0.0
	for range events {
		h, j := tb.step(i, r)
		occ[p.queueAt(i)] += h
		total += h
		i = j
	}
	for q := range occ {
		occ[q] /= total
	}
	return occ
}
