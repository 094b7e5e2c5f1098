//go:build !standin_orig_tokenbucket

// Package tokenbucket is the token bucket of golang.org/x/time/rate with
// time as an argument: int64 nanoseconds since an epoch the caller picks,
// instead of time.Time. It imports neither time nor context, so the
// browser's module can link it (package core/standin).
//
// Every result is x/time/rate's to the bit (the tests drive both with the
// same random calls), as long as every time, and every time plus a delay,
// stays within int64 (about ±292 years from the epoch): a time that would
// go beyond saturates at math.MaxInt64 or math.MinInt64, where time.Time
// would keep counting. The arithmetic is kept unfused (explicit float64
// conversions), so results are also the same on architectures whose
// compiler fuses multiply-adds, where x/time/rate's may differ in the last
// bit.
//
// Only the calls the project needs are ported: ReserveN, AllowN, TokensAt,
// and a Reservation's OK, DelayFrom and CancelAt; no SetLimit, SetBurst or
// Wait (waiting needs a clock).
package tokenbucket

import "math"

// Inf is the infinite rate: every event is allowed, whatever the burst
// (rate.Inf).
const Inf = math.MaxFloat64

// InfDuration is the delay of a reservation that is not OK, ns
// (rate.InfDuration).
const InfDuration int64 = math.MaxInt64

// Bucket holds up to burst tokens and refills at limit tokens per second.
// It starts full. Times are int64 nanoseconds since the caller's epoch.
//
// The zero Bucket has limit 0 and burst 0: it refuses every event. A Bucket
// is not safe for concurrent use: a caller that shares one takes a lock.
type Bucket struct {
	limit  float64 // tokens per second
	burst  int
	tokens float64
	// last is when tokens was last updated, ns; before the first update
	// tokens equals burst and last does not matter.
	last int64
	// lastEvent is the latest time of a rate-limited event (past or
	// future), ns.
	lastEvent int64
}

// New returns a full bucket of burst tokens refilled at limit tokens per
// second (rate.NewLimiter). A limit of Inf allows every event; a limit <= 0
// never refills.
func New(limit float64, burst int) Bucket {
	return Bucket{limit: limit, burst: burst, tokens: float64(burst)}
}

// Limit returns the refill rate, tokens per second.
func (b *Bucket) Limit() float64 { return b.limit }

// Burst returns the capacity: the most one ReserveN or AllowN may take.
func (b *Bucket) Burst() int { return b.burst }

// TokensAt returns the tokens available at time t, ns (negative while
// reservations are pending). It changes nothing.
func (b *Bucket) TokensAt(t int64) float64 { return b.advance(t) }

// AllowN takes n tokens at time t, ns, if they are there now (a deficit
// worth less than a nanosecond of refill counts as there, as in
// x/time/rate); otherwise it takes nothing and returns false.
func (b *Bucket) AllowN(t int64, n int) bool { return b.reserveN(t, n, 0).ok }

// ReserveN takes n tokens at time t, ns, and returns when they may be used:
// the bucket may go negative, and later reservations wait behind this one.
// The reservation is not OK, and takes nothing, when n exceeds the burst
// (unless the limit is Inf).
func (b *Bucket) ReserveN(t int64, n int) Reservation { return b.reserveN(t, n, InfDuration) }

// Reservation is what ReserveN took. The zero Reservation is not OK.
type Reservation struct {
	ok        bool
	b         *Bucket
	tokens    int
	timeToAct int64   // ns
	limit     float64 // the bucket's limit when reserved
}

// OK reports whether the bucket granted the tokens.
func (r *Reservation) OK() bool { return r.ok }

// DelayFrom returns how long after t, ns, the reserved tokens may be used:
// 0 if they may be used at t, InfDuration if the reservation is not OK.
func (r *Reservation) DelayFrom(t int64) int64 {
	if !r.ok {
		return InfDuration
	}
	return max(sub(r.timeToAct, t), 0)
}

// CancelAt gives back, at time t, ns, the tokens of r that no later
// reservation has counted on (rate.Reservation.CancelAt): the holder will
// not act. It does nothing when r is not OK or its time has passed.
func (r *Reservation) CancelAt(t int64) {
	if !r.ok {
		return
	}
	b := r.b
	if b.limit == Inf || r.tokens == 0 || r.timeToAct < t {
		return
	}
	// The tokens reserved after r (between r's time and the last event)
	// are not given back.
	restore := float64(r.tokens) - tokensFromDuration(r.limit, sub(b.lastEvent, r.timeToAct))
	if restore <= 0 {
		return
	}
	tokens := b.advance(t) + restore
	if burst := float64(b.burst); tokens > burst {
		tokens = burst
	}
	b.last = t
	b.tokens = tokens
	if r.timeToAct == b.lastEvent {
		if prev := add(r.timeToAct, durationFromTokens(r.limit, float64(-r.tokens))); prev >= t {
			b.lastEvent = prev
		}
	}
}

// reserveN takes n tokens at t if they are due within maxFutureReserve ns.
func (b *Bucket) reserveN(t int64, n int, maxFutureReserve int64) Reservation {
	if b.limit == Inf {
		return Reservation{ok: true, b: b, tokens: n, timeToAct: t}
	}
	tokens := b.advance(t) - float64(n)
	var wait int64
	if tokens < 0 {
		wait = durationFromTokens(b.limit, -tokens)
	}
	ok := n <= b.burst && wait <= maxFutureReserve
	r := Reservation{ok: ok, b: b, limit: b.limit}
	if ok {
		r.tokens = n
		r.timeToAct = add(t, wait)
		b.last = t
		b.tokens = tokens
		b.lastEvent = r.timeToAct
	}
	return r
}

// advance returns the tokens at t: those at last plus the refill since,
// up to the burst. A t before last refills nothing.
func (b *Bucket) advance(t int64) float64 {
	last := min(b.last, t)
	tokens := b.tokens + tokensFromDuration(b.limit, sub(t, last))
	if burst := float64(b.burst); tokens > burst {
		tokens = burst
	}
	return tokens
}

// durationFromTokens returns the ns it takes to refill tokens at limit
// tokens per second, truncated; InfDuration when limit <= 0 or beyond int64.
func durationFromTokens(limit, tokens float64) int64 {
	if limit <= 0 {
		return InfDuration
	}
	d := (tokens / limit) * 1e9
	if d > float64(math.MaxInt64) {
		return InfDuration
	}
	return int64(d)
}

// tokensFromDuration returns the tokens refilled in d ns at limit tokens
// per second; 0 when limit <= 0. The conversion keeps the product from
// being fused into a caller's addition.
func tokensFromDuration(limit float64, d int64) float64 {
	if limit <= 0 {
		return 0
	}
	return float64(seconds(d) * limit)
}
