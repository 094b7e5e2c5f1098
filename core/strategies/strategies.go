// Package strategies compares client retry strategies against a server
// that fails each call independently with a fixed probability, as in
// Marc Brooker's "Fixing retries with token buckets and circuit breakers"
// (2022, https://brooker.co.za/blog/2022/02/28/retries.html): no retries;
// N retries; adaptive retries, where each success drops part of a token
// into a bounded bucket and each retry needs a whole token; and a retry
// circuit breaker, where a client retries only while the failure share of
// its own recent calls is below a threshold. First tries are always sent.
// The clients are open-loop: how many requests each makes does not depend
// on the answers. The bucket and the breaker are per client, so the same
// total traffic split among many small clients gives each of them little
// history: the post's point about fleets of small clients.
//
// The post describes the strategies and the shapes of its results; the
// numbers here (deposit 0.1, bucket of 10 tokens, breaker window of 10
// calls and threshold 10%) are this project's choices, documented in
// content/LANG/methods.md. Randomness is an argument (a seed).
package strategies

import (
	"math"
	"math/rand/v2"
)

// Strategy is a retry strategy.
type Strategy int

// The strategies, in the order the results list them.
const (
	NoRetries Strategy = iota
	Retries            // up to N retries, always
	Adaptive           // token bucket
	Breaker            // retries stop while the recent failure share is at or above the threshold
)

// All lists the strategies in order.
var All = []Strategy{NoRetries, Retries, Adaptive, Breaker}

var names = [...]string{"none", "retries", "adaptive", "breaker"}

func (s Strategy) String() string { return names[s] }

// Params are the inputs of one run.
type Params struct {
	Requests    int     // total first tries, split evenly among the clients
	Clients     int     // >= 1
	Retries     int     // N: retries after the first try
	Deposit     float64 // tokens a success adds to its client's bucket
	BucketCap   float64 // the bucket's size; it starts full
	Window      int     // calls a breaker remembers (>= 1)
	Threshold   float64 // failure share at or above which a breaker stops retries
	FailureRate float64 // probability that one call fails
}

// Result is one strategy's outcome.
type Result struct {
	SuccessRate float64 // requests that succeeded / requests
	Load        float64 // calls the server received / requests
}

// Run simulates strategy st. Client c makes Requests/Clients requests (the
// first Requests mod Clients clients one more), one after the other; every
// call fails with probability FailureRate, drawn from r: one Float64 a
// call, in the order of the calls.
func Run(p Params, st Strategy, r *rand.Rand) Result {
	s := Runner{src: r}
	return s.run(p, st)
}

// maxKept bounds the draws a Runner keeps (8 bytes each).
const maxKept = 1 << 18

// A Runner runs strategies as Run does, each run with a fresh source of
// the same seeds: the calculator's runs, every strategy at every failure
// rate, all read one stream of draws. The Runner draws the stream once and
// keeps its first draws, as many as a run can make (maxKept at most), for
// the runs that follow; past those, each run goes on from a copy of the
// source's state there. A Runner must not be copied.
type Runner struct {
	kept    []float64  // the stream's first draws, at most maxKept
	maxKept int        // maxKept, or 0 in Run (its source is the caller's)
	end     rand.PCG   // the source's state after kept's draws
	live    rand.PCG   // the current run's source state, past kept
	src     *rand.Rand // the current run's source past kept (of live if maxKept > 0)
	window  []bool     // the breaker's ring of recent outcomes (true: failed)
}

// NewRunner returns a Runner whose every run draws from a fresh
// rand.New(rand.NewPCG(seed1, seed2)).
func NewRunner(seed1, seed2 uint64) *Runner {
	r := &Runner{end: *rand.NewPCG(seed1, seed2), maxKept: maxKept}
	r.src = rand.New(&r.live)
	return r
}

// Run returns Run(p, st, rand.New(rand.NewPCG(seed1, seed2))) for the
// Runner's seeds.
func (r *Runner) Run(p Params, st Strategy) Result {
	r.live = r.end
	// Every draw the run can make, kept (the calculator's runs at failure
	// rate 1 make them all), so that the loops read them from kept.
	if most := min(r.maxKept, p.Requests*(max(p.Retries, 0)+1)); most > len(r.kept) {
		r.kept = append(make([]float64, 0, most), r.kept...)
		for len(r.kept) < most {
			r.kept = append(r.kept, r.src.Float64())
		}
		r.end = r.live
	}
	return r.run(p, st)
}

// draw returns the run's draw k, its (k+1)th: from kept, or past kept,
// where the run's draws are in order, from its source.
func (r *Runner) draw(k int) float64 {
	if k < len(r.kept) {
		return r.kept[k]
	}
	return r.drawLive()
}

// drawLive is the run's next draw from its source. (Not inlined, so that
// draw is: the loops' calls all read kept but in Run.)
//
//go:noinline
func (r *Runner) drawLive() float64 { return r.src.Float64() }

// run simulates strategy st with the draws of r. The calls of a request
// stop at its first success or after p.Retries retries, or when st allows
// no retry: never for NoRetries, always for Retries, when the client's
// bucket holds a whole token for Adaptive, and when the failure share of
// the client's recent calls is below the threshold for Breaker. The
// clients' requests are one sequence: client 0's, then client 1's, ….
func (r *Runner) run(p Params, st Strategy) Result {
	if p.Requests <= 0 {
		return Result{}
	}
	var calls, ok int
	switch st {
	case NoRetries:
		calls, ok = r.plain(p.Requests, 0, p.FailureRate)
	case Retries:
		calls, ok = r.plain(p.Requests, p.Retries, p.FailureRate)
	case Adaptive:
		calls, ok = r.adaptive(p)
	case Breaker:
		r.window = append(r.window[:0], make([]bool, max(p.Window, 1))...)
		calls, ok = r.breaker(p)
	}
	return Result{SuccessRate: float64(ok) / float64(p.Requests), Load: float64(calls) / float64(p.Requests)}
}

// requests is the requests of client c: p.Requests/p.Clients, and one
// more for the first p.Requests mod p.Clients clients.
func requests(p Params, c int) int {
	return p.Requests/p.Clients + b2i(c < p.Requests%p.Clients)
}

// plain makes n requests of up to retries retries each, always allowed
// (no state per client), and returns the calls made and the requests that
// succeeded.
func (r *Runner) plain(n, retries int, f float64) (calls, ok int) {
	for done, attempt := 0, 0; done < n; calls++ {
		success := b2i(!(r.draw(calls) < f))
		end := success | b2i(attempt >= retries)
		ok += success
		done += end
		attempt = (attempt + 1) * (1 - end)
	}
	return calls, ok
}

// adaptive makes the requests of every client with a token bucket, which
// starts full.
func (r *Runner) adaptive(p Params) (calls, ok int) {
	capNaN := b2i(p.BucketCap != p.BucketCap)
	for c := range p.Clients {
		tokens := p.BucketCap
		for done, attempt, n := 0, 0, requests(p, c); done < n; calls++ {
			success := b2i(!(r.draw(calls) < p.FailureRate))
			retry := (1 - success) & b2i(attempt < p.Retries) & b2i(tokens >= 1)
			ok += success
			done += 1 - retry
			attempt = (attempt + 1) * retry
			// A success drops a deposit into the bucket, a retry takes a
			// whole token. The bucket's fill is min(cap, tokens+deposit)
			// (the builtin min is a call in WebAssembly), but for the
			// sign of a zero (min(-0, +0) is -0, this +0), which changes
			// nothing: tokens are compared with 1 and moved by whole
			// tokens and deposits.
			fill := tokens + p.Deposit
			fill = pick(b2i(fill > p.BucketCap)|capNaN == 1, p.BucketCap, fill)
			tokens = pick(success == 1, fill, pick(retry == 1, tokens-1, tokens))
		}
	}
	return calls, ok
}

// breaker makes the requests of every client with a retry circuit
// breaker, whose window starts empty.
func (r *Runner) breaker(p Params) (calls, ok int) {
	window := r.window
	for c := range p.Clients {
		filled, pos, fails := 0, 0, 0
		for done, attempt, n := 0, 0, requests(p, c); done < n; calls++ {
			failed := r.draw(calls) < p.FailureRate
			full := b2i(filled == len(window))
			fails += b2i(failed) - full&b2i(window[pos]) // the oldest outcome leaves a full window
			filled += 1 - full
			window[pos] = failed
			pos = (pos + 1) * b2i(pos+1 < len(window))
			retry := b2i(failed) & b2i(attempt < p.Retries) & b2i(float64(fails) < p.Threshold*float64(filled))
			ok += 1 - b2i(failed)
			done += 1 - retry
			attempt = (attempt + 1) * retry
		}
	}
	return calls, ok
}

// b2i is 1 for true and 0 for false. The loops above use it for the
// outcomes of calls, coin flips: the compiler makes it a conditional
// move, and a branch on them would be mispredicted about half the time.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// pick is x if c, else y, without a branch (as b2i).
func pick(c bool, x, y float64) float64 {
	bits := math.Float64bits(y)
	if c {
		bits = math.Float64bits(x)
	}
	return math.Float64frombits(bits)
}

// Work is the largest number of calls one run can make, plus 4 for each
// client (its bucket and breaker start afresh).
func Work(p Params) float64 {
	return float64(p.Requests)*float64(p.Retries+1) + 4*float64(p.Clients)
}
