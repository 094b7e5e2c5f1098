// Package timeouts plays streamed LLM calls against the four timeouts a
// client sets on them: connect (the connection is not made in time),
// first token (no token has arrived in time), idle (the gap between two
// tokens, or a stall, is too long) and total (the whole call is too long).
//
// A call's timeline: it connects after C s, receives its first token F s
// later, then its other tokens with exponential gaps of mean 1/Rate s;
// with probability PStall one gap, at a uniform place in the stream, is
// a stall of S s instead (a call of one token has no gap to stall). C, F and S are log-logistic: with median m and
// shape b, P(X > x) = 1/(1+(x/m)^b), a heavy right tail like that of real
// latencies, drawn by inversion as m·(u/(1-u))^(1/b).
//
// The first timeout the timeline crosses cuts the call. What a cut costs
// depends on whether a token had arrived, the first-token rule of
// streaming: before the first token nothing has been shown to the user
// and the call may be retried transparently (a connect cut never reached
// the provider; a first-token cut may have, so its prompt may be billed);
// after it, the provider has processed and billed the prompt and the
// tokens sent, which are thrown away, and a transparent retry would show
// a second, different answer: the cut goes to the user instead.
//
// Randomness is the *rand.PCG passed to Run (math/rand/v2), drawn call by
// call through core/standin/pcgrand (the same stream; a call's token gaps
// drawn in batches, Fill); logarithms and exponentials are
// core/standin/fmath's, so a seed gives one result on every architecture.
// Times are seconds.
package timeouts

import (
	"errors"
	"math"
	"math/rand/v2"

	"retrylab/core/meter"
	"retrylab/core/standin"
	"retrylab/core/standin/fmath"
	"retrylab/core/standin/heapsort"
	"retrylab/core/standin/pcgrand"
)

// Dist is a log-logistic distribution of a duration, s.
type Dist struct {
	Median float64 // > 0
	Shape  float64 // > 0; larger is narrower
}

// Draw returns Median·(u/(1-u))^(1/Shape) for u uniform in (0, 1), from
// r's Float64 (a *rand.Rand, or core/standin/pcgrand's PCG as Run draws).
func (d Dist) Draw(r interface{ Float64() float64 }) float64 {
	u := r.Float64()
	for u == 0 {
		u = r.Float64()
	}
	return d.Median * fmath.Exp(fmath.Log(u/(1-u))/d.Shape)
}

// Tail returns P(X > x) = 1/(1+(x/Median)^Shape), for x >= 0.
func (d Dist) Tail(x float64) float64 {
	if x <= 0 {
		return 1
	}
	return 1 / (1 + fmath.Exp(d.Shape*fmath.Log(x/d.Median)))
}

// Config is one experiment. A timeout of 0 is not set.
type Config struct {
	Calls        int     // >= 1
	PromptTokens int     // >= 0, each call's prompt
	OutputTokens int     // >= 1, each call's output is uniform in [OutputTokens/5, OutputTokens]
	Rate         float64 // output tokens per second, > 0
	Connect      Dist
	FirstToken   Dist
	PStall       float64 // in [0, 1]
	Stall        Dist

	ConnectTimeout, FirstTokenTimeout, IdleTimeout, TotalTimeout float64 // s, >= 0
}

// Default returns the calculator's defaults: 1,000 calls of a 2,000-token
// prompt and up to 800 output tokens at 50 a second; connect median
// 0.1 s, first token median 1.5 s, 2 % of calls stalling (median 8 s);
// timeouts of 3 s to connect, 10 s to the first token, 5 s idle and 60 s
// in all.
func Default() Config {
	return Config{
		Calls: 1000, PromptTokens: 2000, OutputTokens: 800, Rate: 50,
		Connect: Dist{0.1, 2}, FirstToken: Dist{1.5, 3}, PStall: 0.02, Stall: Dist{8, 2},
		ConnectTimeout: 3, FirstTokenTimeout: 10, IdleTimeout: 5, TotalTimeout: 60,
	}
}

// MaxWork bounds Calls × OutputTokens, the tokens drawn.
const MaxWork = 4_000_000

// Validate reports the first field out of range.
func (c Config) Validate() error {
	ok := func(x float64) bool { return x > 0 && !math.IsInf(x, 0) }
	nonneg := func(x float64) bool { return x >= 0 && !math.IsInf(x, 0) }
	switch {
	case c.Calls < 1:
		return errors.New("timeouts: Calls must be >= 1")
	case c.PromptTokens < 0 || c.OutputTokens < 1:
		return errors.New("timeouts: PromptTokens must be >= 0 and OutputTokens >= 1")
	case float64(c.Calls)*float64(c.OutputTokens) > MaxWork:
		return errors.New("timeouts: Calls × OutputTokens exceeds the work bound")
	case !ok(c.Rate):
		return errors.New("timeouts: Rate must be finite and > 0")
	case !ok(c.Connect.Median) || !ok(c.Connect.Shape) || !ok(c.FirstToken.Median) || !ok(c.FirstToken.Shape) ||
		!ok(c.Stall.Median) || !ok(c.Stall.Shape):
		return errors.New("timeouts: medians and shapes must be finite and > 0")
	case !(c.PStall >= 0 && c.PStall <= 1):
		return errors.New("timeouts: PStall must be in [0, 1]")
	case !nonneg(c.ConnectTimeout) || !nonneg(c.FirstTokenTimeout) || !nonneg(c.IdleTimeout) || !nonneg(c.TotalTimeout):
		return errors.New("timeouts: timeouts must be finite and >= 0")
	}
	return nil
}

// Cut is what ended a call.
type Cut int

const (
	Completed Cut = iota
	CutConnect
	CutFirstToken
	CutIdle
	CutTotal
)

// Result is what the calls did.
type Result struct {
	// ByCut counts calls by what ended them, indexed by Cut.
	ByCut [5]int
	// RetriesCaused counts the cuts before the first token (connect,
	// first token): retried transparently. HandedToUser counts those
	// after it (idle, total): shown to the user as an interrupted answer.
	RetriesCaused, HandedToUser int
	// TokensThrownAway are tokens billed for calls cut after their first
	// token: their prompts and the output tokens they had received.
	TokensThrownAway int64
	// OutputThrownAway is the output part of TokensThrownAway.
	OutputThrownAway int64
	// PromptMaybeBilled are the prompts of the calls cut while waiting
	// for the first token: the provider may have started, and billed them.
	PromptMaybeBilled int64
	// FirstTokenS holds every connected call's time from connection to
	// first token (drawn even when a timeout cut it), in call order.
	FirstTokenS []float64
	// DurationP50 and DurationP95 are nearest-rank percentiles of the
	// completed calls' durations, s (0 when none completed).
	DurationP50, DurationP95 float64
}

// Run plays c's calls with randomness from src.
//
// The gaps between tokens are most of the work: a call's duration is the
// sum, in order, of its gaps, each -log(1-u)/Rate. Run first adds a call's
// gaps the fast way, as one logarithm of the product of the 1-u, which is
// within margin (a bound far above the rounding of either sum) of the
// sum in order; it replays the call's gaps in order, from a copy of src
// taken before them, only when that margin leaves the outcome in doubt:
// a gap that may exceed the idle timeout, a duration that may cross the
// total timeout, or a duration that may be a percentile. The result is
// the one of adding every gap in order.
func Run(c Config, src *rand.PCG) (Result, error) { return RunMeter(c, src, nil) }

// RunMeter is Run with a meter, told for every call of the tokens it
// draws the gaps of (and of them again when it replays the gaps): at most
// 2 × OutputTokens a call. When it says stop, the run ends with
// meter.ErrStopped.
func RunMeter(c Config, src *rand.PCG, m *meter.Meter) (Result, error) {
	if err := c.Validate(); err != nil {
		return Result{}, err
	}
	p := pcgrand.FromRand(src)
	res, err := run(c, &p, m)
	p.Store(src)
	return res, err
}

// run is RunMeter on c valid, drawing from p.
func run(c Config, p *pcgrand.PCG, m *meter.Meter) (Result, error) {
	var res Result
	res.FirstTokenS = make([]float64, 0, c.Calls)
	done := gapSums{ // the completed calls
		d: make([]float64, 0, c.Calls), margin: make([]float64, 0, c.Calls), runs: make([]gapRun, 0, c.Calls),
	}
	lo := max(1, c.OutputTokens/5)
	g := newGaps(c)
	for range c.Calls {
		if m.Stopped() {
			return Result{}, meter.ErrStopped
		}
		// Every call draws the same things in the same order, cut or not,
		// so that a timeout changes which calls are cut, not the calls.
		conn := c.Connect.Draw(p)
		first := c.FirstToken.Draw(p)
		n := lo + p.IntN(c.OutputTokens-lo+1)
		m.Add(n)
		stallAt, stall := -1, 0.0
		if c.PStall > 0 && p.Float64() < c.PStall && n > 1 {
			stallAt = p.IntN(n - 1) // the gap before token stallAt+2
			stall = c.Stall.Draw(p)
		}
		switch {
		case cut(c.ConnectTimeout, conn) || cut(c.TotalTimeout, conn):
			res.ByCut[CutConnect]++
			res.RetriesCaused++
			p.Skip(n - 1) // the gaps, drawn to keep the stream aligned
			continue
		}
		res.FirstTokenS = append(res.FirstTokenS, first)
		t := conn + first
		if cut(c.FirstTokenTimeout, first) || cut(c.TotalTimeout, t) {
			res.ByCut[CutFirstToken]++
			res.RetriesCaused++
			res.PromptMaybeBilled += int64(c.PromptTokens)
			p.Skip(n - 1)
			continue
		}
		call := gapRun{snap: *p, t0: t, stall: stall, n: n, stallAt: stallAt}
		if d, margin, ok := g.fast(p, call); ok {
			res.ByCut[Completed]++
			done.add(d, margin, call)
			continue
		}
		*p = call.snap // replay the gaps in order
		m.Add(n)
		end, got, d := g.exact(p, call)
		res.ByCut[end]++
		if end != Completed {
			res.HandedToUser++
			res.OutputThrownAway += int64(got)
			res.TokensThrownAway += int64(c.PromptTokens + got)
			continue
		}
		done.add(d, 0, gapRun{})
	}
	if m.Done() {
		return Result{}, meter.ErrStopped
	}
	res.DurationP50, res.DurationP95 = done.percentiles(g)
	return res, nil
}

// cut reports whether t exceeds a timeout that is set (> 0).
func cut(timeout, t float64) bool { return timeout > 0 && t > timeout }

// gapRun is what the gaps of one call need: the source as it was before
// them, the time of the first token t0 (s), the stall and its place
// (stallAt -1: none) and the tokens n.
type gapRun struct {
	_          standin.NoEqual // not comparable
	snap       pcgrand.PCG
	t0, stall  float64
	n, stallAt int
}

// gaps plays the gaps of calls under c's idle and total timeouts.
type gaps struct {
	rate, idle, total float64
	// xMin: a gap of 1-u = x > xMin cannot exceed the idle timeout (2:
	// any may).
	xMin float64
}

func newGaps(c Config) gaps {
	g := gaps{rate: c.Rate, idle: c.IdleTimeout, total: c.TotalTimeout, xMin: -1}
	if g.idle > 0 {
		// gap = -log(x)/rate <= idle for -log(x) <= lim, with room for the
		// rounding of the logarithm, of the division and of this bound.
		lim := g.idle*g.rate*(1-1e-9) - 1e-12
		g.xMin = 2
		if lim > 0 {
			g.xMin = fmath.Exp(-lim) * (1 + 1e-12) // 0 when no x can be cut (x >= 2^-53)
		}
	}
	return g
}

// exact plays the gaps of call from src in order, as the model states
// them: what ended the call, the tokens it got and its duration (s).
func (g gaps) exact(src *pcgrand.PCG, call gapRun) (end Cut, got int, t float64) {
	t, got = call.t0, 1
	k := 1
	for ; k < call.n; k++ {
		// A gap is an exponential draw of mean 1/Rate, -log(1-u)/Rate,
		// with core/standin/fmath's logarithm (math/rand's ExpFloat64 may call
		// math.Exp, whose last bit depends on the architecture); the stall
		// replaces its gap, whose uniform is drawn all the same.
		u := src.Float64()
		gap := call.stall
		if k-1 != call.stallAt {
			gap = -fmath.Log(1-u) / g.rate
		}
		if cut(g.idle, gap) {
			end = CutIdle
			break
		}
		if cut(g.total, t+gap) {
			end = CutTotal
			break
		}
		t += gap
		got++
	}
	src.Skip(call.n - k - 1) // the gaps after the cut, drawn to keep the stream aligned
	return end, got, t
}

// fast draws the gaps of call from src and, when no timeout can cut them,
// returns the call's duration d (s) within margin of exact's and ok; not
// ok, src has moved by an unknown number of draws. The draws come in
// batches (pcgrand's Fill, the state in locals: in the browser's module a
// draw was a call each, most of a run's time; make bench's recompute
// latency of timeouts).
func (g gaps) fast(src *pcgrand.PCG, call gapRun) (d, margin float64, ok bool) {
	if call.stallAt >= 0 && cut(g.idle, call.stall) {
		return 0, 0, false
	}
	// -sum of log(x) = -log(m) + e·log(2), m·2^-e the product of the x.
	m, e := 1.0, 0
	var buf [256]uint64
	for k := 1; k < call.n; {
		us := buf[:min(len(buf), call.n-k)]
		src.Fill(us)
		for _, u := range us {
			x := 1 - float64(u<<11>>11)/(1<<53) // src.Float64() of the draw u
			k++
			if k-2 == call.stallAt {
				continue
			}
			if x <= g.xMin {
				return 0, 0, false
			}
			m *= x // x >= 2^-53: m stays normal
			if m < 0x1p-900 {
				m *= 0x1p900
				e += 900
			}
		}
	}
	d = call.t0 + call.stall + (float64(e)*math.Ln2-fmath.Log(m))/g.rate
	// The rounding of either sum is below 1e-9 of d + n/rate (n <= MaxWork
	// gaps, each of mean 1/rate; about n·2^-53 of it): 1e-8 leaves room.
	margin = 1e-8 * (d + float64(call.n)/g.rate)
	if cut(g.total, d+margin) {
		return 0, 0, false
	}
	return d, margin, true
}

// gapSums holds the durations of the completed calls: d within margin of
// the exact duration, which gapRun replays (margin 0: d is exact).
type gapSums struct {
	d, margin []float64
	runs      []gapRun
	widest    float64 // the largest margin
}

func (s *gapSums) add(d, margin float64, call gapRun) {
	s.d, s.margin, s.runs = append(s.d, d), append(s.margin, margin), append(s.runs, call)
	if margin > s.widest {
		s.widest = margin
	}
}

// percentiles returns the nearest-rank 50th and 95th percentiles of the
// exact durations, 0 if none. The exact k-th smallest, v, is within the
// largest margin w of the k-th smallest d, a: so a duration whose interval
// lies below [a-w, a+w] is below v, one above it is above v, whether d or
// exact; those whose interval meets it are replayed. Sorted, the d of the
// first and the exact durations of the others have v at rank k.
func (s *gapSums) percentiles(g gaps) (p50, p95 float64) {
	n := len(s.d)
	if n == 0 {
		return 0, 0
	}
	k := [2]int{}
	for j, p := range [2]float64{0.5, 0.95} {
		k[j] = max(0, min(int(math.Ceil(p*float64(n)))-1, n-1))
	}
	ds := make([]float64, n)
	var a [2]float64
	for pass := range 2 {
		copy(ds, s.d)
		for i, d := range s.d { // pass 1: the exact durations near a
			if m, w := s.margin[i], s.widest; pass == 1 && m > 0 &&
				(d+m >= a[0]-w && d-m <= a[0]+w || d+m >= a[1]-w && d-m <= a[1]+w) {
				src := s.runs[i].snap
				_, _, ds[i] = g.exact(&src, s.runs[i])
			}
		}
		heapsort.Float64s(ds) // not slices.Sort (core/standin/heapsort)
		a = [2]float64{ds[k[0]], ds[k[1]]}
	}
	return a[0], a[1]
}
