package limits

import (
	"errors"
	"math"
	"retrylab/core/standin"
	"strconv"

	"retrylab/core/standin/errwrap"
	"retrylab/core/standin/tokenbucket"
)

// Config sets the two budgets of a [Limiter].
type Config struct {
	RPM float64 // requests per minute, > 0
	TPM float64 // tokens per minute, > 0
	// RequestBurst and TokenBurst are the bucket capacities: how much may
	// be spent at once after a quiet period. Zero means one minute's worth
	// (RPM and TPM rounded down, at least 1), the bucket of the article.
	// A bucket starts full and refills at RPM/60 (TPM/60) a second, so in
	// the first minute after a quiet period it admits up to its burst
	// plus one minute of refill: with the default, twice RPM and TPM (see
	// [Config.FirstMinute]); a smaller burst lowers that peak.
	RequestBurst, TokenBurst int
}

// ErrTooLarge is returned (wrapped) for a call whose tokens exceed the token
// bucket's capacity: it could never be admitted, so waiting would hang.
var ErrTooLarge = errors.New("ratelimit: call needs more tokens than the bucket holds")

// ErrBadCost is returned (wrapped) for a negative token count.
var ErrBadCost = errors.New("ratelimit: negative token count")

// Validate reports a Config that NewLimiter refuses: RPM and TPM must be
// finite and > 0, and bursts >= 0.
func (c Config) Validate() error {
	if !(c.RPM > 0) || !(c.TPM > 0) || math.IsInf(c.RPM, 0) || math.IsInf(c.TPM, 0) {
		return errors.New("ratelimit: RPM and TPM must be finite and > 0, got " + formatFloat(c.RPM) + " and " + formatFloat(c.TPM))
	}
	if c.RequestBurst < 0 || c.TokenBurst < 0 {
		return errors.New("ratelimit: bursts must be >= 0, got " + strconv.Itoa(c.RequestBurst) + " and " + strconv.Itoa(c.TokenBurst))
	}
	return nil
}

// Bursts returns the capacities of the request and the token bucket: the
// Config's, or one minute's worth where they are 0.
func (c Config) Bursts() (requests, tokens int) {
	requests, tokens = c.RequestBurst, c.TokenBurst
	if requests == 0 {
		requests = minuteBurst(c.RPM)
	}
	if tokens == 0 {
		tokens = minuteBurst(c.TPM)
	}
	return requests, tokens
}

// FirstMinute returns the most the limiter admits in the first 60 s after
// a quiet period (its buckets full): each bucket's burst plus a minute of
// refill, requests and tokens. With the default bursts that is 2·RPM and
// 2·TPM (up to rounding); in any later minute, at most RPM and TPM plus
// what the buckets had saved.
func (c Config) FirstMinute() (requests, tokens float64) {
	rb, tb := c.Bursts()
	return float64(rb) + c.RPM, float64(tb) + c.TPM
}

// BurstFor returns the capacity of a bucket that holds seconds s of a
// per-minute rate, rounded down and at least 1: BurstFor(600, 60) = 600,
// a minute's worth; BurstFor(600, 6) = 60.
func BurstFor(perMin, s float64) int {
	return minuteBurst(perMin * s / 60)
}

func minuteBurst(perMin float64) int {
	if perMin >= math.MaxInt32 {
		return math.MaxInt32
	}
	return max(1, int(perMin))
}

// formatFloat is fmt's %v of a float64.
func formatFloat(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// Limiter admits an LLM call only when both budgets hold enough: one
// request from the request bucket (RPM) and prompt + max output tokens from
// the token bucket (TPM), as core/ratelimit's Limiter does, with time as
// int64 nanoseconds since the caller's epoch (the simulations' time).
// Taking from the two buckets is one step. A Limiter is not safe for
// concurrent use; core/ratelimit's is.
type Limiter struct {
	_        standin.NoEqual    // not comparable
	requests tokenbucket.Bucket // RPM/60 requests per second
	tokens   tokenbucket.Bucket // TPM/60 tokens per second
}

// NewLimiter returns a Limiter whose buckets start full; it refuses what
// [Config.Validate] refuses.
func NewLimiter(c Config) (*Limiter, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	rb, tb := c.Bursts()
	return &Limiter{requests: tokenbucket.New(c.RPM/60, rb), tokens: tokenbucket.New(c.TPM/60, tb)}, nil
}

// Reservation is an admitted call: it may start at At. The zero
// Reservation holds nothing.
type Reservation struct {
	At       int64 // ns: when both buckets hold enough for the call
	requests tokenbucket.Reservation
	tokens   tokenbucket.Reservation
}

// Reserve takes one request and tokens tokens (prompt + max output) from
// the buckets at time t, ns, and returns when the call may start. It fails,
// taking nothing, when tokens exceed the token bucket's capacity
// (ErrTooLarge) or are negative (ErrBadCost).
func (l *Limiter) Reserve(t int64, tokens int) (Reservation, error) {
	if tokens < 0 {
		return Reservation{}, errwrap.Detail(ErrBadCost, strconv.Itoa(tokens))
	}
	req := l.requests.ReserveN(t, 1)
	tok := l.tokens.ReserveN(t, tokens)
	if !tok.OK() {
		// The token reservation cannot be honoured: give the request
		// back, or the request bucket would count a call never made.
		req.CancelAt(t)
		return Reservation{}, errwrap.Detail(ErrTooLarge, strconv.Itoa(tokens)+" tokens, capacity "+strconv.Itoa(l.tokens.Burst()))
	}
	d := max(req.DelayFrom(t), tok.DelayFrom(t))
	at := t + d
	if at < t { // beyond int64: saturate
		at = math.MaxInt64
	}
	return Reservation{At: at, requests: req, tokens: tok}, nil
}

// Allow admits a call of tokens tokens at time t, ns, only if both buckets
// hold enough right now; otherwise it takes nothing and returns false.
func (l *Limiter) Allow(t int64, tokens int) bool {
	if tokens < 0 {
		return false
	}
	if l.requests.TokensAt(t) < 1 || l.tokens.TokensAt(t) < float64(tokens) {
		return false
	}
	return l.requests.AllowN(t, 1) && l.tokens.AllowN(t, tokens)
}

// Cancel gives back, at time t, ns, what r reserved, as far as later
// reservations allow (a call that will not be made).
func (r Reservation) Cancel(t int64) {
	r.requests.CancelAt(t)
	r.tokens.CancelAt(t)
}

// Available returns what the buckets hold at time t, ns: requests and
// tokens (both may be negative while reservations are pending).
func (l *Limiter) Available(t int64) (requests, tokens float64) {
	return l.requests.TokensAt(t), l.tokens.TokensAt(t)
}
