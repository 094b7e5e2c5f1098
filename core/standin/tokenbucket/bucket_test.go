package tokenbucket

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"golang.org/x/time/rate"
)

// epoch is where the reference's time.Time values start: a time t, ns, of
// the bucket is epoch.Add(t) for x/time/rate.
var epoch = time.Date(2026, 2, 3, 9, 12, 0, 0, time.UTC)

func at(t int64) time.Time { return epoch.Add(time.Duration(t)) }

const sec = int64(time.Second)

// pair drives a Bucket and a rate.Limiter with the same calls and fails
// the test at the first result that differs, bit for bit.
type pair struct {
	t    testing.TB
	b    Bucket
	ref  *rate.Limiter
	rs   []Reservation
	refs []*rate.Reservation
	log  []string // the calls so far, for the failure message
}

func newPair(t testing.TB, limit float64, burst int) *pair {
	return &pair{t: t, b: New(limit, burst), ref: rate.NewLimiter(rate.Limit(limit), burst)}
}

func (p *pair) fail(what string, got, want any) {
	p.t.Helper()
	p.t.Fatalf("%s: got %v, x/time/rate %v\ncalls (limit %v, burst %d):\n%v", what, got, want, p.b.limit, p.b.burst, p.log)
}

func (p *pair) note(s string, t int64, n int) {
	p.log = append(p.log, s+" t="+time.Duration(t).String()+" n="+strconv.Itoa(n))
}

func (p *pair) tokensAt(t int64) float64 {
	p.t.Helper()
	p.note("TokensAt", t, 0)
	got, want := p.b.TokensAt(t), p.ref.TokensAt(at(t))
	if math.Float64bits(got) != math.Float64bits(want) {
		p.fail("TokensAt", got, want)
	}
	return got
}

func (p *pair) allow(t int64, n int) bool {
	p.t.Helper()
	p.note("AllowN", t, n)
	got, want := p.b.AllowN(t, n), p.ref.AllowN(at(t), n)
	if got != want {
		p.fail("AllowN", got, want)
	}
	return got
}

func (p *pair) reserve(t int64, n int) int64 {
	p.t.Helper()
	p.note("ReserveN", t, n)
	r, ref := p.b.ReserveN(t, n), p.ref.ReserveN(at(t), n)
	p.rs, p.refs = append(p.rs, r), append(p.refs, ref)
	if r.OK() != ref.OK() {
		p.fail("ReserveN OK", r.OK(), ref.OK())
	}
	return p.delay(len(p.rs)-1, t)
}

func (p *pair) delay(i int, t int64) int64 {
	p.t.Helper()
	got, want := p.rs[i].DelayFrom(t), p.refs[i].DelayFrom(at(t))
	if got != int64(want) {
		p.fail("DelayFrom of reservation #"+strconv.Itoa(i), time.Duration(got), want)
	}
	return got
}

func (p *pair) cancel(i int, t int64) {
	p.t.Helper()
	p.note("CancelAt #"+strconv.Itoa(i), t, 0)
	p.rs[i].CancelAt(t)
	p.refs[i].CancelAt(at(t))
	p.tokensAt(t)
}

// The article's token bucket: 120,000 TPM (2,000 a second), a minute's
// worth of burst, 5,000 tokens a call.
func TestArticleCases(t *testing.T) {
	p := newPair(t, 2000, 120000)
	for i := range 24 {
		if !p.allow(0, 5000) {
			t.Fatalf("call %d refused from a full bucket", i)
		}
	}
	if p.allow(0, 5000) {
		t.Fatal("25th call admitted from an empty bucket")
	}
	if p.allow(2400*1e6, 5000) {
		t.Fatal("admitted after 2.4 s: 4,800 tokens only")
	}
	if !p.allow(2500*1e6, 5000) {
		t.Fatal("refused after 2.5 s")
	}
	// Reservations queue: each waits 2.5 s behind the one before.
	for i := range 4 {
		if d := p.reserve(2500*1e6, 5000); d != int64(i+1)*2500*1e6 {
			t.Errorf("reservation %d waits %v, want %v", i, time.Duration(d), time.Duration(int64(i+1)*2500*1e6))
		}
	}
	// Cancelling the last gives its tokens back; the first, whose tokens
	// later reservations counted on, gives back nothing.
	before := p.tokensAt(3 * sec)
	p.cancel(0, 3*sec)
	if p.tokensAt(3*sec) != before {
		t.Error("cancelling a reservation others wait behind gave tokens back")
	}
	p.cancel(3, 3*sec)
	if got := p.tokensAt(3 * sec); got != before+5000 {
		t.Errorf("after cancelling the last reservation: %v tokens, want %v", got, before+5000)
	}
	// More than the bucket holds is refused and takes nothing.
	if p.reserve(100*sec, 120001) != InfDuration {
		t.Error("a reservation above the burst was granted")
	}
	if p.tokensAt(100*sec) != 120000 {
		t.Error("the refused reservation took tokens")
	}
}

func TestEdgeCases(t *testing.T) {
	t.Run("zero limit", func(t *testing.T) {
		p := newPair(t, 0, 3)
		for range 3 {
			p.reserve(0, 1)
		}
		if p.allow(0, 1) || p.reserve(0, 1) != InfDuration || p.tokensAt(1e15) != -1 {
			t.Error("a bucket that never refills granted a fourth token in time")
		}
		p.cancel(3, 0)
		p.cancel(3, -5)
	})
	t.Run("infinite limit", func(t *testing.T) {
		p := newPair(t, Inf, 0)
		if !p.allow(0, 1e9) || p.reserve(-sec, 1e9) != 0 {
			t.Error("Inf refused an event")
		}
		p.cancel(0, 0)
		p.tokensAt(sec)
	})
	t.Run("zero bucket", func(t *testing.T) {
		var b Bucket
		r := b.ReserveN(0, 1)
		if b.AllowN(0, 1) || r.OK() || r.DelayFrom(0) != InfDuration || b.TokensAt(sec) != 0 {
			t.Error("the zero Bucket admitted an event")
		}
		r.CancelAt(0)
		var zero Reservation
		zero.CancelAt(0)
		if zero.OK() || zero.DelayFrom(0) != InfDuration {
			t.Error("the zero Reservation is OK")
		}
	})
	t.Run("time goes back", func(t *testing.T) {
		p := newPair(t, 10, 5)
		p.reserve(10*sec, 5)
		p.tokensAt(9 * sec)
		p.reserve(9*sec, 3)
		p.allow(9*sec, 0)
		p.cancel(1, 8*sec)
		p.tokensAt(11 * sec)
	})
	t.Run("negative and zero n", func(t *testing.T) {
		p := newPair(t, 1, 2)
		p.reserve(0, -3)
		p.tokensAt(0)
		p.allow(0, 0)
		p.reserve(0, 0)
		p.cancel(1, 0)
		p.cancel(0, 0)
	})
	t.Run("sub-nanosecond deficit", func(t *testing.T) {
		// A deficit worth less than 1 ns of refill truncates to no wait:
		// AllowN admits it, as x/time/rate does.
		p := newPair(t, 3e9, 10) // 3 tokens a nanosecond
		p.allow(0, 10)
		if !p.allow(1, 4) || p.tokensAt(1) != -1 {
			t.Error("a deficit of a third of a nanosecond was refused")
		}
		if p.allow(1, 3) {
			t.Error("a deficit of a whole nanosecond was admitted")
		}
	})
	t.Run("far times", func(t *testing.T) {
		p := newPair(t, 0.5, 4)
		p.reserve(math.MinInt64/2, 4)
		p.reserve(math.MaxInt64/2, 4)
		p.reserve(math.MaxInt64/2, 4)
		p.tokensAt(math.MinInt64 / 2)
		p.cancel(2, math.MaxInt64/2)
		p.tokensAt(math.MaxInt64 / 2)
	})
}

func TestSaturation(t *testing.T) {
	if sub(math.MaxInt64, -1) != math.MaxInt64 || sub(math.MinInt64, 1) != math.MinInt64 || sub(5, 7) != -2 || sub(-3, math.MinInt64) != math.MaxInt64-2 {
		t.Error("sub does not saturate like time.Time.Sub")
	}
	if add(math.MaxInt64, 1) != math.MaxInt64 || add(math.MinInt64, -1) != math.MinInt64 || add(5, -7) != -2 || add(0, math.MaxInt64) != math.MaxInt64 {
		t.Error("add does not saturate")
	}
	for _, d := range []int64{0, 1, -1, 1e9 - 1, 1e9 + 1, -1e9 - 7, math.MaxInt64, math.MinInt64, 123456789123456789} {
		if got, want := seconds(d), time.Duration(d).Seconds(); math.Float64bits(got) != math.Float64bits(want) {
			t.Errorf("seconds(%d) = %v, time.Duration.Seconds %v", d, got, want)
		}
	}
	// A bucket that never refills, reserved at a positive time: the delay
	// saturates (time.Time would keep the sum beyond int64).
	b := New(0, 1)
	b.ReserveN(sec, 1)
	if r := b.ReserveN(sec, 1); !r.OK() || r.DelayFrom(sec) != InfDuration-sec {
		t.Errorf("delay %d, want saturated at %d", r.DelayFrom(sec), InfDuration-sec)
	}
}

// source reads the calls of a random sequence from fuzz bytes, or from a
// PCG when they run out.
type source struct {
	b []byte
	r *rand.Rand
}

func (s *source) u64() uint64 {
	if len(s.b) >= 8 {
		v := binary.LittleEndian.Uint64(s.b)
		s.b = s.b[8:]
		return v
	}
	return s.r.Uint64()
}

func (s *source) intn(n int) int { return int(s.u64() % uint64(n)) }

// limits and bursts the sequences draw from: rates from a token a quarter
// of an hour to a billion a second, fractional ones whose arithmetic
// rounds, Inf, and bursts from 0 to a minute of 120,000 TPM.
var (
	seqLimits = []float64{1e-3, 0.1, 1, 1.0 / 3, 10, 600.0 / 60 * 0.9, 2000, 120000.0 / 60 * 0.9, 1e6 / 7, 1e9, Inf}
	seqBursts = []int{0, 1, 2, 5, 24, 600, 1000, 120000}
)

// runSequence drives a Bucket and x/time/rate with the same ops calls at
// times that go forward (by up to a minute, or by nothing) and sometimes
// back, and fails at the first result that differs. Times stay within
// ±2^60 ns, and the waits of at most ops reservations of at most burst
// tokens at 1e-3 tokens a second within 2^62 ns: the domain where the
// package promises x/time/rate's results.
func runSequence(t testing.TB, s *source, ops int) {
	limit := seqLimits[s.intn(len(seqLimits))]
	if s.intn(4) == 0 { // any rate in [1e-3, 1e6)
		limit = math.Pow(10, -3+9*float64(s.u64()>>11)/(1<<53))
	}
	burst := seqBursts[s.intn(len(seqBursts))]
	if burst > 1000 && limit < 1 {
		burst = 1000
	}
	p := newPair(t, limit, burst)
	now := int64(s.u64()>>4) - 1<<59 // in [-2^59, 2^59)
	for range ops {
		switch s.intn(8) {
		case 0, 1, 2:
			now += int64(s.u64() % uint64(60*sec))
		case 3:
			now += int64(s.u64() % 1000) // within a microsecond
		case 4:
			now -= int64(s.u64() % uint64(5*sec))
		}
		n := s.intn(burst + 2)
		if s.intn(16) == 0 {
			n = -n
		}
		switch s.intn(6) {
		case 0, 1:
			p.reserve(now, n)
		case 2:
			p.allow(now, n)
		case 3:
			if len(p.rs) > 0 {
				p.cancel(s.intn(len(p.rs)), now)
			}
		case 4:
			if len(p.rs) > 0 {
				p.delay(s.intn(len(p.rs)), now)
			}
		case 5:
			p.tokensAt(now)
		}
	}
}

// TestSequences is the fuzz target's property on a few thousand
// sequences from a fixed PCG, so every go test run checks it.
func TestSequences(t *testing.T) {
	r := rand.New(rand.NewPCG(20261130, 1))
	for range 3000 {
		runSequence(t, &source{r: r}, 60)
	}
}

func FuzzMatchesRate(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("0123456789abcdefghijklmnopqrstuvwxyz"))
	f.Add(make([]byte, 64))
	f.Fuzz(func(t *testing.T, b []byte) {
		runSequence(t, &source{b: b, r: rand.New(rand.NewPCG(uint64(len(b)), 2))}, 40)
	})
}

// The article's token bucket: 120,000 tokens a minute with a minute's
// worth of burst. 24 calls of 5,000 tokens go at once; each later one waits
// 2.5 s more.
func ExampleBucket_ReserveN() {
	b := New(120000.0/60, 120000)
	for i := 1; i <= 26; i++ {
		r := b.ReserveN(0, 5000)
		if i >= 24 {
			fmt.Printf("call %d may start after %v\n", i, time.Duration(r.DelayFrom(0)))
		}
	}
	// Output:
	// call 24 may start after 0s
	// call 25 may start after 2.5s
	// call 26 may start after 5s
}
