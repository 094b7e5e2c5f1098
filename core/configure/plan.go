package configure

import (
	"math"
	"strconv"
)

// Result is the answer for every system.
type Result struct {
	Derived Derived
	Plans   []Plan
}

// Compute chooses every system's parameters for t, bounds and simulates
// them (two runs each: 100 % failure, and FailureRate, from seed).
func Compute(t Traffic, seed uint64) (Result, error) {
	if err := t.Validate(); err != nil {
		return Result{}, err
	}
	d := derive(t)
	out := Result{Derived: d, Plans: make([]Plan, 0, len(Systems()))}
	var b simBuffers
	for i, s := range Systems() {
		p, mk := choose(t, d, s)
		p.SimOutage = b.simulate(t, mk(), warmup(s, d.PerClientRPS, d.OKS), 1, seed+uint64(i)).Amplification()
		p.SimRate = b.simulate(t, mk(), warmup(s, d.PerClientRPS, d.OKS), t.FailureRate, seed+uint64(i)+1000).Amplification()
		p.Meets = p.OutageBound <= t.MaxAmp+1e-12 && p.RateBound <= t.MaxAmp+1e-12
		p.Fits = p.OutageBound <= t.Headroom+1e-12
		out.Plans = append(out.Plans, p)
	}
	return out, nil
}

// attemptsFor returns the largest k in [1, n] with 1 + g_k(f) <= a: the
// attempts a system without a budget may make so that failures at rate f
// stay within the accepted amplification.
func attemptsFor(f, a float64, n int) int {
	k := 1
	for j := 2; j <= n; j++ {
		if 1+retryShare(f, j) <= a+1e-12 {
			k = j
		}
	}
	return k
}

// thresholdFor returns the largest failure share θ (a multiple of 0.001,
// in [0.01, 1]) with g_n(θ) <= a-1: a breaker that opens at θ keeps the
// retries of a failure rate just below θ within the accepted
// amplification.
func thresholdFor(a float64, n int) float64 {
	if n <= 1 {
		return 0.5
	}
	best := 0.01
	for k := 10; k <= 1000; k++ {
		th := float64(k) / 1000
		if retryShare(th, n) <= a-1+1e-12 {
			best = th
		}
	}
	return best
}

// floorTo rounds v down to dec decimals.
func floorTo(v float64, dec int) float64 {
	m := math.Pow(10, float64(dec))
	return math.Floor(v*m+1e-9) / m
}

func fmtF(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// GRPCOutage is the bound of gRPC retry throttling at 100 % failure: a
// channel whose tokens start at maxTokens (a healthy warm-up keeps them
// there) grants a retry after failure k only while maxTokens - k >
// maxTokens/2, so ceil(M/2) - 1 retries in all, whatever the outage's
// length, and no request makes more than n-1.
//
// The healthy attempts in flight when the outage starts succeed after it
// and add tokenRatio each: with warm of them, ceil(M/2 + r·warm) - 1.
func GRPCOutage(maxTokens, ratio, warm float64, n int, requests float64) float64 {
	k := math.Ceil(maxTokens/2+ratio*warm) - 1
	if k < 0 {
		k = 0
	}
	return 1 + math.Min(float64(n-1)*requests, k)/requests
}

// AWSOutage is the bound of the AWS standard retry quota at 100 % failure:
// the bucket starts full at capacity, no success refills it, each retry
// takes cost: floor(capacity/cost) retries.
//
// The healthy attempts in flight when the outage starts succeed after it
// and add one token each: floor((capacity + warm)/cost).
func AWSOutage(capacity, cost, warm float64, n int, requests float64) float64 {
	k := math.Floor((capacity + warm) / cost)
	return 1 + math.Min(float64(n-1)*requests, k)/requests
}

// EnvoyMaxRetriesInFlight bounds the retries in flight of Envoy's retry
// budget when at most first attempts are in flight besides them: a retry
// starts only while retries < max(m, floor(p·(first + retries))), so
// retries <= max(m, p·first/(1-p)).
func EnvoyMaxRetriesInFlight(pct float64, m int, first float64, n int) float64 {
	p := pct / 100
	x := float64(m)
	if p >= 1 {
		return math.Max(x, float64(n-1)*first)
	}
	return math.Max(x, math.Floor(p*first/(1-p)))
}

// EnvoyOutage: every attempt fails after d; first attempts in flight are at
// most floor(R·d)+1; each retry holds its place for d and retries start in
// [d, span], so at most X·(floor((span-d)/d)+1) of them.
func EnvoyOutage(pct float64, m int, d Derived, n int) float64 {
	first := math.Floor(d.PerClientRPS*math.Max(d.FailS, d.OKS)) + 1
	x := EnvoyMaxRetriesInFlight(pct, m, first, n)
	k := x * (math.Floor((d.SpanS-d.FailS)/d.FailS) + 1)
	return 1 + math.Min(float64(n-1)*d.Requests, k)/d.Requests
}

// finagleWithdraw is Finagle's withdrawal amount: int(1000/percentCanRetry).
func finagleWithdraw(p float64) float64 { return math.Trunc(1000 / p) }

// FinagleOutage: in any ttl window, retries <= minRetriesPerSec·ttl +
// 1000·deposits/withdraw, and a window holds at most floor(R·ttl)+1
// deposits; retries start in [d, span], covered by floor((span-d)/ttl)+1
// windows.
func FinagleOutage(ttl float64, m int, p float64, d Derived, n int) float64 {
	perWindow := float64(m)*ttl + 1000/finagleWithdraw(p)*(math.Floor(d.PerClientRPS*ttl)+1)
	k := perWindow * (math.Floor((d.SpanS-d.FailS)/ttl) + 1)
	return 1 + math.Min(float64(n-1)*d.Requests, math.Floor(k))/d.Requests
}

// BreakerOutage bounds a circuit breaker in front of every attempt at 100
// % failure: it opens once trip failures are recorded, by
// tTrip = (trip-1)/R + d (the trip-th attempt starts by then, its failure
// is known d later); attempts started by tTrip number at most
// sum_j floor((tTrip - j·d)·R)+1 (first attempts, then the retries of the
// failures known by each earlier moment); afterwards each half-open phase,
// one per wait, admits probes attempts. tripOK false: the breaker is not
// sure to open (the failures needed take longer than its window).
func BreakerOutage(trip float64, tripOK bool, probes int, wait float64, d Derived, n int) float64 {
	total := float64(n) * d.Requests
	// the trip-th attempt starts by (trip-1)/R only when the first
	// attempts alone number trip: the counted requests are N
	if tripOK && trip <= d.Requests {
		tTrip := (trip-1)/d.PerClientRPS + d.FailS
		// sum over j = 0..J of min(N, (tTrip - j·d)·R + 1), in closed form
		// (the floors dropped: still an upper bound), J = floor(tTrip/d)
		R, dd, N := d.PerClientRPS, d.FailS, d.Requests
		J := math.Floor(tTrip / dd)
		j0 := math.Min(J+1, math.Max(0, math.Ceil((tTrip-(N-1)/R)/dd))) // terms capped at N
		c := J - j0 + 1
		before := j0*N + c*(tTrip*R+1) - R*dd*(j0+J)*c/2
		after := float64(probes) * math.Floor(math.Max(0, d.SpanS-d.FailS)/wait)
		total = math.Min(total, before+after)
	}
	return total / d.Requests
}

// choose returns system s's plan (settings, bounds, snippets) and a
// constructor of its gate for the simulation.
//
// Sources, read at these versions (content/LANG/methods.md, "the numbers
// you configure", says the same):
//   - gRPC: grpc-go v1.85.0 clientconn.go (retryThrottler: tokens start at
//     maxTokens, throttle takes one per retryable failure and refuses at
//     <= maxTokens/2, successfulRPC adds tokenRatio), stream.go (shouldRetry
//     throttles before the attempts check), service_config.go (maxTokens in
//     (0, 1000]), dialoptions.go (defaultMaxCallAttempts 5); gRFC A6.
//     Throttling is off unless the service config sets retryThrottling.
//   - Envoy: go-control-plane envoy v1.40.0 config/cluster/v3
//     circuit_breaker.proto (retry_budget: budget_percent of active plus
//     pending requests, default 20 %; min_retry_concurrency default 3;
//     optional: without it max_retries caps concurrent retries).
//   - Finagle: RetryBudget.scala (develop, commit 0e26b57): ttl in [1 s,
//     60 s], default 10 s, minRetriesPerSec 10, percentCanRetry 0.2, deposit
//     1000, withdrawal int(1000/percent), reserve minRetriesPerSec × ttl ×
//     withdrawal, leaky bucket over ttl; MethodBuilder's withMaxRetries
//     (MethodBuilderRetry.scala).
//   - AWS: aws-sdk-go-v2 v1.48.0 aws/retry/standard.go (500 tokens, 14 per
//     retry, 5 per throttling retry, refund on a successful retry, +1 on a
//     first-attempt success), aws/retry/adaptive.go (the client-side rate
//     limiter reacts to throttling errors only).
//   - resilience4j: CircuitBreakerConfig.java (commit 335f5eb): threshold
//     50 %, COUNT_BASED window 100, minimumNumberOfCalls 100, 60 s open, 10
//     calls half-open.
//   - Polly v8: Polly.Core CircuitBreakerConstants.cs: FailureRatio 0.1,
//     MinimumThroughput 100, SamplingDuration 30 s, BreakDuration 5 s.
//   - tenacity: tenacity/__init__.py: stop=stop_never, wait=wait_none() by
//     default (retries forever).
//
// Every value a snippet sets is our choice for the reader's traffic, not
// the project's default, except where Settings repeats a default.
func choose(t Traffic, d Derived, s System) (Plan, func() gate) {
	a, f, n := t.MaxAmp, t.FailureRate, t.Attempts
	g := retryShare(f, n)
	extra := math.Round((a-1)*d.Requests*1e6) / 1e6 // the extra attempts the outage may cost (rounded: 0.1 × 6000 is 600)
	p := Plan{System: s}
	switch s {
	case GRPC:
		n5 := min(n, 5) // grpc-go caps maxAttempts at 5
		// half of the extra attempts to the tokens spent at 100 % failure
		// (ceil(M/2)-1 retries), the rest to the refill of the successes
		m := math.Min(1000, 2*math.Floor(extra/2)+1)
		if m < 1 {
			m = 1
		}
		succ := d.Requests + math.Floor(d.PerClientRPS*d.OKS) + 1
		r := math.Max(0.001, floorTo(((a-1)*d.Requests-m/2)/succ, 3))
		p.Settings = []Setting{{"maxAttempts", strconv.Itoa(n5)}, {"retryThrottling.maxTokens", fmtF(m)}, {"retryThrottling.tokenRatio", fmtF(r)}}
		p.OutageBound = GRPCOutage(m, r, d.Warm, n5, d.Requests)
		// grants <= M/2 + r·S: S, the successes after the outage starts,
		// are at most N plus the warm-up attempts still in flight.
		p.RateBound = 1 + math.Min(retryShare(f, n5), (m/2+r*(d.Requests+math.Floor(d.PerClientRPS*d.OKS)+1))/d.Requests)
		p.Formula = "1 + min((n-1)·N, ceil(M/2 + r·W) - 1) / N, W = floor(R·latency)+1"
		p.Lang, p.Snippet = "json", grpcSnippet(n5, m, r)
		return p, func() gate { return &gateCap{n: n5, g: &grpcGate{tokens: m, max: m, ratio: r}} }
	case Envoy:
		pct := floorTo(100*(a-1)/a, 2)
		m := 0
		// the reserve: at most a quarter of the extra attempts
		m = int(math.Floor(extra / 4 / (math.Floor((d.SpanS-d.FailS)/d.FailS) + 1)))
		for pct > 0 && EnvoyOutage(pct, m, d, n) > a+1e-12 {
			pct = floorTo(pct*0.95, 2)
		}
		p.Settings = []Setting{{"retry_policy.num_retries", strconv.Itoa(n - 1)}, {"retry_policy.per_try_timeout", fmtF(t.TimeoutMS/1000) + "s"},
			{"retry_budget.budget_percent", fmtF(pct)}, {"retry_budget.min_retry_concurrency", strconv.Itoa(m)}}
		p.OutageBound = EnvoyOutage(pct, m, d, n)
		first := math.Floor(d.PerClientRPS*math.Max(d.FailS, d.OKS)) + 1
		x := EnvoyMaxRetriesInFlight(pct, m, first, n)
		hold := math.Min(d.FailS, d.OKS) // a retry holds its place at least this long
		p.RateBound = 1 + math.Min(g, x*(math.Floor((d.SpanS-hold)/hold)+1)/d.Requests)
		p.Formula = "1 + min((n-1)·N, X·(floor((span-d)/d)+1)) / N, X = max(m, floor(p·F/(1-p))), F = floor(R·d)+1"
		p.Lang, p.Snippet = "yaml", envoyRoute(n, t.TimeoutMS)
		p.Lang2, p.Snippet2 = "yaml", envoyCluster(pct, m)
		return p, func() gate { return &envoyGate{pct: pct, min: m} }
	case Finagle:
		const ttl = 10.0 // Finagle's default ttl, s
		windows := math.Floor((d.SpanS-d.FailS)/ttl) + 1
		m := int(math.Floor(extra / 4 / windows / ttl))
		share := (extra - float64(m)*ttl*windows) / windows / (math.Floor(d.PerClientRPS*ttl) + 1)
		pc := floorTo(math.Min(share, 1000), 4)
		for pc > 0 && FinagleOutage(ttl, m, pc, d, n) > a+1e-12 {
			pc = floorTo(pc*0.95, 4)
		}
		if pc <= 0 {
			pc = 0
		}
		p.Settings = []Setting{{"ttl", "10.seconds"}, {"minRetriesPerSec", strconv.Itoa(m)}, {"percentCanRetry", fmtF(pc)}, {"maxRetries", strconv.Itoa(n - 1)}}
		if pc > 0 {
			p.OutageBound = FinagleOutage(ttl, m, pc, d, n)
			p.RateBound = 1 + math.Min(g, p.OutageBound-1)
		} else {
			p.OutageBound = 1 + math.Min(float64(n-1)*d.Requests, float64(m)*ttl*windows)/d.Requests
			p.RateBound = 1 + math.Min(g, p.OutageBound-1)
		}
		p.Formula = "1 + min((n-1)·N, (m·ttl + (1000/w)·(floor(R·ttl)+1))·(floor((span-d)/ttl)+1)) / N, w = int(1000/percentCanRetry)"
		p.Lang, p.Snippet = "scala", finagleSnippet(m, pc, n, t.TimeoutMS)
		return p, func() gate {
			if pc == 0 {
				return &finagleGate{ttl: ttl, reserve: float64(m) * ttl, withdraw: 1}
			}
			w := finagleWithdraw(pc)
			return &finagleGate{ttl: ttl, reserve: float64(m) * ttl * w, withdraw: w, deposit: 1000}
		}
	case AWSStandard, AWSAdaptive:
		capacity, cost := 500.0, 14.0 // aws-sdk-go-v2 v1.48.0 standard.go: DefaultRetryRateTokens, defaultRetryCost
		awsMeets := func(q, c float64) bool {
			return AWSOutage(q, c, d.Warm, n, d.Requests) <= a+1e-12 && 1+math.Min(g, f+(1-f)/c+q/c/d.Requests) <= a+1e-12
		}
		if !awsMeets(capacity, cost) {
			if a-1 > f {
				// half of the extra attempts to the bucket, half to the long run
				cost = math.Max(cost, math.Ceil(2*(1-f)/(a-1-f)))
				capacity = cost * math.Floor(math.Min(math.Max(0, extra/2), 35))
			} else {
				// successful retries are refunded: at f >= a-1 no cost meets
				// the long run; keep the outage within the extra attempts
				capacity = cost * math.Floor(math.Min(math.Max(0, extra), 35))
			}
		}
		p.Settings = []Setting{{"max_attempts", strconv.Itoa(n)}, {"retry_mode", modeOf(s)}, {"RetryCost", fmtF(cost)}, {"RateLimiter capacity", fmtF(capacity)}}
		p.OutageBound = AWSOutage(capacity, cost, d.Warm, n, d.Requests)
		// attained when the warm-up's late successes add no whole retry
		p.Exact = math.Floor((capacity+d.Warm)/cost) == math.Floor(capacity/cost) && float64(n-1)*d.Requests >= math.Floor(capacity/cost)
		p.RateBound = 1 + math.Min(g, f+(1-f)/cost+capacity/cost/d.Requests)
		p.Formula = "1 + min((n-1)·N, floor((Q + W)/c)) / N, W = floor(R·latency)+1"
		p.Lang, p.Snippet = "ini", awsShared(s, n)
		p.Lang2, p.Snippet2 = "go", awsGo(s, n, cost, capacity)
		return p, func() gate { return &awsGate{tokens: capacity, capacity: capacity, cost: cost, increment: 1} }
	case Resilience4j:
		k := attemptsFor(f, a, n)
		th := thresholdFor(a, k)
		const size, wait, probes = 100, 60.0, 10 // resilience4j defaults (CircuitBreakerConfig.java)
		trip := math.Ceil(th * size)
		p.Settings = []Setting{{"retry.maxAttempts", strconv.Itoa(k)}, {"circuitbreaker.failureRateThreshold", fmtF(th * 100)},
			{"circuitbreaker.slidingWindowSize", strconv.Itoa(size)}, {"circuitbreaker.minimumNumberOfCalls", strconv.Itoa(size)},
			{"circuitbreaker.waitDurationInOpenState", "60s"}, {"circuitbreaker.permittedNumberOfCallsInHalfOpenState", strconv.Itoa(probes)}}
		tn := t
		tn.Attempts = k
		dk := derive(tn)
		// the late successes of the warm-up sit in the window too: the
		// trip-th failure opens it surely only while trip + W <= size
		p.OutageBound = BreakerOutage(trip, trip+dk.Warm <= size, probes, wait, dk, k)
		p.RateBound = 1 + retryShare(f, k)
		p.Formula = "attempts started before the breaker opens + probes per wait, over N"
		p.Lang, p.Snippet = "yaml", r4jSnippet(k, th*100, t.TimeoutMS)
		return p, func() gate {
			return &gateCap{n: k, g: &breaker{threshold: th, minCalls: size, size: size, wait: wait, probes: probes}}
		}
	case Polly:
		k := attemptsFor(f, a, n)
		th := thresholdFor(a, k)
		const minThroughput, sampling, brk = 100, 30.0, 5.0 // Polly v8 CircuitBreakerStrategyOptions defaults
		succ := math.Floor(d.PerClientRPS*sampling) + 1
		trip := math.Max(minThroughput, math.Ceil(th*succ/(1-th)))
		tripOK := th < 1 && (trip-1)/d.PerClientRPS < sampling
		p.Settings = []Setting{{"MaxRetryAttempts", strconv.Itoa(k - 1)}, {"FailureRatio", fmtF(th)}, {"MinimumThroughput", "100"},
			{"SamplingDuration", "30s"}, {"BreakDuration", "5s"}}
		tn := t
		tn.Attempts = k
		dk := derive(tn)
		p.OutageBound = BreakerOutage(trip, tripOK, 1, brk, dk, k)
		p.RateBound = 1 + retryShare(f, k)
		p.Formula = "attempts started before the breaker opens + one probe per break, over N"
		p.Lang, p.Snippet = "csharp", pollySnippet(k, th)
		return p, func() gate {
			return &gateCap{n: k, g: &breaker{threshold: th, minCalls: minThroughput, samplingS: sampling, wait: brk, probes: 1}}
		}
	case Tenacity:
		k := attemptsFor(f, a, n)
		p.Settings = []Setting{{"stop", "stop_after_attempt(" + strconv.Itoa(k) + ")"}}
		p.OutageBound, p.Exact = float64(k), true
		p.RateBound = 1 + retryShare(f, k)
		p.Formula = "n"
		p.Lang, p.Snippet = "python", tenacitySnippet(k)
		return p, func() gate { return &gateCap{n: k, g: capOnly{}} }
	}
	panic("configure: unknown system " + string(s))
}

func modeOf(s System) string {
	if s == AWSAdaptive {
		return "adaptive"
	}
	return "standard"
}

// gateCap wraps a gate with a smaller attempts cap than the traffic's (the
// attempts a system without budget is given).
type gateCap struct {
	n int
	g gate
}

func (c *gateCap) arrive(t float64) { c.g.arrive(t) }
func (c *gateCap) send(t float64, attempt int) bool {
	return attempt <= c.n && c.g.send(t, attempt)
}
func (c *gateCap) finish(t float64, ok bool, attempt int) { c.g.finish(t, ok, attempt) }
func (c *gateCap) retry(t float64, attempt int) bool {
	return attempt < c.n && c.g.retry(t, attempt)
}
