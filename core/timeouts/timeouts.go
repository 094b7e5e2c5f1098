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
// Randomness is the *rand.Rand passed to Run (math/rand/v2), drawn call by
// call; logarithms and exponentials are core/fmath's, so a seed gives one
// result on every architecture. Times are seconds.
package timeouts

import (
	"errors"
	"math"
	"math/rand/v2"

	"retrylab/core/fmath"
	"retrylab/core/heapsort"
)

// Dist is a log-logistic distribution of a duration, s.
type Dist struct {
	Median float64 // > 0
	Shape  float64 // > 0; larger is narrower
}

// Draw returns Median·(u/(1-u))^(1/Shape) for u uniform in (0, 1).
func (d Dist) Draw(r *rand.Rand) float64 {
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

// Run plays c's calls with randomness from r.
func Run(c Config, r *rand.Rand) (Result, error) {
	if err := c.Validate(); err != nil {
		return Result{}, err
	}
	cut := func(timeout, t float64) bool { return timeout > 0 && t > timeout }
	var res Result
	res.FirstTokenS = make([]float64, 0, c.Calls)
	var durations []float64
	lo := max(1, c.OutputTokens/5)
	for range c.Calls {
		// Every call draws the same things in the same order, cut or not,
		// so that a timeout changes which calls are cut, not the calls.
		conn := c.Connect.Draw(r)
		first := c.FirstToken.Draw(r)
		n := lo + r.IntN(c.OutputTokens-lo+1)
		stallAt, stall := -1, 0.0
		if c.PStall > 0 && r.Float64() < c.PStall && n > 1 {
			stallAt = r.IntN(n - 1) // the gap before token stallAt+2
			stall = c.Stall.Draw(r)
		}
		switch {
		case cut(c.ConnectTimeout, conn) || cut(c.TotalTimeout, conn):
			res.ByCut[CutConnect]++
			res.RetriesCaused++
			for k := 1; k < n; k++ { // the gaps, drawn to keep the stream aligned
				gapDraw(r)
			}
			continue
		}
		res.FirstTokenS = append(res.FirstTokenS, first)
		t := conn + first
		if cut(c.FirstTokenTimeout, first) || cut(c.TotalTimeout, t) {
			res.ByCut[CutFirstToken]++
			res.RetriesCaused++
			res.PromptMaybeBilled += int64(c.PromptTokens)
			for k := 1; k < n; k++ {
				gapDraw(r)
			}
			continue
		}
		got, end := 1, Completed
		for k := 1; k < n; k++ {
			gap := gapDraw(r) / c.Rate
			if k-1 == stallAt {
				gap = stall
			}
			if end != Completed {
				continue
			}
			switch {
			case cut(c.IdleTimeout, gap):
				end = CutIdle
			case cut(c.TotalTimeout, t+gap):
				end = CutTotal
			default:
				t += gap
				got++
			}
		}
		res.ByCut[end]++
		if end != Completed {
			res.HandedToUser++
			res.OutputThrownAway += int64(got)
			res.TokensThrownAway += int64(c.PromptTokens + got)
			continue
		}
		durations = append(durations, t)
	}
	heapsort.Float64s(durations) // not slices.Sort (core/heapsort)
	res.DurationP50, res.DurationP95 = percentile(durations, 0.5), percentile(durations, 0.95)
	return res, nil
}

// gapDraw returns an exponential draw of mean 1, -log(1-u), with
// core/fmath's logarithm (math/rand's ExpFloat64 may call math.Exp, whose
// last bit depends on the architecture).
func gapDraw(r *rand.Rand) float64 { return -fmath.Log(1 - r.Float64()) }

// percentile returns the nearest-rank p-quantile of sorted xs, 0 if empty.
func percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	k := int(math.Ceil(p*float64(len(xs)))) - 1
	return xs[max(0, min(k, len(xs)-1))]
}
