// Package backoff models exponential backoff with full jitter across many
// workers, as the article's retry wrapper does it: the wait before retry a
// (counted from 0) is uniform(0, min(cap, base·2^a)), raised to the
// server's Retry-After when there is one, and cut to what is left of a cap
// on the total time spent retrying. Retry-After itself is never cut: a
// client must not call before it has passed, so a worker with less time
// left than Retry-After gives up instead (RFC 9110 §10.2.3; the header is
// read by core/retryafter).
//
// Randomness is an argument: a CPython-compatible generator (core/pyrand),
// so that a seed gives the waits Python's random.Random(seed) gives. Times
// are in seconds from the moment every worker's first call fails.
package backoff

import (
	"errors"
	"math"
	"retrylab/core/standin"
	"strconv"

	"retrylab/core/meter"
	"retrylab/core/pyrand"
)

// Config is one retry policy applied by Workers workers at once.
type Config struct {
	_    standin.NoEqual // not comparable
	Base float64         // s, > 0: the ceiling of the first wait
	Cap  float64         // s, > 0: no ceiling exceeds it
	// MaxAttempts >= 1 counts every call, the first included: a worker
	// retries at most MaxAttempts-1 times.
	MaxAttempts int
	// MaxElapsed > 0 is the time, s from the first failure, after which a
	// worker stops retrying; a backoff wait that would overrun it is cut
	// short, but never below RetryAfter: a worker whose time left is
	// shorter than RetryAfter gives up.
	MaxElapsed float64
	// RetryAfter >= 0 is the server's Retry-After, s, a floor for every
	// wait; 0 means the server sent none.
	RetryAfter float64
	// Jitter draws each wait uniformly below its ceiling; without it every
	// wait is the ceiling itself.
	Jitter bool
	// Workers >= 1 is how many workers fail together at time 0.
	Workers int
}

// Ceiling returns min(Cap, Base·2^a), s: the largest wait before retry a.
func (c Config) Ceiling(a int) float64 {
	return math.Min(c.Cap, math.Ldexp(c.Base, a)) // Base·2^a, exact
}

// Wait returns the wait before retry a, s, for a uniform draw u in [0, 1):
// Ceiling(a)·u with jitter (exactly CPython's uniform(0, ceiling)), the
// ceiling itself without, and in both cases at least RetryAfter. It does
// not apply MaxElapsed.
func (c Config) Wait(a int, u float64) float64 {
	d := c.Ceiling(a)
	if c.Jitter {
		d = 0 + float64(d*u)
	}
	return math.Max(d, c.RetryAfter)
}

// Validate reports the first unusable field.
func (c Config) Validate() error {
	switch {
	case !(c.Base > 0) || math.IsInf(c.Base, 0):
		return errors.New("backoff: Base must be finite and > 0")
	case !(c.Cap > 0) || math.IsInf(c.Cap, 0):
		return errors.New("backoff: Cap must be finite and > 0")
	case c.MaxAttempts < 1:
		return errors.New("backoff: MaxAttempts must be >= 1")
	case !(c.MaxElapsed > 0) || math.IsInf(c.MaxElapsed, 0):
		return errors.New("backoff: MaxElapsed must be finite and > 0")
	case !(c.RetryAfter >= 0) || math.IsInf(c.RetryAfter, 0):
		return errors.New("backoff: RetryAfter must be finite and >= 0")
	case c.Workers < 1:
		return errors.New("backoff: Workers must be >= 1")
	}
	return nil
}

// Horizon returns the latest time, s, at which any retry can happen:
// min(MaxElapsed, the sum of the largest waits).
func (c Config) Horizon() float64 {
	var t float64
	for a := 0; a < c.MaxAttempts-1 && t < c.MaxElapsed; a++ {
		t += math.Max(c.Ceiling(a), c.RetryAfter)
	}
	return math.Min(t, c.MaxElapsed)
}

// Result is what the workers did.
type Result struct {
	Ceilings []float64 // s, Ceiling(a) for each retry a = 0..MaxAttempts-2
	Retries  int       // retries made by all workers
	// RetriesByAttempt[a] counts the workers that made retry a.
	RetriesByAttempt []int
	// GaveUp counts the workers stopped by MaxElapsed while they still had
	// attempts left; the others stopped after MaxAttempts calls.
	GaveUp int
	// GaveUpRetryAfter counts those of GaveUp that stopped because the
	// server's Retry-After was longer than the time they had left: they
	// gave up rather than call before it.
	GaveUpRetryAfter int
	// MaxElapsedUsed is the time of the last call of any worker, s.
	MaxElapsedUsed float64
	// Counts is the histogram of retry times: Counts[j] counts the
	// retries in bin j (see Bin), from bin 0 to the bin of Horizon().
	Counts []int
	// Peak is the largest count and PeakBin its first bin.
	Peak, PeakBin int
	// Arrivals holds every retry time in draw order, when asked for.
	Arrivals []float64
}

// MaxBins bounds the histogram.
const MaxBins = 1 << 20

// Bins returns the number of histogram bins for width w > 0.
func (c Config) Bins(w float64) (int, error) {
	h := c.Horizon()
	if !(w > 0) || h/w >= MaxBins {
		g := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) } // fmt's %g
		return 0, errors.New("backoff: " + g(h) + " s in bins of " + g(w) + " s is more than " + strconv.Itoa(MaxBins) + " bins")
	}
	return Bin(h, w) + 1, nil
}

// Bin returns the bin of t >= 0 for width w > 0: the largest j with
// float64(j)·w <= t, where float64(j)·w is computed in float64 as the bin
// starts are printed. A retry at 0.5 s is thus in the bin that starts at
// 0.5 (5 × 0.1 rounds to 0.5), not in the one before, although the float
// 0.1 is slightly above 1/10.
func Bin(t, w float64) int {
	j := math.Floor(t / w)
	for j > 0 && j*w > t {
		j--
	}
	for (j+1)*w <= t {
		j++
	}
	return int(j)
}

// Run plays the policy for every worker, drawing from r (which it
// advances) attempt by attempt and, within an attempt, worker by worker,
// only for the workers still retrying (none without jitter). Every call
// fails at once, so a worker's calls happen at the sums of its waits.
// Width > 0 is the histogram bin width, s; keep asks for Arrivals.
//
// A worker whose call fails at t >= MaxElapsed stops; so does one whose
// time left, MaxElapsed - t, is shorter than RetryAfter (counted in
// GaveUpRetryAfter), before drawing. Otherwise it waits
// min(Wait, MaxElapsed - t), which is never below RetryAfter, and a cut
// wait ends at MaxElapsed exactly.
func Run(c Config, r *pyrand.Random, width float64, keep bool) (Result, error) {
	return RunMeter(c, r, width, keep, nil)
}

// RunMeter is Run with a meter, told of every worker's turn at every
// retry (Workers × (MaxAttempts-1) in all): when it says stop, the run
// ends with meter.ErrStopped.
func RunMeter(c Config, r *pyrand.Random, width float64, keep bool, m *meter.Meter) (Result, error) {
	if err := c.Validate(); err != nil {
		return Result{}, err
	}
	bins, err := c.Bins(width)
	if err != nil {
		return Result{}, err
	}
	retries := c.MaxAttempts - 1
	res := Result{Ceilings: make([]float64, retries), RetriesByAttempt: make([]int, retries), Counts: make([]int, bins)}
	for a := range res.Ceilings {
		res.Ceilings[a] = c.Ceiling(a)
	}
	t := make([]float64, c.Workers) // time of each worker's latest call
	alive := make([]bool, c.Workers)
	for w := range alive {
		alive[w] = true
	}
	for a := 0; a < retries; a++ {
		if m.Add(len(t)) {
			return Result{}, meter.ErrStopped
		}
		for w := range t {
			if !alive[w] {
				continue
			}
			if t[w] >= c.MaxElapsed {
				alive[w] = false
				res.GaveUp++
				continue
			}
			left := c.MaxElapsed - t[w]
			if c.RetryAfter > left {
				alive[w] = false
				res.GaveUp++
				res.GaveUpRetryAfter++
				continue
			}
			u := 0.0
			if c.Jitter {
				u = r.Random()
			}
			d := c.Wait(a, u)
			if d >= left {
				t[w] = c.MaxElapsed
			} else {
				t[w] += d
			}
			res.Retries++
			res.RetriesByAttempt[a]++
			j := min(Bin(t[w], width), bins-1)
			res.Counts[j]++
			if keep {
				res.Arrivals = append(res.Arrivals, t[w])
			}
		}
	}
	if m.Done() {
		return Result{}, meter.ErrStopped
	}
	for w := range t {
		res.MaxElapsedUsed = math.Max(res.MaxElapsedUsed, t[w])
	}
	for j, n := range res.Counts {
		if n > res.Peak {
			res.Peak, res.PeakBin = n, j
		}
	}
	return res, nil
}

// Policy is a named pair of limits from the article.
type Policy struct {
	Name        string
	MaxAttempts int
	MaxElapsed  float64 // s
}

// Interactive is the article's policy for a chat with a user waiting:
// 3 attempts within 8 s.
var Interactive = Policy{Name: "interactive", MaxAttempts: 3, MaxElapsed: 8}

// Batch is the article's policy for background summarization: 8 attempts
// within 300 s.
var Batch = Policy{Name: "batch", MaxAttempts: 8, MaxElapsed: 300}
