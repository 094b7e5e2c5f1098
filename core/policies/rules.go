package policies

import (
	"math"
	"math/rand/v2"
)

// Policy names a retry policy: one of Presets, which says which project,
// version and configuration it is and cites each parameter.
type Policy string

const (
	None           Policy = "none"
	Naive          Policy = "naive"
	Backoff        Policy = "backoff"
	GRPC           Policy = "grpc"
	GRPCDeadline   Policy = "grpc-deadline"
	GRPCHedge      Policy = "grpc-hedge"
	EnvoyRoute     Policy = "envoy-route"
	EnvoyRetry     Policy = "envoy-retry"
	Envoy          Policy = "envoy"
	FinagleDefault Policy = "finagle-default"
	Finagle        Policy = "finagle"
	AWS2025        Policy = "aws-2025"
	AWS            Policy = "aws"
	AWSAdaptive    Policy = "aws-adaptive"
	SREBudget      Policy = "sre-budget"
	SREThrottle    Policy = "sre-throttle"
	Resilience4j   Policy = "r4j"
	Polly          Policy = "polly"
	Tower          Policy = "tower"
)

// All returns every policy, in the order of Presets.
func All() []Policy {
	var out []Policy
	for _, p := range Presets() {
		out = append(out, p.Name)
	}
	return out
}

// Shown returns the policies of the widget's default selection.
func Shown() []Policy {
	var out []Policy
	for _, p := range Presets() {
		if p.Shown {
			out = append(out, p.Name)
		}
	}
	return out
}

// Valid reports whether p is one of All.
func (p Policy) Valid() bool {
	_, ok := Find(p)
	return ok
}

// Budgeted reports whether p's retry decision may refuse a retry that the
// attempts per request allow (a budget, a throttle, a per-request cap).
func (p Policy) Budgeted() bool {
	q, _ := Find(p)
	return q.GRPC != nil || q.Envoy != nil || q.Finagle != nil || q.AWS != nil || q.SRE != nil
}

// rule is a policy's state and admission rule, for one client process whose
// budget all requests share. Times are simulated ns. The simulation calls,
// for every request: send for each attempt it is about to put on the wire
// (false: refused locally, the request fails); done when an attempt's
// outcome is known (timeout: it failed by its timeout); then, after a
// failure and while attempts < max, retry (false: the request fails); and
// wait for the pause before that retry.
//
// rule is one concrete type whose methods switch on the kind, not an
// interface with a type per policy: the simulation calls it several times
// per attempt, and in WebAssembly an interface method call is an indirect
// call through the Go stack in linear memory. quiet, admitsAll, pauses and
// Policy.Budgeted say, once per run, which calls do nothing for the
// policy, and the simulation skips those (TestRuleShortcuts); the others
// are direct calls.
type rule struct {
	kind     ruleKind
	attempts int
	backoff  Pause
	// The state of the policy of kind; the others stay zero.
	grpc    grpcRule
	envoy   envoyRule
	finagle finagleRule
	aws     awsRule
	sre     sreRule
	breaker breakerRule
}

// ruleKind says which of rule's budgets is in use.
type ruleKind uint8

const (
	kindFixed ruleKind = iota // none, naive, backoff and the like: attempts only
	kindGRPC
	kindEnvoy
	kindFinagle
	kindAWS
	kindSRE
	kindBreaker
)

// newRule returns the rule of preset p; attempts is the scenario's
// attempts for the presets that take it (Attempts 0).
func newRule(p Preset, attempts int) rule {
	u := rule{kind: kindFixed, attempts: p.Attempts, backoff: p.Backoff}
	if u.attempts == 0 {
		u.attempts = attempts
	}
	switch {
	case p.GRPC != nil:
		u.kind, u.grpc = kindGRPC, *newGRPC(p.GRPC.MaxTokens, p.GRPC.TokenRatio)
		u.grpc.countTimeouts = p.RetryTimeouts
	case p.Envoy != nil:
		u.kind, u.envoy = kindEnvoy, *newEnvoy(p.Envoy.BudgetPercent, p.Envoy.MinConcurrency)
	case p.Finagle != nil:
		u.kind, u.finagle = kindFinagle, *newFinagle(*p.Finagle)
	case p.AWS != nil:
		u.kind, u.aws = kindAWS, awsRule{q: *p.AWS, quota: p.AWS.Capacity}
	case p.SRE != nil:
		u.kind, u.sre = kindSRE, *newSRE(*p.SRE)
	case p.Breaker != nil:
		u.kind, u.breaker = kindBreaker, newBreaker(*p.Breaker)
	}
	return u
}

// max returns the attempts per request, the first included.
func (u *rule) max() int { return u.attempts }

// quiet reports whether done does nothing: then the simulation needs no
// event for an attempt's success. sre-budget's done does nothing either:
// see sim.quiet for when it goes without the events.
func (u *rule) quiet() bool {
	return u.kind == kindFixed || (u.kind == kindFinagle && !u.finagle.onSuccess) || (u.kind == kindSRE && !u.sre.throttle)
}

// full reports whether done, for a first attempt that succeeds, leaves
// u as it is: gRPC's tokens at their maximum, the AWS quota at its
// capacity (what a success adds is not negative, and the sum does not
// overflow).
func (u *rule) full() bool {
	switch u.kind {
	case kindGRPC:
		g := &u.grpc
		return g.tokens == g.maxTokens && g.ratio >= 0
	case kindAWS:
		a := &u.aws
		return a.quota == a.q.Capacity && a.q.NoRetryIncrement >= 0 && a.q.Capacity <= math.MaxInt32-a.q.NoRetryIncrement
	}
	return false
}

// admitsAll reports whether send always returns true and changes nothing.
func (u *rule) admitsAll() bool {
	return u.kind == kindFixed || u.kind == kindGRPC || u.kind == kindAWS
}

// pauses reports whether wait may return more than 0.
func (u *rule) pauses() bool { return u.backoff.Kind != NoPause }

// send: an attempt is about to be sent (false: refused locally).
func (u *rule) send(now int64, retry bool, r *rand.Rand) bool {
	switch u.kind {
	case kindEnvoy:
		return u.envoy.send(now, retry, r)
	case kindFinagle:
		return u.finagle.send(now, retry, r)
	case kindSRE:
		return u.sre.send(now, retry, r)
	case kindBreaker:
		return u.breaker.send(now)
	}
	return true // fixed, grpc and aws admit every attempt
}

// done is an attempt's outcome (timeout: it failed by its timeout, else
// fast); token is what retry returned for it (0 for a first attempt).
func (u *rule) done(now int64, retry, ok, timeout bool, token int32) {
	switch u.kind {
	case kindGRPC:
		u.grpc.done(now, retry, ok, timeout, token)
	case kindEnvoy:
		u.envoy.done(now, retry, ok, token)
	case kindFinagle:
		u.finagle.done(now, ok)
	case kindAWS:
		u.aws.done(now, retry, ok, token)
	case kindSRE:
		u.sre.done(now, retry, ok, token)
	case kindBreaker:
		u.breaker.done(now, ok)
	}
}

// retry reports whether the request that just failed (timeout: by its
// timeout, else fast) may retry, and a token to give back to done.
func (u *rule) retry(now int64, timeout bool) (bool, int32) {
	switch u.kind {
	case kindGRPC:
		return u.grpc.retry(now, timeout)
	case kindEnvoy:
		return u.envoy.retry(now, timeout)
	case kindFinagle:
		return u.finagle.retry(now, timeout)
	case kindAWS:
		return u.aws.retry(now, timeout)
	case kindSRE:
		return u.sre.retry(now, timeout)
	}
	return true, 0
}

// wait returns the pause before retry k (1 = the first retry), ns; prev
// is the request's previous pause (0 before the first), for Decorrelated.
func (u *rule) wait(k int, prev int64, r *rand.Rand) int64 {
	b := &u.backoff
	base, cap := nsOf(b.BaseMS*1e6), nsOf(b.CapMS*1e6)
	switch b.Kind {
	case FullJitter:
		return fullJitter(k, base, cap, r)
	case GRPCJitter:
		// min(initial × mult^(k-1), max) × uniform(0.8, 1.2) (grpc-go
		// v1.85.0 stream.go: cur *= 0.8 + 0.4*rand.Float64()).
		cur := math.Min(b.BaseMS*1e6*math.Pow(b.Multiplier, float64(k-1)), b.CapMS*1e6)
		return nsOf(cur * (0.8 + float64(0.4*r.Float64()))) // float64(): no fused multiply-add on any arch
	case EnvoyJitter:
		ceil := base
		for i := 1; i < k && ceil < cap; i++ {
			ceil = 2*ceil + base // (2^k - 1) × base
		}
		return r.Int64N(min(ceil, cap))
	case AWSLegacy:
		// b × 2^k s for the retry after failed attempt k, the cap past
		// log2(cap / 1 s) (backoffDelayLegacy).
		if float64(k) > math.Floor(math.Log2(b.CapMS/b.BaseMS)) {
			return cap
		}
		return nsOf(r.Float64() * float64(base<<k))
	case AWS2026:
		return nsOf(r.Float64() * math.Min(b.BaseMS*1e6*math.Pow(2, float64(k-1)), b.CapMS*1e6))
	case Decorrelated:
		if prev <= 0 {
			return base
		}
		hi := 3 * prev
		if hi <= base {
			return min(base, cap)
		}
		return min(cap, base+r.Int64N(hi-base))
	case Constant:
		return base
	}
	return 0
}

// fullJitter returns uniform(0, min(cap, base × 2^(k-1))) for retry k >= 1.
func fullJitter(k int, base, cap int64, r *rand.Rand) int64 {
	ceil := base
	for i := 1; i < k && ceil < cap; i++ {
		ceil *= 2
	}
	ceil = min(ceil, cap)
	if ceil <= 0 {
		return 0
	}
	return r.Int64N(ceil)
}

// grpcRule is gRPC's retry throttling, from gRFC A6 "gRPC Retry Design"
// (grpc/proposal, A6-client-retries.md, section "Throttling Retry Attempts
// and Hedged RPCs") as grpc-go v1.85.0 implements it (clientconn.go,
// retryThrottler; stream.go, csAttempt.shouldRetry): token_count starts at
// maxTokens and stays in [0, maxTokens]; every failed attempt whose status
// is retryable decrements it by 1 (the last attempt's too), every
// successful RPC increments it by tokenRatio; while token_count <=
// maxTokens/2 no retry is made. A timeout counts when the policy retries
// timeouts (they stand for UNAVAILABLE); with the deadline semantics it is
// DEADLINE_EXCEEDED, not retryable, and does not count.
type grpcRule struct {
	maxTokens, ratio, tokens float64
	countTimeouts            bool
}

func newGRPC(maxTokens, ratio float64) *grpcRule {
	return &grpcRule{maxTokens: maxTokens, ratio: ratio, tokens: maxTokens, countTimeouts: true}
}

func (g *grpcRule) done(_ int64, _, ok, timeout bool, _ int32) {
	// min and max spelled as comparisons, the same for these finite
	// values: in WebAssembly the builtins on floats are calls to the
	// runtime (fmin64, fmax64), the runtime being built without inlining.
	switch {
	case ok:
		if t := g.tokens + g.ratio; t < g.maxTokens {
			g.tokens = t
		} else {
			g.tokens = g.maxTokens
		}
	case !timeout || g.countTimeouts:
		if t := g.tokens - 1; t > 0 {
			g.tokens = t
		} else {
			g.tokens = 0
		}
	}
}
func (g *grpcRule) retry(int64, bool) (bool, int32) { return g.tokens > g.maxTokens/2, 0 }

// envoyRule bounds Envoy's concurrent retries (envoyproxy/envoy,
// api/envoy/config/cluster/v3/circuit_breaker.proto): with a RetryBudget,
// active retries may be at most budget_percent of the active requests plus
// the pending ones, and never fewer than min_retry_concurrency; without
// one (percent 0), the max_retries threshold caps them (minConc). Here
// every attempt sent or waiting to be sent and not yet answered is active;
// a retry is active from the decision to make it (its backoff included).
type envoyRule struct {
	percent, minConc float64
	active, retries  int // attempts in flight or waiting, retries among them
}

func newEnvoy(percent, minConc float64) *envoyRule {
	return &envoyRule{percent: percent, minConc: minConc}
}

func (e *envoyRule) send(_ int64, retry bool, _ *rand.Rand) bool {
	if !retry {
		e.active++ // a retry was counted when it was admitted
	}
	return true
}
func (e *envoyRule) done(_ int64, retry, _ bool, _ int32) {
	e.active--
	if retry {
		e.retries--
	}
}
func (e *envoyRule) retry(int64, bool) (bool, int32) {
	limit := float64(e.percent/100) * float64(e.active)
	if limit < e.minConc { // max(e.minConc, limit), without fmax64 (grpcRule.done)
		limit = e.minConc
	}
	if float64(e.retries) >= limit {
		return false, 0
	}
	e.active++
	e.retries++
	return true, 0
}

// finagleRule is Finagle's RetryBudget (twitter/finagle,
// finagle-core/src/main/scala/com/twitter/finagle/service/RetryBudget.scala,
// RetryBudget.apply(ttl, minRetriesPerSec, percentCanRetry)), which tower's
// TpsBudget copies: a deposit is 1000 tokens, a retry withdraws 1000 /
// percent when the balance holds them; the balance is the sum of deposits
// and withdrawals of the last ttl (a leaky bucket, twitter/util
// TokenBucket.newLeakyBucket, over a WindowedAdder of 10 slices) plus a
// reserve of minRetriesPerSec × ttl × withdraw tokens. With onSuccess a
// request deposits when it succeeds (RequeueFilter), else when it starts
// (RetryFilter); perReq caps a request's retries at ceil(perReq × balance
// in retries) when it starts (RequeueFilter's maxRetriesPerReq).
type finagleRule struct {
	deposit, withdraw, reserve int64
	window                     slidingSum
	onSuccess                  bool
	perReq                     float64
}

func newFinagle(b TokenBudget) *finagleRule {
	const scale = 1000
	withdraw := int64(scale / b.PercentCanRetry)
	ttl := nsOf(b.TTLS * 1e9)
	return &finagleRule{
		deposit: scale, withdraw: withdraw, reserve: int64(b.MinRetriesPerSec*b.TTLS) * withdraw,
		window: newSlidingSum(ttl, 10), onSuccess: b.DepositOnSuccess, perReq: b.MaxRetriesPerBalance,
	}
}

func (f *finagleRule) send(now int64, retry bool, _ *rand.Rand) bool {
	if !retry && !f.onSuccess {
		f.window.add(now, f.deposit)
	}
	return true
}
func (f *finagleRule) done(now int64, ok bool) {
	if ok && f.onSuccess {
		f.window.add(now, f.deposit)
	}
}

// limit returns the retries a request starting at now may make.
func (f *finagleRule) limit(now int64) int32 {
	balance := (f.window.sum(now) + f.reserve) / f.withdraw
	return int32(math.Ceil(f.perReq * float64(max(0, balance))))
}
func (f *finagleRule) retry(now int64, _ bool) (bool, int32) {
	if f.window.sum(now)+f.reserve < f.withdraw {
		return false, 0
	}
	f.window.add(now, -f.withdraw)
	return true, 0
}

// awsRule is the AWS SDKs' retry quota as aws-sdk-go-v2 v1.48.0
// implements it (aws/retry/standard.go, GetRetryToken and
// GetAttemptToken; aws/ratelimit/token_bucket.go): the quota starts full
// and never exceeds its capacity; a retry takes its cost and is not made
// when the quota holds less; a first attempt that succeeds adds
// NoRetryIncrement; a retry that succeeds gives its cost back.
type awsRule struct {
	q     AWSQuota
	quota int32
}

func (a *awsRule) done(_ int64, retry, ok bool, cost int32) {
	switch {
	case !ok:
	case !retry:
		a.quota = min(a.q.Capacity, a.quota+a.q.NoRetryIncrement)
	default:
		a.quota = min(a.q.Capacity, a.quota+cost) // the retry's own cost
	}
}
func (a *awsRule) retry(_ int64, timeout bool) (bool, int32) {
	cost := a.q.RetryCost
	if timeout {
		cost = a.q.TimeoutCost
	}
	if a.quota < cost {
		return false, 0
	}
	a.quota -= cost
	return true, cost
}

// sreRule is the Google SRE book, chapter 21 "Handling Overload"
// (https://sre.google/sre-book/handling-overload/): a per-request retry
// budget of up to three attempts; a per-client retry budget, a request
// being retried only while retries are below 10% of the requests the
// client sends; and, with throttle, adaptive throttling: each client keeps
// the requests it attempted and the accepts (answered by the backend)
// over the last two minutes and rejects a new attempt locally with
// probability max(0, (requests - K × accepts) / (requests + 1)), K = 2.
// The chapter gives no window for the retry ratio: 120 s is ours. Retries
// go out at once (the chapter: "the preferred response is to retry the
// request immediately").
type sreRule struct {
	throttle          bool
	k, ratio          float64
	sent, retries     slidingSum // attempts sent, retries among them
	requests, accepts slidingSum // adaptive throttling's counts
}

func newSRE(l SRELimits) *sreRule {
	w, tw := nsOf(l.WindowS*1e9), nsOf(max(l.ThrottleWindowS, 1)*1e9)
	return &sreRule{
		throttle: l.Throttle, k: l.K, ratio: l.Ratio,
		sent: newSlidingSum(w, 120), retries: newSlidingSum(w, 120),
		requests: newSlidingSum(tw, 120), accepts: newSlidingSum(tw, 120),
	}
}

func (s *sreRule) send(now int64, retry bool, r *rand.Rand) bool {
	if s.throttle {
		req := float64(s.requests.sum(now))
		acc := float64(s.accepts.sum(now))
		s.requests.add(now, 1)
		if p := rejectP(req, acc, s.k); p > 0 && r.Float64() < p {
			return false
		}
	}
	s.sent.add(now, 1)
	if retry {
		s.retries.add(now, 1)
	}
	return true
}
func (s *sreRule) done(now int64, _, ok bool, _ int32) {
	if s.throttle && ok {
		s.accepts.add(now, 1)
	}
}
func (s *sreRule) retry(now int64, _ bool) (bool, int32) {
	return float64(s.retries.sum(now)) < float64(s.ratio*float64(s.sent.sum(now))), 0
}

// breakerRule is a circuit breaker (Breaker) in front of every attempt.
// The outcome of a call let through while closed is recorded in a window
// (the last WindowCalls outcomes, or the last WindowS seconds); open, it
// refuses calls until openUntil; then the first HalfOpenCalls calls go
// through, the others are refused, and when their outcomes are in it
// closes (a fresh window) or opens again. A call let through while closed
// whose outcome comes after the breaker opened is not recorded.
type breakerRule struct {
	b         Breaker
	state     uint8 // closed, open, half-open
	openUntil int64
	// count-based window: a ring of outcomes (true: failure)
	ring       []bool
	next, n    int
	fails      int
	calls, bad slidingSum // time-based window
	// half-open: calls let through, outcomes in, failures among them
	probes, probed, probeBad int
}

const (
	closed uint8 = iota
	open
	halfOpen
)

func newBreaker(b Breaker) breakerRule {
	br := breakerRule{b: b}
	if b.Kind == CountBased {
		br.ring = make([]bool, b.WindowCalls)
	} else {
		w := nsOf(b.WindowS * 1e9)
		br.calls, br.bad = newSlidingSum(w, 10), newSlidingSum(w, 10)
	}
	return br
}

func (c *breakerRule) send(now int64) bool {
	if c.state == open {
		if now < c.openUntil {
			return false
		}
		c.state, c.probes, c.probed, c.probeBad = halfOpen, 0, 0, 0
	}
	if c.state == halfOpen {
		if c.probes >= c.b.HalfOpenCalls {
			return false
		}
		c.probes++
	}
	return true
}

func (c *breakerRule) done(now int64, ok bool) {
	switch c.state {
	case open:
		return
	case halfOpen:
		c.probed++
		if !ok {
			c.probeBad++
		}
		if c.probed >= c.b.HalfOpenCalls || (c.b.HalfOpenCalls == 1 && !ok) {
			if float64(c.probeBad) >= c.b.FailureRatio*float64(c.probed) && c.probeBad > 0 {
				c.trip(now)
			} else {
				c.reset()
			}
		}
		return
	}
	var total, failed float64
	if c.b.Kind == CountBased {
		if c.n == len(c.ring) && c.ring[c.next] {
			c.fails--
		}
		c.ring[c.next] = !ok
		if !ok {
			c.fails++
		}
		c.next = (c.next + 1) % len(c.ring)
		c.n = min(c.n+1, len(c.ring))
		total, failed = float64(c.n), float64(c.fails)
		if c.n < min(c.b.MinCalls, len(c.ring)) {
			return
		}
	} else {
		c.calls.add(now, 1)
		if !ok {
			c.bad.add(now, 1)
		}
		total, failed = float64(c.calls.sum(now)), float64(c.bad.sum(now))
		if total < float64(c.b.MinCalls) {
			return
		}
	}
	if failed >= c.b.FailureRatio*total {
		c.trip(now)
	}
}

func (c *breakerRule) trip(now int64) {
	c.state, c.openUntil = open, now+nsOf(c.b.OpenS*1e9)
}

func (c *breakerRule) reset() {
	c.state = closed
	if c.b.Kind == CountBased {
		clear(c.ring)
		c.next, c.n, c.fails = 0, 0, 0
	} else {
		c.calls = newSlidingSum(c.calls.width*int64(len(c.calls.cells)), 10)
		c.bad = newSlidingSum(c.bad.width*int64(len(c.bad.cells)), 10)
	}
}

// rejectP is the SRE book's client request rejection probability,
// max(0, (requests - K × accepts) / (requests + 1)).
func rejectP(requests, accepts, k float64) float64 {
	// max(0, p), without fmax64 (grpcRule.done): p is finite, and +0 when
	// it is 0
	if p := (requests - float64(k*accepts)) / (requests + 1); p > 0 {
		return p
	}
	return 0
}

// slidingSum is a sum over the last window ns, kept in slices of
// window/slices ns: a value added at time t counts until the slice that
// holds t leaves the window (as twitter/util's WindowedAdder). Times must
// not decrease. Most times fall in the newest slice, before end: they
// need no division.
type slidingSum struct {
	width int64   // ns per slice
	cells []int64 // ring: cell i%len holds slice i
	last  int64   // the newest slice seen
	cur   int     // last's cell
	end   int64   // the end of slice last, ns
	total int64
}

func newSlidingSum(window int64, slices int) slidingSum {
	w := window / int64(slices)
	return slidingSum{width: w, cells: make([]int64, slices), end: w}
}

// advance makes now's slice the newest, emptying the cells of the slices
// that left the window.
func (w *slidingSum) advance(now int64) {
	if now >= w.end {
		w.shift(now)
	}
}

func (w *slidingSum) shift(now int64) {
	s := now / w.width
	n := int64(len(w.cells))
	if s-w.last >= n {
		clear(w.cells)
		w.total = 0
	} else {
		for i := w.last + 1; i <= s; i++ {
			c := &w.cells[i%n]
			w.total -= *c
			*c = 0
		}
	}
	if s > w.last {
		w.last = s
	}
	w.cur, w.end = int(w.last%n), (w.last+1)*w.width
}

func (w *slidingSum) add(now, v int64) {
	w.advance(now)
	w.cells[w.cur] += v
	w.total += v
}

func (w *slidingSum) sum(now int64) int64 {
	w.advance(now)
	return w.total
}
