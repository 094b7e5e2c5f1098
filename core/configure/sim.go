package configure

import (
	"math"
	"math/rand/v2"
)

// gate is one system's client-side rule, with the parameters a Plan
// chose. The simulation calls, for every request: arrive when it arrives;
// send before every attempt (false: refused locally, nothing reaches the
// server and the request ends); finish when an attempt's outcome is known
// (ok, which attempt, from 1); then, after a failure and while attempts
// remain, retry (false: no retry, the request ends). Times are seconds.
type gate interface {
	arrive(t float64)
	send(t float64, attempt int) bool
	finish(t float64, ok bool, attempt int)
	retry(t float64, attempt int) bool
}

// Run is what one simulated run counted, over the requests that arrived in
// [0, OutageS).
type Run struct {
	Requests     int // counted requests
	Attempts     int // attempts they sent to the server
	Retries      int // Attempts - first attempts sent
	FailedRetry  int // retries that failed
	Succeeded    int // counted requests that succeeded
	FirstOK      int // counted requests whose first attempt succeeded
	Unthrottled  int // failed attempts of counted requests below the attempts cap: the retries asked for
	MaxInFlightR int // the most retries in flight at once (all requests)
}

// Amplification is attempts per request.
func (r Run) Amplification() float64 {
	if r.Requests == 0 {
		return 0
	}
	return float64(r.Attempts) / float64(r.Requests)
}

type attemptEv struct {
	t       float64 // completion time
	req     int
	attempt int
	ok      bool
	counted bool
	retry   bool
}

// evQueue holds the attempts in flight, in the order of their completion
// time and then of their request (a request has one attempt in flight at
// most, so the order is total). An attempt ends a fixed time after it
// starts, one for a success (OKS) and one for a failure (FailS), and
// attempts start in time order: each outcome's attempts come due in the
// order they started, so two FIFOs merged at their heads give that order
// in O(1) a pop, where a heap took O(log n) comparisons and moves. A push
// that would break its FIFO's order (a lower request at the same time,
// or, were times ever out of order, an earlier time) moves back to its
// place, so the order stays exact whatever the times.
type evQueue struct {
	fifo [2]evFIFO // [0]: failures, [1]: successes
}

// evFIFO is a queue of attempts in (t, req) order: q[head:] is waiting.
type evFIFO struct {
	q    []attemptEv
	head int
}

// before reports whether a comes due before b.
func before(a, b *attemptEv) bool {
	if a.t != b.t {
		return a.t < b.t
	}
	return a.req < b.req
}

// len returns the attempts in flight.
func (h *evQueue) len() int {
	return len(h.fifo[0].q) - h.fifo[0].head + len(h.fifo[1].q) - h.fifo[1].head
}

// push adds e to the FIFO of its outcome, in its place.
func (h *evQueue) push(e attemptEv) {
	f := &h.fifo[b2i(e.ok)]
	if f.head >= 64 && 2*f.head >= len(f.q) {
		// at least half the slice is popped: move the waiting attempts
		// to the front (each move paid by a pop), so that the storage
		// holds the attempts in flight, not every attempt of the run
		n := copy(f.q, f.q[f.head:])
		f.q, f.head = f.q[:n], 0
	}
	f.q = append(f.q, e)
	i := len(f.q) - 1
	for i > f.head && before(&e, &f.q[i-1]) {
		f.q[i] = f.q[i-1]
		i--
	}
	f.q[i] = e
}

// next returns the FIFO whose head comes due first; h must not be empty.
func (h *evQueue) next() *evFIFO {
	a, b := &h.fifo[0], &h.fifo[1]
	switch {
	case a.head == len(a.q):
		return b
	case b.head == len(b.q) || before(&a.q[a.head], &b.q[b.head]):
		return a
	}
	return b
}

// peekT returns the completion time of the attempt due first; h must not
// be empty.
func (h *evQueue) peekT() float64 {
	f := h.next()
	return f.q[f.head].t
}

// pop removes and returns the attempt due first; h must not be empty.
func (h *evQueue) pop() attemptEv {
	f := h.next()
	e := f.q[f.head]
	f.head++
	return e
}

// reset empties h, keeping its storage.
func (h *evQueue) reset() {
	for i := range h.fifo {
		h.fifo[i].q, h.fifo[i].head = h.fifo[i].q[:0], 0
	}
}

// b2i is 1 for true and 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// simulate runs one client with gate g: healthy warm-up from -warm s,
// then every attempt that starts at time >= 0 fails with probability fail
// (1: the outage). Failure draws come from a PCG stream of seed, one draw
// per attempt started at or after 0, in event order.
func simulate(t Traffic, g gate, warm, fail float64, seed uint64) Run {
	var b simBuffers
	return b.simulate(t, g, warm, fail, seed)
}

// simBuffers are the storage of one simulated run that the next may
// reuse (Compute runs sixteen): the events in flight, the breakers'
// outcomes and Finagle's entries, and the random source. Nothing of a run
// carries over but capacity.
type simBuffers struct {
	events   evQueue
	outcomes []brOutcome
	entries  []finEntry
	pcg      rand.PCG
}

// lend gives g's growing lists the buffers' storage, empty.
func (b *simBuffers) lend(g gate) {
	switch g := g.(type) {
	case *gateCap:
		b.lend(g.g)
	case *breaker:
		g.out = b.outcomes[:0]
	case *finagleGate:
		g.entries = b.entries[:0]
	}
}

// keep takes back the storage lend gave g, grown by its run.
func (b *simBuffers) keep(g gate) {
	switch g := g.(type) {
	case *gateCap:
		b.keep(g.g)
	case *breaker:
		b.outcomes = g.out[:0]
	case *finagleGate:
		b.entries = g.entries[:0]
	}
}

// simulate is simulate on b's storage.
func (b *simBuffers) simulate(t Traffic, g gate, warm, fail float64, seed uint64) Run {
	d := derive(t)
	b.lend(g)
	defer b.keep(g)
	b.pcg.Seed(seed, 0x636f6e66696775)
	rng := rand.New(&b.pcg)
	var run Run
	h := &b.events
	h.reset()
	inFlightR := 0
	step := 1 / d.PerClientRPS
	// Arrivals are at j·step for j from -ceil(warm/step): the counted
	// ones (j >= 0) sit at j·step from 0 exactly.
	first := -int(math.Ceil(warm / step))
	last := int(d.Requests) // arrivals j in [first, last): j >= 0 are counted
	start := func(now float64, req, attempt int, counted bool) {
		if !g.send(now, attempt) {
			return
		}
		ok := true
		if now >= 0 && fail > 0 {
			ok = fail < 1 && rng.Float64() >= fail
		}
		dur := d.FailS
		if ok {
			dur = d.OKS
		}
		if counted {
			run.Attempts++
			if attempt > 1 {
				run.Retries++
				if !ok {
					run.FailedRetry++
				}
			}
		}
		if attempt > 1 {
			inFlightR++
			if inFlightR > run.MaxInFlightR {
				run.MaxInFlightR = inFlightR
			}
		}
		h.push(attemptEv{t: now + dur, req: req, attempt: attempt, ok: ok, counted: counted, retry: attempt > 1})
	}
	next := first
	for next < last || h.len() > 0 {
		if next < last && (h.len() == 0 || float64(next)*step <= h.peekT()) {
			now := float64(next) * step
			counted := next >= 0
			if counted {
				run.Requests++
			}
			g.arrive(now)
			start(now, next, 1, counted)
			next++
			continue
		}
		ev := h.pop()
		if ev.retry {
			inFlightR--
		}
		g.finish(ev.t, ev.ok, ev.attempt)
		if ev.ok {
			if ev.counted {
				run.Succeeded++
				if ev.attempt == 1 {
					run.FirstOK++
				}
			}
			continue
		}
		if ev.attempt >= t.Attempts {
			continue
		}
		if ev.counted {
			run.Unthrottled++
		}
		if g.retry(ev.t, ev.attempt) {
			start(ev.t, ev.req, ev.attempt+1, ev.counted)
		}
	}
	return run
}

// capOnly retries every failure up to the attempts cap (tenacity and the
// retries of the breakers' systems).
type capOnly struct{}

func (capOnly) arrive(float64)            {}
func (capOnly) send(float64, int) bool    { return true }
func (capOnly) finish(float64, bool, int) {}
func (capOnly) retry(float64, int) bool   { return true }

// grpcGate is grpc-go's retryThrottler (clientconn.go): tokens start at
// maxTokens; every failed attempt with a retryable status takes one
// (floored at 0) before the attempts cap is checked, and the retry is
// refused when the count is then <= maxTokens/2; every successful RPC adds
// tokenRatio (capped at maxTokens).
type grpcGate struct {
	tokens, max, ratio float64
	allow              bool
}

func (g *grpcGate) arrive(float64)         {}
func (g *grpcGate) send(float64, int) bool { return true }
func (g *grpcGate) finish(_ float64, ok bool, _ int) {
	if ok {
		g.tokens = math.Min(g.max, g.tokens+g.ratio)
		return
	}
	g.tokens = math.Max(0, g.tokens-1)
	g.allow = g.tokens > g.max/2
}
func (g *grpcGate) retry(float64, int) bool { return g.allow }

// envoyGate is Envoy's retry budget (resource_manager_impl.h): a retry
// may start while the retries in flight are fewer than
// max(min_retry_concurrency, budget_percent/100 × (requests in flight)),
// the product truncated to an integer; requests in flight count every
// attempt, retries included.
type envoyGate struct {
	pct              float64 // budget_percent, 0..100
	min              int
	active, retrying int
}

func (g *envoyGate) arrive(float64) {}
func (g *envoyGate) send(_ float64, attempt int) bool {
	g.active++
	if attempt > 1 {
		g.retrying++
	}
	return true
}
func (g *envoyGate) finish(_ float64, _ bool, attempt int) {
	g.active--
	if attempt > 1 {
		g.retrying--
	}
}
func (g *envoyGate) retry(float64, int) bool {
	limit := uint64(g.pct / 100 * float64(g.active))
	if uint64(g.min) > limit {
		limit = uint64(g.min)
	}
	return uint64(g.retrying) < limit
}

// finagleGate is Finagle's RetryBudget (RetryBudget.scala): a leaky token
// bucket whose entries expire after ttl; deposit puts 1000, a retry takes
// withdraw = int(1000/percentCanRetry) when the balance (reserve + the
// unexpired entries) holds that much; reserve = minRetriesPerSec × ttl (whole
// seconds) × withdraw. One deposit per request (the bound holds a
// fortiori when deposits are fewer). The window here slides continuously.
type finagleGate struct {
	ttl      float64
	reserve  float64
	withdraw float64
	deposit  float64
	entries  []finEntry
	head     int
	sum      float64
}

type finEntry struct {
	t, v float64
}

func (g *finagleGate) expire(t float64) {
	for g.head < len(g.entries) && g.entries[g.head].t <= t-g.ttl {
		g.sum -= g.entries[g.head].v
		g.head++
	}
	if g.head > 1024 && g.head*2 > len(g.entries) {
		g.entries = append(g.entries[:0], g.entries[g.head:]...)
		g.head = 0
	}
}
func (g *finagleGate) arrive(t float64) {
	if g.deposit == 0 {
		return
	}
	g.expire(t)
	g.entries = append(g.entries, finEntry{t, g.deposit})
	g.sum += g.deposit
}
func (g *finagleGate) send(float64, int) bool    { return true }
func (g *finagleGate) finish(float64, bool, int) {}
func (g *finagleGate) retry(t float64, _ int) bool {
	g.expire(t)
	if g.reserve+g.sum < g.withdraw {
		return false
	}
	g.entries = append(g.entries, finEntry{t, -g.withdraw})
	g.sum -= g.withdraw
	return true
}

// awsGate is aws-sdk-go-v2's standard retryer (aws/retry/standard.go) on
// its token bucket (aws/ratelimit): the bucket starts full at capacity; a
// retry takes cost tokens or is refused when fewer remain; a retry that
// succeeds gives its cost back; a request whose first attempt succeeds
// adds NoRetryIncrement (1); the bucket never exceeds its capacity.
type awsGate struct {
	tokens, capacity, cost, increment float64
}

func (g *awsGate) arrive(float64)         {}
func (g *awsGate) send(float64, int) bool { return true }
func (g *awsGate) finish(_ float64, ok bool, attempt int) {
	if !ok {
		return
	}
	add := g.increment
	if attempt > 1 {
		add = g.cost
	}
	g.tokens = math.Min(g.capacity, g.tokens+add)
}
func (g *awsGate) retry(float64, int) bool {
	if g.tokens < g.cost {
		return false
	}
	g.tokens -= g.cost
	return true
}

// breaker is a circuit breaker in front of every attempt (the retry
// decorates the breaker: resilience4j's default aspect order, Polly's
// recommended pipeline order). Closed: every attempt passes and its outcome
// is recorded; it opens when at least minCalls outcomes are in the window
// and the failure share is >= threshold. Open: attempts are refused until
// wait has passed; then half-open admits probes attempts, and after their
// outcomes closes (all share below threshold) or opens again.
//
// window is a count (resilience4j COUNT_BASED: the last size outcomes) or
// a duration (Polly: the outcomes of the last samplingS seconds).
type breaker struct {
	threshold float64 // failure share in (0, 1]
	minCalls  int
	size      int     // count window; 0 for a time window
	samplingS float64 // time window
	wait      float64
	probes    int

	state     int // 0 closed, 1 open, 2 half-open
	openUntil float64
	out       []brOutcome
	head      int
	fails     int
	issued    int // half-open probes sent
	hoFails   int
	hoDone    int
}

type brOutcome struct {
	t    float64
	fail bool
}

func (b *breaker) arrive(float64) {}

func (b *breaker) send(t float64, _ int) bool {
	if b.state == 1 {
		if t < b.openUntil {
			return false
		}
		b.state, b.issued, b.hoFails, b.hoDone = 2, 0, 0, 0
	}
	if b.state == 2 {
		if b.issued >= b.probes {
			return false
		}
		b.issued++
	}
	return true
}

func (b *breaker) trim(t float64) {
	if b.size > 0 {
		for len(b.out)-b.head > b.size {
			if b.out[b.head].fail {
				b.fails--
			}
			b.head++
		}
	} else {
		for b.head < len(b.out) && b.out[b.head].t <= t-b.samplingS {
			if b.out[b.head].fail {
				b.fails--
			}
			b.head++
		}
	}
	if b.head > 1024 && b.head*2 > len(b.out) {
		b.out = append(b.out[:0], b.out[b.head:]...)
		b.head = 0
	}
}

func (b *breaker) finish(t float64, ok bool, _ int) {
	switch b.state {
	case 0:
		b.out = append(b.out, brOutcome{t, !ok})
		if !ok {
			b.fails++
		}
		b.trim(t)
		n := len(b.out) - b.head
		if n >= b.minCalls && float64(b.fails) >= b.threshold*float64(n) {
			b.open(t)
		}
	case 2:
		b.hoDone++
		if !ok {
			b.hoFails++
		}
		if b.hoDone >= b.probes {
			if float64(b.hoFails) >= b.threshold*float64(b.hoDone) {
				b.open(t)
			} else {
				b.state, b.out, b.head, b.fails = 0, b.out[:0], 0, 0
			}
		}
	}
	// An outcome of an attempt sent before the breaker opened is ignored
	// while open.
}

func (b *breaker) open(t float64) {
	b.state, b.openUntil = 1, t+b.wait
	b.out, b.head, b.fails = b.out[:0], 0, 0
}

func (b *breaker) retry(float64, int) bool { return true }
