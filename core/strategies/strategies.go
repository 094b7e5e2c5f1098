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
// call fails with probability FailureRate, drawn from r.
func Run(p Params, st Strategy, r *rand.Rand) Result {
	if p.Requests <= 0 {
		return Result{}
	}
	window := make([]bool, max(p.Window, 1))
	calls, ok := 0, 0
	per, extra := p.Requests/p.Clients, p.Requests%p.Clients
	for c := range p.Clients {
		n := per
		if c < extra {
			n++
		}
		tokens := p.BucketCap
		filled, pos, fails := 0, 0, 0 // the breaker's ring of recent outcomes
		for range n {
			for attempt := 0; ; attempt++ {
				calls++
				failed := r.Float64() < p.FailureRate
				if filled == len(window) {
					if window[pos] {
						fails--
					}
				} else {
					filled++
				}
				window[pos] = failed
				if failed {
					fails++
				}
				if pos++; pos == len(window) {
					pos = 0
				}
				if !failed {
					ok++
					tokens = min(p.BucketCap, tokens+p.Deposit)
					break
				}
				if attempt >= p.Retries {
					break
				}
				allowed := false
				switch st {
				case Retries:
					allowed = true
				case Adaptive:
					if tokens >= 1 {
						tokens--
						allowed = true
					}
				case Breaker:
					allowed = float64(fails) < p.Threshold*float64(filled)
				}
				if !allowed {
					break
				}
			}
		}
	}
	return Result{SuccessRate: float64(ok) / float64(p.Requests), Load: float64(calls) / float64(p.Requests)}
}

// Work is the largest number of calls one run can make, plus 4 for each
// client (its bucket and breaker start afresh).
func Work(p Params) float64 {
	return float64(p.Requests)*float64(p.Retries+1) + 4*float64(p.Clients)
}
