package policies

import (
	"math/rand/v2"
)

// Policy names a retry policy. Its admission rule and defaults are those of
// the system it is named after, each cited where it is implemented.
type Policy string

const (
	// None makes one attempt per request.
	None Policy = "none"
	// Naive retries at once, up to Scenario.Attempts attempts in all.
	Naive Policy = "naive"
	// Backoff retries up to Scenario.Attempts attempts, waiting
	// uniform(0, min(10 s, 100 ms × 2^(k-1))) before retry k (exponential
	// backoff with full jitter; the base and cap are this project's).
	Backoff Policy = "backoff"
	// GRPC is gRPC retry throttling (gRFC A6) on A6's example retry policy.
	GRPC Policy = "grpc"
	// Envoy is Envoy's retry budget on the route's default retry policy.
	Envoy Policy = "envoy"
	// Finagle is Finagle's default RetryBudget.
	Finagle Policy = "finagle"
	// AWS is the AWS SDKs' standard retry mode (retry quota).
	AWS Policy = "aws"
	// SREBudget is the Google SRE book's per-request and per-client retry
	// budgets.
	SREBudget Policy = "sre-budget"
	// SREThrottle is SREBudget plus the SRE book's adaptive (client-side)
	// throttling.
	SREThrottle Policy = "sre-throttle"
)

// All returns every policy, in the order the article presents them.
func All() []Policy {
	return []Policy{None, Naive, Backoff, GRPC, Envoy, Finagle, AWS, SREBudget, SREThrottle}
}

// Valid reports whether p is one of All.
func (p Policy) Valid() bool {
	for _, q := range All() {
		if p == q {
			return true
		}
	}
	return false
}

// Budgeted reports whether p limits its retries with a budget shared by all
// requests (none makes no retry, naive and backoff limit only the attempts
// of each request).
func (p Policy) Budgeted() bool { return p != None && p != Naive && p != Backoff }

// rule is a policy's state and admission rule, for one client process whose
// budget all requests share. Times are simulated ns. The simulation calls,
// for every request: send for each attempt it is about to put on the wire
// (false: refused locally, the request fails); done when an attempt's
// outcome is known; then, after a failure and while attempts < max, retry
// (false: the request fails); and wait for the pause before that retry.
//
// rule is one concrete type whose methods switch on the policy, not an
// interface with a type per policy: the simulation calls it several times
// per attempt, and in WebAssembly an interface method call is an indirect
// call through the Go stack in linear memory. quiet, admitsAll, pauses and
// Policy.Budgeted say, once per run, which calls do nothing for the
// policy, and the simulation skips those (TestRuleShortcuts); the others
// are direct calls.
type rule struct {
	kind ruleKind
	// The state of the policy of kind; the others stay zero.
	fixed   fixed
	grpc    grpcRule
	envoy   envoyRule
	finagle finagleRule
	aws     awsRule
	sre     sreRule
}

// ruleKind says which of rule's policies is in use. sre-budget and
// sre-throttle share one kind: sreRule.throttle tells them apart.
type ruleKind uint8

const (
	kindFixed ruleKind = iota // none, naive, backoff
	kindGRPC
	kindEnvoy
	kindFinagle
	kindAWS
	kindSRE
)

// newRule returns the rule of policy p with its defaults; attempts is the
// scenario's attempts for naive and backoff.
func newRule(p Policy, attempts int) rule {
	switch p {
	case None:
		return rule{kind: kindFixed, fixed: fixed{attempts: 1}}
	case Naive:
		return rule{kind: kindFixed, fixed: fixed{attempts: attempts}}
	case Backoff:
		return rule{kind: kindFixed, fixed: fixed{attempts: attempts, base: 100 * ms, cap: 10 * sec}}
	case GRPC:
		return rule{kind: kindGRPC, grpc: *newGRPC(10, 0.1)}
	case Envoy:
		return rule{kind: kindEnvoy, envoy: *newEnvoy(20, 3)}
	case Finagle:
		return rule{kind: kindFinagle, finagle: *newFinagle(10*sec, 10, 0.2)}
	case AWS:
		return rule{kind: kindAWS, aws: *newAWS()}
	case SREBudget:
		return rule{kind: kindSRE, sre: *newSRE(false, 2)}
	case SREThrottle:
		return rule{kind: kindSRE, sre: *newSRE(true, 2)}
	}
	panic("policies: unknown policy " + string(p))
}

// max returns the attempts per request, the first included.
func (u *rule) max() int {
	switch u.kind {
	case kindGRPC:
		return u.grpc.max()
	case kindEnvoy:
		return u.envoy.max()
	case kindFinagle:
		return u.finagle.max()
	case kindAWS:
		return u.aws.max()
	case kindSRE:
		return u.sre.max()
	}
	return u.fixed.max()
}

// quiet reports whether done does nothing: then the simulation needs no
// event for an attempt's success. sre-budget's done does nothing either:
// see sim.quiet for when it goes without the events.
func (u *rule) quiet() bool {
	return u.kind == kindFixed || u.kind == kindFinagle || (u.kind == kindSRE && !u.sre.throttle)
}

// admitsAll reports whether send always returns true and changes nothing.
func (u *rule) admitsAll() bool {
	return u.kind == kindFixed || u.kind == kindGRPC || u.kind == kindAWS
}

// pauses reports whether wait may return more than 0.
func (u *rule) pauses() bool {
	return u.kind != kindFinagle && u.kind != kindSRE && (u.kind != kindFixed || u.fixed.base > 0)
}

// send: an attempt is about to be sent (false: refused locally).
func (u *rule) send(now int64, retry bool, r *rand.Rand) bool {
	switch u.kind {
	case kindEnvoy:
		return u.envoy.send(now, retry, r)
	case kindFinagle:
		return u.finagle.send(now, retry, r)
	case kindSRE:
		return u.sre.send(now, retry, r)
	}
	return true // fixed, grpc and aws admit every attempt
}

// done is an attempt's outcome; token is what retry returned for it (0 for
// a first attempt).
func (u *rule) done(now int64, retry, ok bool, token int32) {
	switch u.kind {
	case kindGRPC:
		u.grpc.done(now, retry, ok, token)
	case kindEnvoy:
		u.envoy.done(now, retry, ok, token)
	case kindAWS:
		u.aws.done(now, retry, ok, token)
	case kindSRE:
		u.sre.done(now, retry, ok, token)
	}
	// fixed and finagle ignore outcomes
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
	return u.fixed.retry(now, timeout)
}

// wait returns the pause before retry k (1 = the first retry), ns.
func (u *rule) wait(k int, r *rand.Rand) int64 {
	switch u.kind {
	case kindGRPC:
		return u.grpc.wait(k, r)
	case kindEnvoy:
		return u.envoy.wait(k, r)
	case kindAWS:
		return u.aws.wait(k, r)
	case kindFixed:
		return u.fixed.wait(k, r)
	}
	return 0 // finagle and sre retry at once
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

// fixed retries every failure while the request has attempts left: none
// (1 attempt), naive (no pause) and backoff (full jitter).
type fixed struct {
	attempts  int
	base, cap int64 // 0: no pause
}

func (f *fixed) max() int                        { return f.attempts }
func (f *fixed) retry(int64, bool) (bool, int32) { return true, 0 }
func (f *fixed) wait(k int, r *rand.Rand) int64 {
	if f.base == 0 {
		return 0
	}
	return fullJitter(k, f.base, f.cap, r)
}

// grpcRule is gRPC's retry throttling, from gRFC A6 "gRPC Retry Design"
// (grpc/proposal, A6-client-retries.md, section "Throttling Retry Attempts
// and Hedged RPCs"): token_count starts at maxTokens and stays in
// [0, maxTokens]; every failed attempt decrements it by 1, every successful
// one increments it by tokenRatio; while token_count <= maxTokens/2 no
// retry is made. A6 defines no default throttling: maxTokens 10 and
// tokenRatio 0.1 are its example ("retryThrottling": {"maxTokens": 10,
// "tokenRatio": 0.1}), and so is the retry policy (maxAttempts 4,
// initialBackoff 0.1 s, maxBackoff 1 s, backoffMultiplier 2, retry n
// waiting random(0, min(initialBackoff × multiplier^(n-1), maxBackoff)),
// section "Exponential Backoff").
type grpcRule struct {
	maxTokens, ratio, tokens float64
}

func newGRPC(maxTokens, ratio float64) *grpcRule {
	return &grpcRule{maxTokens: maxTokens, ratio: ratio, tokens: maxTokens}
}

func (g *grpcRule) max() int { return 4 }
func (g *grpcRule) done(_ int64, _, ok bool, _ int32) {
	if ok {
		g.tokens = min(g.maxTokens, g.tokens+g.ratio)
	} else {
		g.tokens = max(0, g.tokens-1)
	}
}
func (g *grpcRule) retry(int64, bool) (bool, int32) { return g.tokens > g.maxTokens/2, 0 }
func (g *grpcRule) wait(k int, r *rand.Rand) int64  { return fullJitter(k, 100*ms, sec, r) }

// envoyRule is Envoy's retry budget (envoyproxy/envoy,
// api/envoy/config/cluster/v3/circuit_breaker.proto,
// CircuitBreakers.Thresholds.RetryBudget): active retries may be at most
// budget_percent (default 20%) of the active requests plus the pending
// ones, and never fewer than min_retry_concurrency (default 3). Here every
// attempt sent or waiting to be sent and not yet answered is active; a
// retry is active from the decision to make it (its backoff included).
// The route's retry policy keeps Envoy's defaults
// (api/envoy/config/route/v3/route_components.proto, RetryPolicy:
// num_retries defaults to 1; docs/root/configuration/http/http_filters/
// router_filter.rst: fully jittered backoff in [0, (2^N-1) × 25 ms), capped
// at 10 × 25 ms = 250 ms).
type envoyRule struct {
	percent, minConc float64
	active, retries  int // attempts in flight or waiting, retries among them
}

func newEnvoy(percent, minConc float64) *envoyRule {
	return &envoyRule{percent: percent, minConc: minConc}
}

func (e *envoyRule) max() int { return 2 }
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
	limit := max(e.minConc, float64(e.percent/100)*float64(e.active))
	if float64(e.retries) >= limit {
		return false, 0
	}
	e.active++
	e.retries++
	return true, 0
}
func (e *envoyRule) wait(k int, r *rand.Rand) int64 {
	ceil := int64(25 * ms)
	for i := 1; i < k && ceil < 250*ms; i++ {
		ceil = 2*ceil + 25*ms // (2^N - 1) × 25 ms
	}
	return r.Int64N(min(ceil, 250*ms))
}

// finagleRule is Finagle's default RetryBudget (twitter/finagle,
// finagle-core/src/main/scala/com/twitter/finagle/service/RetryBudget.scala,
// RetryBudget.apply(): ttl 10 s, minRetriesPerSec 10, percentCanRetry 0.2).
// Every request deposits 1000 tokens; a retry withdraws 1000/0.2 = 5000
// when the balance holds them; the balance is the sum of deposits and
// withdrawals of the last ttl (a leaky bucket, twitter/util TokenBucket.
// newLeakyBucket, over a WindowedAdder of 10 slices) plus a reserve of
// minRetriesPerSec × ttl × 5000 tokens. Finagle's requeue backoff is "no
// delay" by default (finagle-core param/ClientParams.scala,
// withRetryBackoff); the attempts per request are capped at 3 here, as the
// SRE book's per-request budget, to compare like with like.
type finagleRule struct {
	deposit, withdraw, reserve int64
	window                     slidingSum
}

func newFinagle(ttl int64, minPerSec int64, percent float64) *finagleRule {
	const scale = 1000
	withdraw := int64(scale / percent)
	return &finagleRule{
		deposit: scale, withdraw: withdraw, reserve: minPerSec * (ttl / sec) * withdraw,
		window: newSlidingSum(ttl, 10),
	}
}

func (f *finagleRule) max() int { return 3 }
func (f *finagleRule) send(now int64, retry bool, _ *rand.Rand) bool {
	if !retry {
		f.window.add(now, f.deposit)
	}
	return true
}
func (f *finagleRule) retry(now int64, _ bool) (bool, int32) {
	if f.window.sum(now)+f.reserve < f.withdraw {
		return false, 0
	}
	f.window.add(now, -f.withdraw)
	return true, 0
}

// awsRule is the AWS SDKs' standard retry mode as aws-sdk-go-v2 implements
// it (aws/retry/standard.go: DefaultMaxAttempts 3, DefaultMaxBackoff 20 s,
// DefaultRetryRateTokens 500, DefaultRetryCost 5, DefaultRetryTimeoutCost
// 10, DefaultNoRetryIncrement 1; aws/retry/middleware.go and
// aws/ratelimit/token_rate_limit.go for when they apply). The quota starts
// full at 500 and never exceeds it. A retry takes 5 tokens, 10 after a
// timeout, and is not made when the quota holds fewer; a first attempt that
// succeeds adds 1; a retry that succeeds gives its cost back. The pause
// before retry k is uniform(0, min(20 s, 2^(k-1) s)), exponential backoff
// with full jitter and a 1 s base as the AWS SDK for Rust documents it
// (aws-smithy-client retry::Config).
type awsRule struct {
	quota int32 // retry tokens, in [0, 500]
}

func newAWS() *awsRule { return &awsRule{quota: 500} }

func (a *awsRule) max() int { return 3 }
func (a *awsRule) done(_ int64, retry, ok bool, cost int32) {
	switch {
	case !ok:
	case !retry:
		a.quota = min(500, a.quota+1)
	default:
		a.quota = min(500, a.quota+cost) // the retry's own cost, 5 or 10
	}
}
func (a *awsRule) retry(_ int64, timeout bool) (bool, int32) {
	cost := int32(5)
	if timeout {
		cost = 10
	}
	if a.quota < cost {
		return false, 0
	}
	a.quota -= cost
	return true, cost
}
func (a *awsRule) wait(k int, r *rand.Rand) int64 { return fullJitter(k, sec, 20*sec, r) }

// sreRule is the Google SRE book, chapter 21 "Handling Overload"
// (https://sre.google/sre-book/handling-overload/): a per-request retry
// budget of up to three attempts; a per-client retry budget, a request
// being retried only while retries are below 10% of the requests the
// client sends; and, with throttle, adaptive throttling: each client keeps
// the requests it attempted and the accepts (answered by the backend)
// over the last two minutes and rejects a new attempt locally with
// probability max(0, (requests - K × accepts) / (requests + 1)), K = 2.
// The chapter gives no window for the retry ratio: the same two minutes
// are used. Retries go out at once (the chapter: "the preferred response
// is to retry the request immediately").
type sreRule struct {
	throttle          bool
	k                 float64
	sent, retries     slidingSum // attempts sent, retries among them
	requests, accepts slidingSum // adaptive throttling's counts
}

func newSRE(throttle bool, k float64) *sreRule {
	const window = 120 * sec
	return &sreRule{
		throttle: throttle, k: k,
		sent: newSlidingSum(window, 120), retries: newSlidingSum(window, 120),
		requests: newSlidingSum(window, 120), accepts: newSlidingSum(window, 120),
	}
}

func (s *sreRule) max() int { return 3 }
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
	return float64(s.retries.sum(now)) < float64(0.1*float64(s.sent.sum(now))), 0
}

// rejectP is the SRE book's client request rejection probability,
// max(0, (requests - K × accepts) / (requests + 1)).
func rejectP(requests, accepts, k float64) float64 {
	return max(0, (requests-float64(k*accepts))/(requests+1))
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
