package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"retrylab/core/limits"
)

var t0 = time.Date(2026, 2, 3, 9, 12, 0, 0, time.UTC)

func at(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }

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
	for i := 0; i < 24; i++ {
		if !l.Allow(t0, 5000) {
			t.Fatalf("call %d refused from a full bucket", i)
		}
	}
	if l.Allow(t0, 5000) {
		t.Fatal("25th call admitted: the token bucket is empty")
	}
	if l.Allow(at(2.4), 5000) {
		t.Fatal("admitted after 2.4 s: 4,800 tokens only")
	}
	if !l.Allow(at(2.5), 5000) {
		t.Fatal("refused after 2.5 s: 5,000 tokens refilled")
	}
	req, _ := l.Available(at(2.5))
	if req < 598.99 || req > 599.01 {
		t.Errorf("request bucket holds %v, want 599 (600 - 24, +25 refilled in 2.5 s up to 600, - 1)", req)
	}
}

// A refused Allow takes nothing from either bucket.
func TestAllowAllOrNothing(t *testing.T) {
	l := mustLimiter(t, Config{RPM: 60, TPM: 1000})
	if l.Allow(t0, 2000) {
		t.Fatal("a call larger than the token bucket was admitted")
	}
	req, tok := l.Available(t0)
	if req != 60 || tok != 1000 {
		t.Fatalf("after a refusal the buckets hold %v requests and %v tokens, want 60 and 1000", req, tok)
	}
	// Request bucket empty, token bucket full: refused, tokens untouched.
	l = mustLimiter(t, Config{RPM: 1, TPM: 1000})
	if !l.Allow(t0, 10) || l.Allow(t0, 10) {
		t.Fatal("RPM 1: want one admission then a refusal")
	}
	if _, tok := l.Available(t0); tok != 990 {
		t.Fatalf("token bucket holds %v, want 990: the refused call must not take tokens", tok)
	}
}

func TestReserve(t *testing.T) {
	l := mustLimiter(t, Config{RPM: 600, TPM: 120000})
	var last time.Time
	for i := 0; i < 30; i++ {
		r, err := l.Reserve(t0, 5000)
		if err != nil {
			t.Fatal(err)
		}
		want := t0
		if i >= 24 {
			want = at(2.5 * float64(i-23))
		}
		if d := r.At.Sub(want); d < -time.Microsecond || d > time.Microsecond {
			t.Errorf("reservation %d at %v, want %v", i, r.At.Sub(t0), want.Sub(t0))
		}
		last = r.At
	}
	if last.Sub(t0) < 14*time.Second {
		t.Errorf("30th call at %v", last.Sub(t0))
	}
}

// A call larger than the token bucket fails at once and gives the request
// back, instead of waiting forever.
func TestReserveTooLargeCancelsRequest(t *testing.T) {
	l := mustLimiter(t, Config{RPM: 2, TPM: 1000})
	if _, err := l.Reserve(t0, 1001); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err = %v, want ErrTooLarge", err)
	}
	if req, tok := l.Available(t0); req != 2 || tok != 1000 {
		t.Fatalf("buckets hold %v requests and %v tokens after a refused reservation, want 2 and 1000", req, tok)
	}
	if _, err := l.Reserve(t0, -1); !errors.Is(err, ErrBadCost) {
		t.Fatalf("err = %v, want ErrBadCost", err)
	}
}

func TestReservationCancel(t *testing.T) {
	l := mustLimiter(t, Config{RPM: 60, TPM: 6000})
	r, err := l.Reserve(t0, 6000)
	if err != nil {
		t.Fatal(err)
	}
	r.Cancel(t0)
	if req, tok := l.Available(t0); req != 60 || tok != 6000 {
		t.Fatalf("after Cancel: %v requests, %v tokens; want 60 and 6000", req, tok)
	}
}

func TestNewLimiterRefuses(t *testing.T) {
	for _, c := range []Config{{RPM: 0, TPM: 1}, {RPM: 1, TPM: -1}, {RPM: 1, TPM: 1, TokenBurst: -1}} {
		if _, err := NewLimiter(c); err == nil {
			t.Errorf("NewLimiter(%+v) accepted", c)
		}
	}
}

// fakeClock is a clock in which sleeping advances time at once.
type fakeClock struct {
	now   time.Time
	slept []time.Duration
	slots *Slots
	held  []int // slots in use at each sleep
}

func (c *fakeClock) Now() time.Time { return c.now }
func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.slept = append(c.slept, d)
	c.held = append(c.held, c.slots.InUse())
	if d > 0 {
		c.now = c.now.Add(d)
	}
	return nil
}

// Do waits for rate capacity holding no slot, then holds one only during
// the call.
func TestDoSlotAfterRate(t *testing.T) {
	l := mustLimiter(t, Config{RPM: 600, TPM: 10000})
	slots := NewSlots(1)
	clock := &fakeClock{now: t0, slots: slots}
	var during []int
	var starts []time.Duration
	for i := 0; i < 3; i++ {
		err := Do(context.Background(), clock, l, slots, 5000, func(context.Context) error {
			during = append(during, slots.InUse())
			starts = append(starts, clock.now.Sub(t0))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for i, h := range clock.held {
		if h != 0 {
			t.Errorf("sleep %d held %d slots: the slot must be taken after the rate wait", i, h)
		}
	}
	for i, d := range during {
		if d != 1 {
			t.Errorf("call %d ran holding %d slots, want 1", i, d)
		}
	}
	if slots.InUse() != 0 {
		t.Errorf("%d slots still held after the calls", slots.InUse())
	}
	if want := []time.Duration{0, 0, 30 * time.Second}; len(starts) != 3 || starts[2] < want[2]-time.Millisecond || starts[1] != 0 {
		t.Errorf("calls started at %v, want %v", starts, want)
	}
}

func TestDoCancelledWaitGivesBack(t *testing.T) {
	l := mustLimiter(t, Config{RPM: 600, TPM: 5000})
	slots := NewSlots(2)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	clock := &fakeClock{now: t0, slots: slots}
	called := false
	err := Do(ctx, clock, l, slots, 5000, func(context.Context) error { called = true; return nil })
	if !errors.Is(err, context.Canceled) || called {
		t.Fatalf("err = %v, called = %v", err, called)
	}
	if _, tok := l.Available(t0); tok != 5000 {
		t.Fatalf("tokens %v after a cancelled wait, want 5000", tok)
	}
}

func TestSlots(t *testing.T) {
	s := NewSlots(2)
	first, second, third := s.TryAcquire(), s.TryAcquire(), s.TryAcquire()
	if !first || !second || third {
		t.Fatalf("two slots: acquisitions %v %v %v, want true true false", first, second, third)
	}
	s.Release()
	if s.InUse() != 1 || s.Cap() != 2 {
		t.Fatalf("InUse %d Cap %d", s.InUse(), s.Cap())
	}
	s.Release()
	defer func() {
		if recover() == nil {
			t.Error("Release without Acquire did not panic")
		}
	}()
	s.Release()
}

// The article's capacity with a full bucket: 24 calls of 5,000 tokens go
// at once, the 25th waits 2.5 s for the token bucket to refill.
func ExampleLimiter_Reserve() {
	l, _ := NewLimiter(Config{RPM: 600, TPM: 120000})
	start := time.Date(2026, 2, 3, 9, 14, 0, 0, time.UTC)
	for i := 1; i <= 26; i++ {
		r, _ := l.Reserve(start, 5000)
		if i >= 24 {
			fmt.Printf("call %d may start after %v\n", i, r.At.Sub(start).Round(time.Millisecond))
		}
	}
	// Output:
	// call 24 may start after 0s
	// call 25 may start after 2.5s
	// call 26 may start after 5s
}

// Taking from the two buckets is one step: goroutines racing for a bucket
// of 24 calls get exactly 24, and no request is taken without its tokens.
func TestAllowConcurrent(t *testing.T) {
	l := mustLimiter(t, Config{RPM: 30, TPM: 120000})
	var wg sync.WaitGroup
	var admitted atomic.Int32
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 10; i++ {
				if l.Allow(t0, 5000) {
					admitted.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	req, tok := l.Available(t0)
	if admitted.Load() != 24 || req != 6 || tok != 0 {
		t.Fatalf("admitted %d, buckets hold %v requests and %v tokens; want 24, 6, 0", admitted.Load(), req, tok)
	}
}

// This Limiter (on x/time/rate, time.Time) and core/limits' (on
// core/standin/tokenbucket, nanoseconds), which the simulations and the browser
// use, give the same results, bit for bit, on the same random calls.
func TestMatchesLimits(t *testing.T) {
	r := rand.New(rand.NewPCG(20261130, 3))
	rpms := []float64{1, 2, 60, 540, 600, 3500, 1e4 / 3}
	tpms := []float64{1000, 6000, 108000, 120000, 2e6, 1e6 / 7}
	for range 400 {
		c := Config{RPM: rpms[r.IntN(len(rpms))], TPM: tpms[r.IntN(len(tpms))]}
		if r.IntN(3) == 0 {
			c.RequestBurst, c.TokenBurst = r.IntN(10), r.IntN(20000)
		}
		client := mustLimiter(t, c)
		sim, err := limits.NewLimiter(c)
		if err != nil {
			t.Fatal(err)
		}
		_, tb := c.Bursts()
		var rs []Reservation
		var ss []limits.Reservation
		now := int64(0)
		for op := range 80 {
			switch r.IntN(4) {
			case 0, 1:
				now += r.Int64N(int64(10 * time.Second))
			case 2:
				now -= r.Int64N(int64(time.Second))
			}
			n := r.IntN(tb + tb/4 + 2)
			if r.IntN(20) == 0 {
				n = -n - 1
			}
			tt := t0.Add(time.Duration(now))
			where := func() string { return fmt.Sprintf("config %+v, call %d at %d ns", c, op, now) }
			switch r.IntN(4) {
			case 0:
				a, errA := client.Reserve(tt, n)
				b, errB := sim.Reserve(now, n)
				if fmt.Sprint(errA) != fmt.Sprint(errB) || errors.Is(errA, ErrTooLarge) != errors.Is(errB, ErrTooLarge) || errors.Is(errA, ErrBadCost) != errors.Is(errB, ErrBadCost) {
					t.Fatalf("%s: Reserve(%d) errors %v and %v", where(), n, errA, errB)
				}
				if errA == nil {
					if a.At.Sub(t0) != time.Duration(b.At) {
						t.Fatalf("%s: Reserve(%d) at %v and %v", where(), n, a.At.Sub(t0), time.Duration(b.At))
					}
					rs, ss = append(rs, a), append(ss, b)
				}
			case 1:
				if a, b := client.Allow(tt, n), sim.Allow(now, n); a != b {
					t.Fatalf("%s: Allow(%d) %v and %v", where(), n, a, b)
				}
			case 2:
				if len(rs) > 0 {
					i := r.IntN(len(rs))
					rs[i].Cancel(tt)
					ss[i].Cancel(now)
				}
			}
			reqA, tokA := client.Available(tt)
			reqB, tokB := sim.Available(now)
			if math.Float64bits(reqA) != math.Float64bits(reqB) || math.Float64bits(tokA) != math.Float64bits(tokB) {
				t.Fatalf("%s: Available %v, %v and %v, %v", where(), reqA, tokA, reqB, tokB)
			}
		}
	}
}
