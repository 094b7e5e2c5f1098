package metastable

import (
	"math"
	"math/rand/v2"
)

// SimDrain simulates the chain (Gillespie's method: an exponential
// holding time, then a transition chosen by its rate) from (q0, o0) until
// the queue is empty, runs times, with draws from r. It returns the mean
// and the standard error of the drain times, and the runs that had not
// drained within maxEvents transitions (left out of the mean).
func SimDrain(p Params, q0, o0, runs, maxEvents int, r *rand.Rand) (mean, se float64, censored int) {
	pt := p.TimeoutProb()
	var to []int
	var rate []float64
	var sum, sum2 float64
	done := 0
	for range runs {
		q, o, t := q0, o0, 0.0
		ok := false
		for ev := 0; ev < maxEvents; ev++ {
			if q == 0 {
				ok = true
				break
			}
			to, rate = to[:0], rate[:0]
			total := 0.0
			p.Transitions(q, o, pt, func(j int, x float64) {
				to = append(to, j)
				rate = append(rate, x)
				total += x
			})
			t += r.ExpFloat64() / total
			u := r.Float64() * total
			k := 0
			for k < len(rate)-1 && u >= rate[k] {
				u -= rate[k]
				k++
			}
			q, o = to[k]%(p.Queue+1), to[k]/(p.Queue+1)
		}
		if !ok && q != 0 {
			censored++
			continue
		}
		sum += t
		sum2 += t * t
		done++
	}
	if done == 0 {
		return math.NaN(), math.NaN(), censored
	}
	mean = sum / float64(done)
	if done > 1 {
		v := (sum2 - float64(done)*mean*mean) / float64(done-1)
		se = math.Sqrt(math.Max(v, 0) / float64(done))
	}
	return mean, se, censored
}

// SimOccupancy simulates the chain from (0, 0) for events transitions and
// returns the share of time the queue spent at each length.
func SimOccupancy(p Params, events int, r *rand.Rand) []float64 {
	pt := p.TimeoutProb()
	occ := make([]float64, p.Queue+1)
	var to []int
	var rate []float64
	q, o, total := 0, 0, 0.0
	for range events {
		to, rate = to[:0], rate[:0]
		out := 0.0
		p.Transitions(q, o, pt, func(j int, x float64) {
			to = append(to, j)
			rate = append(rate, x)
			out += x
		})
		h := r.ExpFloat64() / out
		occ[q] += h
		total += h
		u := r.Float64() * out
		k := 0
		for k < len(rate)-1 && u >= rate[k] {
			u -= rate[k]
			k++
		}
		q, o = to[k]%(p.Queue+1), to[k]/(p.Queue+1)
	}
	for i := range occ {
		occ[i] /= total
	}
	return occ
}
