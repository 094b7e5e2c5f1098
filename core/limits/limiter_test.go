package limits

import (
	"errors"
	"fmt"
	"math"
	"testing"
)

const sec = int64(1e9)

func at(s float64) int64 { return int64(s * 1e9) }

func mustLimiter(t *testing.T, c Config) *Limiter {
	t.Helper()
	l, err := NewLimiter(c)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// The article's capacity: 120,000 TPM and 5,000 tokens a call. A full
// bucket admits 24 calls at once, then one every 2.5 s.
func TestLimiterTokenBound(t *testing.T) {
	l := mustLimiter(t, Config{RPM: 600, TPM: 120000})
	for i := range 24 {
		if !l.Allow(0, 5000) {
			t.Fatalf("call %d refused from a full bucket", i)
		}
	}
	if l.Allow(0, 5000) {
		t.Fatal("25th call admitted: the token bucket is empty")
	}
	if l.Allow(at(2.4), 5000) {
		t.Fatal("admitted after 2.4 s: 4,800 tokens only")
	}
	if !l.Allow(at(2.5), 5000) {
		t.Fatal("refused after 2.5 s: 5,000 tokens refilled")
	}
	if req, _ := l.Available(at(2.5)); req < 598.99 || req > 599.01 {
		t.Errorf("request bucket holds %v, want 599 (600 - 24, +25 refilled in 2.5 s up to 600, - 1)", req)
	}
}

// A refused Allow takes nothing from either bucket.
func TestAllowAllOrNothing(t *testing.T) {
	l := mustLimiter(t, Config{RPM: 60, TPM: 1000})
	if l.Allow(0, 2000) || l.Allow(0, -1) {
		t.Fatal("a call larger than the token bucket, or of negative tokens, was admitted")
	}
	if req, tok := l.Available(0); req != 60 || tok != 1000 {
		t.Fatalf("after a refusal the buckets hold %v requests and %v tokens, want 60 and 1000", req, tok)
	}
	l = mustLimiter(t, Config{RPM: 1, TPM: 1000})
	if !l.Allow(0, 10) || l.Allow(0, 10) {
		t.Fatal("RPM 1: want one admission then a refusal")
	}
	if _, tok := l.Available(0); tok != 990 {
		t.Fatalf("token bucket holds %v, want 990: the refused call must not take tokens", tok)
	}
}

func TestReserve(t *testing.T) {
	l := mustLimiter(t, Config{RPM: 600, TPM: 120000})
	for i := range 30 {
		r, err := l.Reserve(0, 5000)
		if err != nil {
			t.Fatal(err)
		}
		var want int64
		if i >= 24 {
			want = at(2.5 * float64(i-23))
		}
		if d := r.At - want; d < -1000 || d > 1000 {
			t.Errorf("reservation %d at %d ns, want %d", i, r.At, want)
		}
	}
}

// A call larger than the token bucket fails at once and gives the request
// back, instead of waiting forever; the messages are those of fmt.Errorf
// with %w.
func TestReserveRefusals(t *testing.T) {
	l := mustLimiter(t, Config{RPM: 2, TPM: 1000})
	_, err := l.Reserve(0, 1001)
	if !errors.Is(err, ErrTooLarge) || err.Error() != fmt.Errorf("%w: %d tokens, capacity %d", ErrTooLarge, 1001, 1000).Error() {
		t.Fatalf("err = %v, want ErrTooLarge", err)
	}
	if req, tok := l.Available(0); req != 2 || tok != 1000 {
		t.Fatalf("buckets hold %v requests and %v tokens after a refused reservation, want 2 and 1000", req, tok)
	}
	_, err = l.Reserve(0, -1)
	if !errors.Is(err, ErrBadCost) || err.Error() != fmt.Errorf("%w: %d", ErrBadCost, -1).Error() {
		t.Fatalf("err = %v, want ErrBadCost", err)
	}
}

func TestReservationCancel(t *testing.T) {
	l := mustLimiter(t, Config{RPM: 60, TPM: 6000})
	r, err := l.Reserve(0, 6000)
	if err != nil {
		t.Fatal(err)
	}
	r.Cancel(0)
	if req, tok := l.Available(0); req != 60 || tok != 6000 {
		t.Fatalf("after Cancel: %v requests, %v tokens; want 60 and 6000", req, tok)
	}
	Reservation{}.Cancel(0) // holds nothing: a no-op
	// A reservation at the end of int64 time saturates instead of wrapping.
	l = mustLimiter(t, Config{RPM: 1e-9, TPM: 1})
	l.Reserve(math.MaxInt64-sec, 0)
	if r, err := l.Reserve(math.MaxInt64-sec, 0); err != nil || r.At != math.MaxInt64 {
		t.Fatalf("Reserve near the end of time: %v, %v; want At = MaxInt64", r.At, err)
	}
}

// NewLimiter refuses a bad Config with fmt's message, byte for byte.
func TestNewLimiterRefuses(t *testing.T) {
	for _, c := range []Config{
		{RPM: 0, TPM: 1}, {RPM: 1, TPM: -1}, {RPM: math.Inf(1), TPM: 1e21}, {RPM: math.NaN(), TPM: 1e-7},
		{RPM: 1.5, TPM: math.Inf(-1)}, {RPM: math.Copysign(0, -1), TPM: 123456.789},
		{RPM: 1, TPM: 1, TokenBurst: -1}, {RPM: 1, TPM: 1, RequestBurst: -7, TokenBurst: 3},
	} {
		_, err := NewLimiter(c)
		var want string
		if !(c.RPM > 0) || !(c.TPM > 0) || math.IsInf(c.RPM, 0) || math.IsInf(c.TPM, 0) {
			want = fmt.Sprintf("ratelimit: RPM and TPM must be finite and > 0, got %v and %v", c.RPM, c.TPM)
		} else {
			want = fmt.Sprintf("ratelimit: bursts must be >= 0, got %d and %d", c.RequestBurst, c.TokenBurst)
		}
		if err == nil || err.Error() != want {
			t.Errorf("NewLimiter(%+v) = %v, want %q", c, err, want)
		}
	}
}

func TestBursts(t *testing.T) {
	for _, tt := range []struct {
		c      Config
		rb, tb int
	}{
		{Config{RPM: 600, TPM: 120000}, 600, 120000},
		{Config{RPM: 0.5, TPM: 1e12}, 1, math.MaxInt32},
		{Config{RPM: 540, TPM: 108000.5, RequestBurst: 3}, 3, 108000},
	} {
		if rb, tb := tt.c.Bursts(); rb != tt.rb || tb != tt.tb {
			t.Errorf("%+v: bursts %d and %d, want %d and %d", tt.c, rb, tb, tt.rb, tt.tb)
		}
	}
}

// The article's capacity with a full bucket: 24 calls of 5,000 tokens go
// at once, the 25th waits 2.5 s for the token bucket to refill.
func ExampleLimiter_Reserve() {
	l, _ := NewLimiter(Config{RPM: 600, TPM: 120000})
	for i := 1; i <= 26; i++ {
		r, _ := l.Reserve(0, 5000)
		if i >= 24 {
			fmt.Printf("call %d may start after %g s\n", i, float64(r.At)/1e9)
		}
	}
	// Output:
	// call 24 may start after 0 s
	// call 25 may start after 2.5 s
	// call 26 may start after 5 s
}

// TestFirstMinute plays a limiter from full for 60 s, admitting every call
// it can, and checks the count against FirstMinute: the burst plus a
// minute of refill.
func TestFirstMinute(t *testing.T) {
	for _, c := range []Config{
		{RPM: 60, TPM: 1e9},                    // requests bind, burst 60: 60 + 60
		{RPM: 60, TPM: 1e9, RequestBurst: 6},   // burst 6: 6 + 60
		{RPM: 1e6, TPM: 6000},                  // tokens bind: (6000 + 6000) / 100
		{RPM: 1e6, TPM: 6000, TokenBurst: 500}, // (500 + 6000) / 100
	} {
		l, err := NewLimiter(c)
		if err != nil {
			t.Fatal(err)
		}
		const cost = 100
		n := 0
		for ms := int64(0); ms < 60000; ms++ { // a call every millisecond if it fits
			if l.Allow(ms*1e6, cost) {
				n++
			}
		}
		rq, tk := c.FirstMinute()
		want := int(math.Min(rq, tk/cost))
		if n < want-1 || n > want {
			t.Errorf("%+v: %d calls in the first minute, FirstMinute says %d", c, n, want)
		}
	}
	if BurstFor(600, 60) != 600 || BurstFor(600, 6) != 60 || BurstFor(1, 1) != 1 {
		t.Error("BurstFor")
	}
}
