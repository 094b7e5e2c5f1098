// Package ratelimit is the limiter of core/limits for a real client: the
// same two buckets on golang.org/x/time/rate, time.Time instead of
// nanoseconds, safe for concurrent use, with [Do], which waits on a [Clock]
// under a context, and [Slots], a concurrency limit. The article includes
// its Limiter region.
//
// Time is still an argument, never read from a clock by this package: the
// caller's Clock is the clock. The browser module does not link this
// package (it would link time and context); simulations use core/limits,
// which the tests hold to this Limiter's results.
package ratelimit

import (
	"context"
	"fmt"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"retrylab/core/limits"
)

// Config sets the two budgets of a [Limiter] (RPM and TPM per minute,
// bursts; see core/limits).
type Config = limits.Config

// ErrTooLarge is returned (wrapped) for a call whose tokens exceed the token
// bucket's capacity: it could never be admitted, so waiting would hang.
var ErrTooLarge = limits.ErrTooLarge

// ErrBadCost is returned (wrapped) for a negative token count.
var ErrBadCost = limits.ErrBadCost

// region Limiter

// Limiter admits an LLM call only when both budgets hold enough: one
// request from the request bucket (RPM) and prompt + max output tokens from
// the token bucket (TPM). Reserving the maximum output, not the expected
// one, keeps a long answer from overdrawing the token budget.
//
// Time is always an argument, never read from a clock: the same Limiter
// drives a real client (t = time.Now()) and a simulation (t = simulated
// time). A Limiter is safe for concurrent use.
type Limiter struct {
	mu       sync.Mutex    // makes taking from the two buckets one step
	requests *rate.Limiter // RPM/60 requests per second
	tokens   *rate.Limiter // TPM/60 tokens per second
}

// Reservation is an admitted call: it may start at At.
type Reservation struct {
	At       time.Time // when both buckets hold enough for the call
	requests *rate.Reservation
	tokens   *rate.Reservation
}

// Reserve takes one request and tokens tokens (prompt + max output) from
// the buckets at time t and returns when the call may start. It fails,
// taking nothing, when tokens exceed the token bucket's capacity.
func (l *Limiter) Reserve(t time.Time, tokens int) (Reservation, error) {
	if tokens < 0 {
		return Reservation{}, fmt.Errorf("%w: %d", ErrBadCost, tokens)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	req := l.requests.ReserveN(t, 1)
	tok := l.tokens.ReserveN(t, tokens)
	if !tok.OK() {
		// The token reservation cannot be honoured: give the request
		// back, or the request bucket would count a call never made.
		req.CancelAt(t)
		return Reservation{}, fmt.Errorf("%w: %d tokens, capacity %d", ErrTooLarge, tokens, l.tokens.Burst())
	}
	at := t.Add(max(req.DelayFrom(t), tok.DelayFrom(t)))
	return Reservation{At: at, requests: req, tokens: tok}, nil
}

// Allow admits a call of tokens tokens at time t only if both buckets hold
// enough right now; otherwise it takes nothing and returns false.
func (l *Limiter) Allow(t time.Time, tokens int) bool {
	if tokens < 0 {
		return false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.requests.TokensAt(t) < 1 || l.tokens.TokensAt(t) < float64(tokens) {
		return false
	}
	return l.requests.AllowN(t, 1) && l.tokens.AllowN(t, tokens)
}

// Cancel gives back, at time t, what r reserved, as far as later
// reservations allow (a call that will not be made).
func (r Reservation) Cancel(t time.Time) {
	if r.requests != nil {
		r.requests.CancelAt(t)
		r.tokens.CancelAt(t)
	}
}

// Clock is the time a caller lives in: the real clock in production, a
// fake one in tests and simulations.
type Clock interface {
	Now() time.Time
	Sleep(ctx context.Context, d time.Duration) error
}

// Do makes one call in the order the article recommends: first wait for
// rate capacity, then take a concurrency slot immediately before the call,
// and give it back as soon as the call returns.
//
// The order matters. A slot taken before the rate wait would be held by a
// worker that does nothing but sleep until the buckets refill: with long
// rate waits every slot ends up idle while ready calls queue behind them.
// Taken after the wait, a slot is only ever held by a call on the wire.
func Do(ctx context.Context, clock Clock, l *Limiter, slots *Slots, tokens int, call func(context.Context) error) error {
	r, err := l.Reserve(clock.Now(), tokens)
	if err != nil {
		return err
	}
	if err := clock.Sleep(ctx, r.At.Sub(clock.Now())); err != nil {
		r.Cancel(clock.Now()) // the call will not be made
		return err
	}
	if err := slots.Acquire(ctx); err != nil {
		return err // the call is not made; its reservation has matured and cannot be given back
	}
	defer slots.Release()
	return call(ctx)
}

// endregion

// NewLimiter returns a Limiter whose buckets start full. RPM and TPM must
// be finite and > 0, and bursts >= 0 (limits.Config.Validate).
func NewLimiter(c Config) (*Limiter, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	rb, tb := c.Bursts()
	return &Limiter{
		requests: rate.NewLimiter(rate.Limit(c.RPM/60), rb),
		tokens:   rate.NewLimiter(rate.Limit(c.TPM/60), tb),
	}, nil
}

// Available returns what the buckets hold at time t: requests and tokens
// (both may be negative while reservations are pending).
func (l *Limiter) Available(t time.Time) (requests, tokens float64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.requests.TokensAt(t), l.tokens.TokensAt(t)
}

// Slots is a concurrency limit: at most n calls hold a slot at once. The
// zero Slots is not usable; build it with NewSlots.
type Slots struct{ ch chan struct{} }

// NewSlots returns a limit of n >= 1 concurrent calls.
func NewSlots(n int) *Slots { return &Slots{ch: make(chan struct{}, max(1, n))} }

// Acquire takes a slot, waiting until one is free or ctx is done.
func (s *Slots) Acquire(ctx context.Context) error {
	select {
	case s.ch <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// TryAcquire takes a slot if one is free now.
func (s *Slots) TryAcquire() bool {
	select {
	case s.ch <- struct{}{}:
		return true
	default:
		return false
	}
}

// Release gives a slot back. Releasing more than was acquired panics.
func (s *Slots) Release() {
	select {
	case <-s.ch:
	default:
		panic("ratelimit: Slots.Release without Acquire")
	}
}

// InUse returns the slots held now.
func (s *Slots) InUse() int { return len(s.ch) }

// Cap returns the number of slots.
func (s *Slots) Cap() int { return cap(s.ch) }
