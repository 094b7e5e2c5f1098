//go:build standin_orig_tokenbucket

// The original in the stand-in's place, for core/standin/bench.sh (what
// tokenbucket saves) and for running tokenbucket's tests against
// golang.org/x/time/rate. Unlike the stand-in, a copied Bucket shares its
// limiter with the original: enough to measure the module, not to ship.

package tokenbucket

import (
	"math"
	"time"

	"golang.org/x/time/rate"
)

// Inf is rate.Inf.
const Inf = math.MaxFloat64

// InfDuration is rate.InfDuration, ns.
const InfDuration int64 = math.MaxInt64

// Bucket is a rate.Limiter; the zero Bucket refuses every event.
type Bucket struct {
	l     *rate.Limiter
	limit float64
	burst int
}

// New is rate.NewLimiter.
func New(limit float64, burst int) Bucket {
	return Bucket{l: rate.NewLimiter(rate.Limit(limit), burst), limit: limit, burst: burst}
}

func (b *Bucket) lim() *rate.Limiter {
	if b.l == nil {
		b.l = rate.NewLimiter(rate.Limit(b.limit), b.burst)
	}
	return b.l
}

func nsTime(t int64) time.Time { return time.Unix(0, t) }

// Limit is rate.Limiter.Limit.
func (b *Bucket) Limit() float64 { return b.limit }

// Burst is rate.Limiter.Burst.
func (b *Bucket) Burst() int { return b.burst }

// TokensAt is rate.Limiter.TokensAt.
func (b *Bucket) TokensAt(t int64) float64 { return b.lim().TokensAt(nsTime(t)) }

// AllowN is rate.Limiter.AllowN.
func (b *Bucket) AllowN(t int64, n int) bool { return b.lim().AllowN(nsTime(t), n) }

// ReserveN is rate.Limiter.ReserveN.
func (b *Bucket) ReserveN(t int64, n int) Reservation {
	return Reservation{r: b.lim().ReserveN(nsTime(t), n)}
}

// Reservation is a rate.Reservation.
type Reservation struct{ r *rate.Reservation }

// OK is rate.Reservation.OK; the zero Reservation is not OK.
func (r *Reservation) OK() bool { return r.r != nil && r.r.OK() }

// DelayFrom is rate.Reservation.DelayFrom, ns.
func (r *Reservation) DelayFrom(t int64) int64 {
	if r.r == nil {
		return InfDuration
	}
	return int64(r.r.DelayFrom(nsTime(t)))
}

// CancelAt is rate.Reservation.CancelAt.
func (r *Reservation) CancelAt(t int64) {
	if r.r != nil {
		r.r.CancelAt(nsTime(t))
	}
}
