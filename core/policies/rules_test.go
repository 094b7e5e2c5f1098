package policies

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

func testRand() *rand.Rand { return rand.New(rand.NewPCG(1, 2)) }

// gRFC A6: tokens start at maxTokens (10); each failure takes 1, each
// success gives tokenRatio (0.1); retries only while tokens > 5.
func TestGRPCThrottling(t *testing.T) {
	g := newGRPC(10, 0.1)
	steps := []struct {
		ok     bool
		tokens float64
		retry  bool
	}{
		{false, 9, true}, {false, 8, true}, {false, 7, true}, {false, 6, true},
		{false, 5, false}, // 5 is not above maxTokens/2
		{true, 5.1, true}, // one success lifts it over the threshold
		{false, 4.1, false}, {false, 3.1, false}, {false, 2.1, false}, {false, 1.1, false},
		{false, 0.1, false}, {false, 0, false}, {false, 0, false}, // never below 0
		{true, 0.1, false},
	}
	for i, s := range steps {
		g.done(0, false, s.ok, false, 0)
		if diff := g.tokens - s.tokens; diff > 1e-9 || diff < -1e-9 {
			t.Fatalf("step %d: tokens %v, want %v", i, g.tokens, s.tokens)
		}
		if ok, _ := g.retry(0, false); ok != s.retry {
			t.Fatalf("step %d: retry %v, want %v (tokens %v)", i, ok, s.retry, g.tokens)
		}
	}
	for range 200 {
		g.done(0, false, true, false, 0)
	}
	if g.tokens != 10 {
		t.Errorf("tokens %v after many successes, want the cap 10", g.tokens)
	}
}

// Envoy: active retries <= max(min_retry_concurrency 3, 20% of active
// requests).
func TestEnvoyBudget(t *testing.T) {
	e := newEnvoy(20, 3)
	r := testRand()
	e.send(0, false, r) // one request in flight
	for i := range 3 {
		if ok, _ := e.retry(0, true); !ok {
			t.Fatalf("retry %d refused: the floor is 3 concurrent retries", i+1)
		}
	}
	if ok, _ := e.retry(0, true); ok {
		t.Fatal("a fourth concurrent retry admitted with 4 active requests")
	}
	// 30 more requests: 31 originals and 3 retries active. A retry is
	// admitted while retries < 20% of (31 + retries), the retries being
	// active requests too: 3 < 6.8, 4 < 7, 5 < 7.2, 6 < 7.4, 7 < 7.6, and
	// then 8 >= 7.8.
	for range 30 {
		e.send(0, false, r)
	}
	for i := 4; i <= 8; i++ {
		if ok, _ := e.retry(0, true); !ok {
			t.Fatalf("retry %d refused with %d active", i, e.active)
		}
	}
	if ok, _ := e.retry(0, true); ok {
		t.Fatalf("retry 9 admitted: %d retries of %d active", e.retries, e.active)
	}
	// A retry's answer frees its place.
	e.done(0, true, true, 0)
	if ok, _ := e.retry(0, true); !ok {
		t.Fatal("no retry after one ended")
	}
}

// Finagle's default budget: a reserve of 10/s × 10 s = 100 retries, plus
// one retry per 5 requests (percentCanRetry 0.2), all expiring after the
// ttl of 10 s.
func TestFinagleBudget(t *testing.T) {
	f := newFinagle(TokenBudget{TTLS: 10, MinRetriesPerSec: 10, PercentCanRetry: 0.2})
	r := testRand()
	if f.withdraw != 5000 || f.reserve != 500000 {
		t.Fatalf("withdraw %d reserve %d, want 5000 and 500000", f.withdraw, f.reserve)
	}
	n := 0
	for {
		ok, _ := f.retry(0, false)
		if !ok {
			break
		}
		n++
	}
	if n != 100 {
		t.Fatalf("%d retries from the reserve, want 100", n)
	}
	for i := range 5 {
		f.send(sec, false, r)
		if ok, _ := f.retry(sec, false); ok != (i == 4) {
			t.Fatalf("after %d requests: retry %v", i+1, ok)
		}
	}
	// 10 s later the withdrawals of t=0 have expired; the deposits of
	// t=1 s are still there (5 deposits - 1 withdrawal = 0 net).
	if got := f.window.sum(10*sec + 1); got != 0 {
		t.Fatalf("window sum at 10 s: %d, want 0", got)
	}
	if ok, _ := f.retry(10*sec+1, false); !ok {
		t.Fatal("the reserve did not come back after the ttl")
	}
}

// AWS standard mode before 2026: a quota of 500; a retry costs 5, 10 after
// a timeout; a first attempt that succeeds adds 1; a retry that succeeds
// refunds its cost; never above 500.
func TestAWSQuota(t *testing.T) {
	p, _ := Find(AWS2025)
	a := &awsRule{q: *p.AWS, quota: p.AWS.Capacity}
	for i := range 50 {
		ok, cost := a.retry(0, true)
		if !ok || cost != 10 {
			t.Fatalf("timeout retry %d: %v cost %d", i+1, ok, cost)
		}
	}
	if ok, _ := a.retry(0, false); ok || a.quota != 0 {
		t.Fatalf("retry admitted with quota %d", a.quota)
	}
	for range 4 {
		a.done(0, false, true, 0) // four first attempts succeed: +4
	}
	if ok, _ := a.retry(0, false); ok || a.quota != 4 {
		t.Fatalf("quota %d: a retry of cost 5 admitted", a.quota)
	}
	a.done(0, false, true, 0)
	ok, cost := a.retry(0, false)
	if !ok || cost != 5 || a.quota != 0 {
		t.Fatalf("retry %v cost %d quota %d, want true 5 0", ok, cost, a.quota)
	}
	a.done(0, true, true, cost) // the retry succeeds: refund
	if a.quota != 5 {
		t.Fatalf("quota %d after a refund, want 5", a.quota)
	}
	a.done(0, true, false, 10) // a failed retry refunds nothing
	if a.quota != 5 {
		t.Fatalf("quota %d after a failed retry, want 5", a.quota)
	}
	for range 1000 {
		a.done(0, false, true, 0)
	}
	if a.quota != 500 {
		t.Fatalf("quota %d, want the cap 500", a.quota)
	}
}

// SRE per-client budget: retry only while retries are under 10% of the
// requests sent.
func TestSREBudget(t *testing.T) {
	s := newSRE(SRELimits{Ratio: 0.1, WindowS: 120})
	r := testRand()
	for range 10 {
		s.send(0, false, r)
	}
	if ok, _ := s.retry(0, true); !ok {
		t.Fatal("first retry refused with 0 retries of 10")
	}
	s.send(0, true, r) // 11 sent, 1 retry: 1 < 1.1
	if ok, _ := s.retry(0, true); !ok {
		t.Fatal("retry refused with 1 retry of 11 sent")
	}
	s.send(0, true, r) // 12 sent, 2 retries: 2 >= 1.2
	if ok, _ := s.retry(0, true); ok {
		t.Fatal("retry admitted with 2 retries of 12 sent")
	}
	// Two minutes later the history is gone.
	if ok, _ := s.retry(120*sec, true); ok {
		t.Fatal("retry admitted with nothing sent in the window")
	}
	s.send(121*sec, false, r)
	if ok, _ := s.retry(121*sec, true); !ok {
		t.Fatal("retry refused after the window moved on")
	}
}

// Adaptive throttling: max(0, (requests - K × accepts) / (requests + 1)).
func TestRejectP(t *testing.T) {
	for _, c := range []struct{ req, acc, k, want float64 }{
		{0, 0, 2, 0},
		{10, 5, 2, 0}, // exactly K × accepts: nothing rejected
		{10, 0, 2, 10.0 / 11},
		{100, 40, 2, 20.0 / 101},
		{100, 40, 1.1, 56.0 / 101},
	} {
		if got := rejectP(c.req, c.acc, c.k); got-c.want > 1e-12 || c.want-got > 1e-12 {
			t.Errorf("rejectP(%v, %v, %v) = %v, want %v", c.req, c.acc, c.k, got, c.want)
		}
	}
	// With every attempt failing, the throttled client ends up rejecting
	// most of its own attempts locally.
	s := newSRE(SRELimits{Ratio: 0.1, WindowS: 120, Throttle: true, K: 2, ThrottleWindowS: 120})
	r := testRand()
	refused := 0
	for i := range 1000 {
		if !s.send(int64(i)*ms, false, r) {
			refused++
		}
	}
	if refused < 900 {
		t.Errorf("%d of 1000 attempts refused locally with no accepts, want most", refused)
	}
}

func TestWaits(t *testing.T) {
	r := testRand()
	p, _ := Find(Envoy)
	e := newRule(p, 3)
	for k, ceil := range map[int]int64{1: 25 * ms, 2: 75 * ms, 3: 175 * ms, 4: 250 * ms, 9: 250 * ms} {
		for range 200 {
			if w := e.wait(k, 0, r); w < 0 || w >= ceil {
				t.Fatalf("envoy retry %d waits %d ns, want [0, %d)", k, w, ceil)
			}
		}
	}
	for k, ceil := range map[int]int64{1: sec, 2: 2 * sec, 5: 16 * sec, 6: 20 * sec, 30: 20 * sec} {
		for range 200 {
			if w := fullJitter(k, sec, 20*sec, r); w < 0 || w >= ceil {
				t.Fatalf("full jitter retry %d waits %d ns, want [0, %d)", k, w, ceil)
			}
		}
	}
	p, _ = Find(Naive)
	if u := newRule(p, 3); u.wait(1, 0, r) != 0 {
		t.Errorf("naive waits")
	}
}

func TestSlidingSum(t *testing.T) {
	w := newSlidingSum(10*sec, 10)
	w.add(0, 5)
	w.add(3*sec, 7)
	for _, c := range []struct {
		t    int64
		want int64
	}{{9 * sec, 12}, {10 * sec, 7}, {13*sec - 1, 7}, {13 * sec, 0}, {100 * sec, 0}} {
		if got := w.sum(c.t); got != c.want {
			t.Errorf("sum at %v s = %d, want %d", float64(c.t)/1e9, got, c.want)
		}
	}
}

// TestRuleShortcuts: the calls the simulation skips for a policy do
// nothing for it: with quiet, done changes no state; with admitsAll, send
// admits and changes nothing; without pauses, wait is 0; without
// Budgeted, retry admits with token 0.
func TestRuleShortcuts(t *testing.T) {
	for _, q := range Presets() {
		p := q.Name
		u := newRule(q, 3)
		r := testRand()
		// Some history first, so that the budgets are not at their start.
		for i := range 50 {
			now := int64(i) * 10 * ms
			u.send(now, i%3 != 0, r)
			u.done(now, i%3 != 0, i%2 == 0, i%5 == 0, 5)
			u.retry(now, i%4 == 0)
		}
		now := 600 * ms
		before := u
		cells := func(u rule) [][]int64 { // slidingSum cells are shared by copies
			return [][]int64{slices.Clone(u.finagle.window.cells), slices.Clone(u.sre.sent.cells), slices.Clone(u.sre.retries.cells), slices.Clone(u.sre.requests.cells), slices.Clone(u.sre.accepts.cells), slices.Clone(u.breaker.calls.cells), slices.Clone(u.breaker.bad.cells)}
		}
		was := cells(u)
		if u.quiet() {
			u.done(now, false, true, false, 0)
			u.done(now, true, false, true, 5)
		}
		if u.admitsAll() {
			for _, retry := range []bool{false, true} {
				if !u.send(now, retry, r) {
					t.Errorf("%s: admitsAll, but send refused", p)
				}
			}
		}
		if !reflect.DeepEqual(u, before) || !reflect.DeepEqual(cells(u), was) {
			t.Errorf("%s: a call the simulation skips changed the rule", p)
		}
		if !u.pauses() {
			for k := 1; k <= 5; k++ {
				if w := u.wait(k, 0, r); w != 0 {
					t.Errorf("%s: no pauses, but retry %d waits %d ns", p, k, w)
				}
			}
		}
		if !p.Budgeted() {
			for _, timeout := range []bool{false, true} {
				if ok, token := u.retry(now, timeout); !ok || token != 0 {
					t.Errorf("%s: not budgeted, but retry returned %v, %d", p, ok, token)
				}
			}
		}
	}
}
