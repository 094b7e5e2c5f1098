package policies

// Preset is a retry policy as a project ships it: the project, the version
// of its source that was read, the configuration (the default as shipped,
// or a configuration someone has to choose), and every parameter, each
// cited where the table sets it. Presets is the one table of them: the
// simulation, the calculator's listing and any other calculator read it.
type Preset struct {
	Name    Policy // the name in the calculator's policies parameter
	Project string
	Version string // the version or commit of the source read
	// Config says which configuration this is: "default" when it is what
	// the project does with no retry setting at all, else the setting.
	Config string
	// Shown: in the widget's default selection (the rest on request).
	Shown bool
	// Source is the primary source of the rule and its defaults.
	Source string

	// Attempts per request, the first included; 0: the scenario's
	// Attempts (naive, backoff).
	Attempts int
	// RetryTimeouts: an attempt that timed out may be retried. False: only
	// fast failures (the queue refused the call) are retried, and a
	// timeout ends the request.
	RetryTimeouts bool
	// Deadline: the scenario's timeout covers the whole request, every
	// attempt and pause included (gRPC's deadline), not each attempt.
	Deadline bool
	// HedgeDelayMS > 0: hedging (gRFC A6 hedgingPolicy) instead of
	// retries: a copy of the request goes out every HedgeDelayMS while no
	// answer has come, up to Attempts copies, before the deadline; the
	// first answer ends the request; a fast failure sends the next copy at
	// once; the throttle stops the copies. The server never cancels the
	// copies that lost.
	HedgeDelayMS float64
	Backoff      Pause

	GRPC    *GRPCThrottle
	Envoy   *EnvoyLimit
	Finagle *TokenBudget
	AWS     *AWSQuota
	SRE     *SRELimits
	Breaker *Breaker
}

// BackoffKind is the shape of the pause before a retry.
type BackoffKind uint8

const (
	NoPause BackoffKind = iota
	// FullJitter: uniform(0, min(Cap, Base × Mult^(k-1))) before retry k.
	FullJitter
	// GRPCJitter: min(Base × Mult^(k-1), Cap) × uniform(0.8, 1.2)
	// (grpc-go stream.go, csAttempt.shouldRetry).
	GRPCJitter
	// EnvoyJitter: uniform(0, min(Cap, (2^k - 1) × Base)) before retry k
	// (Envoy's router: "fully jittered" over [0, (2^N-1) × base)).
	EnvoyJitter
	// AWSLegacy: uniform(0, 1 s × 2^k) for the retry after failed attempt
	// k, Cap once 2^k s exceeds it (aws-sdk-go-v2 v1.48.0,
	// aws/retry/jitter_backoff.go, backoffDelayLegacy).
	AWSLegacy
	// AWS2026: uniform(0, 1) × min(Base × 2^(k-1), Cap) (the same file,
	// backoffDelay2026).
	AWS2026
	// Decorrelated: the first pause is Base, then uniform(Base, 3 ×
	// previous) capped at Cap (Finagle's Backoff.decorrelatedJittered).
	Decorrelated
	// Constant: Base before every retry.
	Constant
)

// Pause is the pause before each retry; times in ms.
type Pause struct {
	Kind          BackoffKind
	BaseMS, CapMS float64
	Multiplier    float64 // GRPCJitter's multiplier
}

// GRPCThrottle is gRFC A6's retryThrottling: tokens start at MaxTokens,
// a failure with a retryable status takes 1, a successful RPC gives
// TokenRatio back; no retry while tokens <= MaxTokens/2.
type GRPCThrottle struct{ MaxTokens, TokenRatio float64 }

// EnvoyLimit bounds Envoy's concurrent retries: at most BudgetPercent % of
// the active requests (and pending ones), never fewer than MinConcurrency;
// BudgetPercent 0 is the max_retries circuit breaker alone, a fixed cap of
// MinConcurrency concurrent retries.
type EnvoyLimit struct{ BudgetPercent, MinConcurrency float64 }

// TokenBudget is Finagle's RetryBudget and tower's TpsBudget: deposits
// that expire after TTLS, PercentCanRetry retries per deposit, plus a
// reserve of MinRetriesPerSec × TTLS retries.
type TokenBudget struct {
	TTLS             float64
	MinRetriesPerSec float64
	PercentCanRetry  float64
	// DepositOnSuccess: a request deposits only when it ends in success
	// (Finagle's RequeueFilter), else every request deposits when it
	// starts (RetryFilter, tower).
	DepositOnSuccess bool
	// MaxRetriesPerBalance: a request may make at most ceil(this ×
	// balance) retries, the balance counted in retries when it starts (0:
	// no such cap).
	MaxRetriesPerBalance float64
}

// AWSQuota is the AWS SDKs' retry quota: a bucket of Capacity tokens, a
// retry costs RetryCost (TimeoutCost after a timeout), a first attempt
// that succeeds adds NoRetryIncrement, a retry that succeeds refunds its
// cost.
type AWSQuota struct {
	Capacity, RetryCost, TimeoutCost, NoRetryIncrement int32
}

// SRELimits are the SRE book's per-client retry ratio (retries below
// Ratio of the requests sent over WindowS) and, with Throttle, adaptive
// throttling over ThrottleWindowS with multiplier K.
type SRELimits struct {
	Ratio, WindowS     float64
	Throttle           bool
	K, ThrottleWindowS float64
}

// BreakerKind says how a circuit breaker measures failures.
type BreakerKind uint8

const (
	// CountBased: the outcomes of the last WindowCalls calls
	// (resilience4j's COUNT_BASED sliding window).
	CountBased BreakerKind = iota
	// TimeBased: the outcomes of the last WindowS seconds (Polly).
	TimeBased
)

// Breaker is a circuit breaker in front of every attempt: closed, it lets
// calls through and opens when at least MinCalls outcomes are recorded
// and the share of failures reaches FailureRatio; open, it refuses every
// call locally for OpenS seconds; then half-open, it lets HalfOpenCalls
// calls through and closes if their failure share stays below
// FailureRatio (one failure reopens it when HalfOpenCalls is 1).
type Breaker struct {
	Kind          BreakerKind
	FailureRatio  float64
	WindowCalls   int
	WindowS       float64
	MinCalls      int
	OpenS         float64
	HalfOpenCalls int
}

// Presets returns every policy, in the order the article presents them.
func Presets() []Preset {
	return []Preset{
		{Name: None, Project: "(reference)", Version: "-", Config: "one attempt per request, no retry", Shown: true,
			Attempts: 1},
		{Name: Naive, Project: "(reference)", Version: "-", Config: "retry at once, attempts per the attempts parameter", Shown: true,
			RetryTimeouts: true},
		// The base and cap are ours (retrylab's article 1).
		{Name: Backoff, Project: "(reference)", Version: "-", Config: "exponential backoff with full jitter, 100 ms base, 10 s cap (ours)",
			RetryTimeouts: true, Backoff: Pause{Kind: FullJitter, BaseMS: 100, CapMS: 10000}},

		// gRFC A6 defines no default retry policy nor throttling: both are
		// its examples (grpc/proposal A6-client-retries.md, "Retry Policy"
		// example: maxAttempts 4, initialBackoff 0.1s, maxBackoff 1s,
		// backoffMultiplier 2; "Throttling Configuration" example:
		// maxTokens 10, tokenRatio 0.1). The backoff is grpc-go v1.85.0's
		// (stream.go, csAttempt.shouldRetry): min(initial × mult^n, max) ×
		// uniform(0.8, 1.2); the throttler (clientconn.go, retryThrottler)
		// counts only failures whose status is retryable.
		{Name: GRPC, Project: "gRPC", Version: "gRFC A6; grpc-go v1.85.0",
			Config: "A6 example retryPolicy + retryThrottling; an attempt that times out counts as UNAVAILABLE (server-side timeout: our configuration)", Shown: true,
			Source:   "https://github.com/grpc/proposal/blob/master/A6-client-retries.md",
			Attempts: 4, RetryTimeouts: true,
			Backoff: Pause{Kind: GRPCJitter, BaseMS: 100, CapMS: 1000, Multiplier: 2},
			GRPC:    &GRPCThrottle{MaxTokens: 10, TokenRatio: 0.1}},
		// The same, with A6's deadline: it covers every attempt, a
		// DEADLINE_EXCEEDED is not retryable in the example's
		// retryableStatusCodes (["UNAVAILABLE"]), and there is no
		// per-attempt timeout in A6.
		{Name: GRPCDeadline, Project: "gRPC", Version: "gRFC A6; grpc-go v1.85.0",
			Config:   "A6 example retryPolicy + retryThrottling; timeout_ms is the call's deadline over all attempts",
			Source:   "https://github.com/grpc/proposal/blob/master/A6-client-retries.md",
			Attempts: 4, Deadline: true,
			Backoff: Pause{Kind: GRPCJitter, BaseMS: 100, CapMS: 1000, Multiplier: 2},
			GRPC:    &GRPCThrottle{MaxTokens: 10, TokenRatio: 0.1}},

		// A6's hedging example ("hedgingPolicy": maxAttempts 4,
		// hedgingDelay 0.5s, nonFatalStatusCodes UNAVAILABLE, INTERNAL,
		// ABORTED) with its throttling example and the call's deadline.
		// grpc-go v1.85.0 does not implement hedging (service_config.go
		// parses no hedgingPolicy): the rule is A6's text alone.
		{Name: GRPCHedge, Project: "gRPC", Version: "gRFC A6 (grpc-go v1.85.0 has no hedging)",
			Config:   "A6 example hedgingPolicy (4 copies, 0.5 s apart) + retryThrottling; timeout_ms is the call's deadline",
			Source:   "https://github.com/grpc/proposal/blob/master/A6-client-retries.md",
			Attempts: 4, Deadline: true, HedgeDelayMS: 500,
			GRPC: &GRPCThrottle{MaxTokens: 10, TokenRatio: 0.1}},

		// Envoy: a route without retry_policy makes no retry
		// (api/envoy/config/route/v3/route_components.proto, RouteAction
		// retry_policy; docs router_filter "x-envoy-max-retries": retries
		// need a retry policy or the retry headers).
		{Name: EnvoyRoute, Project: "Envoy", Version: "API v3, route_components.proto at 3304863",
			Config:   "default: route without retry_policy",
			Source:   "https://www.envoyproxy.io/docs/envoy/latest/configuration/http/http_filters/router_filter",
			Attempts: 1},
		// RetryPolicy.num_retries defaults to 1; the backoff defaults to a
		// 25 ms base and 10 × base = 250 ms cap (route_components.proto,
		// RetryPolicy.RetryBackOff); concurrent retries are capped by the
		// cluster's max_retries circuit breaker, default 3
		// (api/envoy/config/cluster/v3/circuit_breaker.proto, Thresholds).
		{Name: EnvoyRetry, Project: "Envoy", Version: "API v3, route_components.proto at 3304863, circuit_breaker.proto at a6193bb",
			Config:   "retry_policy with retry_on set, num_retries default 1; max_retries circuit breaker default 3",
			Source:   "https://github.com/envoyproxy/envoy/blob/main/api/envoy/config/cluster/v3/circuit_breaker.proto",
			Attempts: 2, RetryTimeouts: true,
			Backoff: Pause{Kind: EnvoyJitter, BaseMS: 25, CapMS: 250},
			Envoy:   &EnvoyLimit{BudgetPercent: 0, MinConcurrency: 3}},
		// + the optional retry_budget with its defaults: budget_percent
		// 20 %, min_retry_concurrency 3 (circuit_breaker.proto,
		// Thresholds.RetryBudget); when set, it replaces max_retries.
		{Name: Envoy, Project: "Envoy", Version: "API v3, route_components.proto at 3304863, circuit_breaker.proto at a6193bb",
			Config: "retry_policy (num_retries 1) + circuit breaker retry_budget {} (20 %, min 3)", Shown: true,
			Source:   "https://github.com/envoyproxy/envoy/blob/main/api/envoy/config/cluster/v3/circuit_breaker.proto",
			Attempts: 2, RetryTimeouts: true,
			Backoff: Pause{Kind: EnvoyJitter, BaseMS: 25, CapMS: 250},
			Envoy:   &EnvoyLimit{BudgetPercent: 20, MinConcurrency: 3}},

		// Finagle's default client stack: Retries.moduleRequeueable with
		// the RetryPolicy.Never policy (finagle-core service/Retries.scala
		// at a1cb357: Policy param RetryPolicy.Never, Budget default
		// RetryBudget(), zero requeue backoff, MaxRequeuesPerReq 0.2);
		// RequeueFilter (at 3c27308) requeues only RetryableWriteException
		// (never written, or NACKed) and deposits only after a success.
		// Here the queue's refusal is such a NACK; a timeout is not
		// requeued.
		{Name: FinagleDefault, Project: "Finagle", Version: "finagle-core Retries.scala a1cb357, RequeueFilter.scala 3c27308",
			Config:   "default: requeues only (never-written / NACKed calls), RetryBudget()",
			Source:   "https://github.com/twitter/finagle/blob/develop/finagle-core/src/main/scala/com/twitter/finagle/service/RequeueFilter.scala",
			Attempts: 1000,
			Finagle:  &TokenBudget{TTLS: 10, MinRetriesPerSec: 10, PercentCanRetry: 0.2, DepositOnSuccess: true, MaxRetriesPerBalance: 0.2}},
		// A configured RetryExceptionsFilter with RetryPolicy.tries(3) on
		// timeouts: every request deposits when it starts (RetryFilter.scala
		// at 385dba9, apply), RetryBudget() (RetryBudget.scala: ttl 10 s,
		// minRetriesPerSec 10, percentCanRetry 0.2), and tries' pauses,
		// Backoff.decorrelatedJittered(5.millis, 200.millis)
		// (RetryPolicy.scala, tries).
		{Name: Finagle, Project: "Finagle", Version: "finagle-core RetryFilter.scala 385dba9, RetryBudget.scala",
			Config: "RetryExceptionsFilter(RetryPolicy.tries(3) on timeouts) + RetryBudget() (configured)", Shown: true,
			Source:   "https://github.com/twitter/finagle/blob/develop/finagle-core/src/main/scala/com/twitter/finagle/service/RetryBudget.scala",
			Attempts: 3, RetryTimeouts: true,
			Backoff: Pause{Kind: Decorrelated, BaseMS: 5, CapMS: 200},
			Finagle: &TokenBudget{TTLS: 10, MinRetriesPerSec: 10, PercentCanRetry: 0.2}},

		// AWS standard mode as it was until the 2026 update: go-v2's
		// constants kept as the "legacy" costs (aws/retry/standard.go at
		// v1.48.0: DefaultRetryRateTokens 500, DefaultRetryCost 5,
		// DefaultRetryTimeoutCost 10, DefaultNoRetryIncrement 1,
		// DefaultMaxAttempts 3) and backoffDelayLegacy.
		{Name: AWS2025, Project: "AWS SDKs", Version: "standard mode before Nov 2026 (aws-sdk-go-v2 v1.48.0 legacy constants)",
			Config:   "default before Nov 2026: retry_mode standard, max_attempts 3",
			Source:   "https://docs.aws.amazon.com/sdkref/latest/guide/feature-retry-behavior.html",
			Attempts: 3, RetryTimeouts: true,
			Backoff: Pause{Kind: AWSLegacy, BaseMS: 1000, CapMS: 20000},
			AWS:     &AWSQuota{Capacity: 500, RetryCost: 5, TimeoutCost: 10, NoRetryIncrement: 1}},
		// Standard mode since the 2026 update, as aws-sdk-go-v2 v1.48.0
		// ships it (standard.go: defaultRetryCost 14 for every retry,
		// timeouts included, DefaultThrottlingRetryCost 5, BaseDelay 50 ms
		// with 1 s for throttling errors, DefaultMaxBackoff 20 s); the
		// announcement: default in November 2026. Our server never
		// answers with a throttling error, so every retry costs 14.
		{Name: AWS, Project: "AWS SDKs", Version: "standard mode 2026 (aws-sdk-go-v2 v1.48.0)",
			Config: "default from Nov 2026: retry_mode standard, max_attempts 3", Shown: true,
			Source:   "https://aws.amazon.com/blogs/developer/announcing-updated-retry-behavior-for-aws-sdks-and-tools/",
			Attempts: 3, RetryTimeouts: true,
			Backoff: Pause{Kind: AWS2026, BaseMS: 50, CapMS: 20000},
			AWS:     &AWSQuota{Capacity: 500, RetryCost: 14, TimeoutCost: 14, NoRetryIncrement: 1}},
		// Adaptive mode adds a client-side rate limiter that turns on at
		// the first throttling error (aws/retry/adaptive_ratelimit.go at
		// v1.48.0: tokenBucketEnabled is set only in Update(throttled));
		// our server never throttles, so it is standard mode here.
		{Name: AWSAdaptive, Project: "AWS SDKs", Version: "adaptive mode 2026 (aws-sdk-go-v2 v1.48.0)",
			Config:   "retry_mode adaptive (configured); its rate limiter waits for a throttling error, which this server never sends",
			Source:   "https://github.com/aws/aws-sdk-go-v2/blob/v1.48.0/aws/retry/adaptive_ratelimit.go",
			Attempts: 3, RetryTimeouts: true,
			Backoff: Pause{Kind: AWS2026, BaseMS: 50, CapMS: 20000},
			AWS:     &AWSQuota{Capacity: 500, RetryCost: 14, TimeoutCost: 14, NoRetryIncrement: 1}},

		// The SRE book, chapter 21 "Handling Overload": per-request budget
		// of three attempts, per-client retries below 10 % of requests
		// (the book gives no window: 120 s is ours), immediate retries.
		{Name: SREBudget, Project: "Google SRE book", Version: "ch. 21 Handling Overload (2016)",
			Config:   "per-request 3 attempts + per-client 10 % retry ratio (120 s window: ours)",
			Source:   "https://sre.google/sre-book/handling-overload/",
			Attempts: 3, RetryTimeouts: true,
			SRE: &SRELimits{Ratio: 0.1, WindowS: 120}},
		// + adaptive throttling: "the last two minutes", K = 2.
		{Name: SREThrottle, Project: "Google SRE book", Version: "ch. 21 Handling Overload (2016)",
			Config: "per-request + per-client budgets + adaptive throttling (K 2, two minutes)", Shown: true,
			Source:   "https://sre.google/sre-book/handling-overload/",
			Attempts: 3, RetryTimeouts: true,
			SRE: &SRELimits{Ratio: 0.1, WindowS: 120, Throttle: true, K: 2, ThrottleWindowS: 120}},

		// resilience4j's CircuitBreakerConfig defaults
		// (resilience4j-circuitbreaker CircuitBreakerConfig.java at
		// 335f5eb: failureRateThreshold 50, COUNT_BASED slidingWindowSize
		// 100, minimumNumberOfCalls 100, waitDurationInOpenState 60 s,
		// permittedNumberOfCallsInHalfOpenState 10) under its Retry's
		// defaults (RetryConfig.java: maxAttempts 3, waitDuration 500 ms);
		// each attempt passes the breaker, a refused call is not retried.
		{Name: Resilience4j, Project: "resilience4j", Version: "CircuitBreakerConfig.java 335f5eb, RetryConfig.java",
			Config: "Retry (defaults) around CircuitBreaker (defaults)", Shown: true,
			Source:   "https://github.com/resilience4j/resilience4j/blob/master/resilience4j-circuitbreaker/src/main/java/io/github/resilience4j/circuitbreaker/CircuitBreakerConfig.java",
			Attempts: 3, RetryTimeouts: true,
			Backoff: Pause{Kind: Constant, BaseMS: 500},
			Breaker: &Breaker{Kind: CountBased, FailureRatio: 0.5, WindowCalls: 100, MinCalls: 100, OpenS: 60, HalfOpenCalls: 10}},
		// Polly v8's circuit breaker defaults (src/Polly.Core/
		// CircuitBreaker/CircuitBreakerConstants.cs at 38a75c4:
		// DefaultFailureRatio 0.1, DefaultMinimumThroughput 100,
		// DefaultSamplingDuration 30 s, DefaultBreakDuration 5 s; one
		// probe when half-open), alone, without a retry strategy.
		{Name: Polly, Project: "Polly", Version: "v8 CircuitBreakerConstants.cs 38a75c4",
			Config:   "CircuitBreaker strategy with its defaults, no retry",
			Source:   "https://github.com/App-vNext/Polly/blob/main/src/Polly.Core/CircuitBreaker/CircuitBreakerConstants.cs",
			Attempts: 1,
			Breaker:  &Breaker{Kind: TimeBased, FailureRatio: 0.1, WindowS: 30, MinCalls: 100, OpenS: 5, HalfOpenCalls: 1}},
		// tower's TpsBudget::default() (tower/src/retry/budget/
		// tps_budget.rs at 0918d77: ttl 10 s, min_per_sec 10,
		// retry_percent 0.2), the budget that Rust HTTP clients built on
		// tower use; the policy around it (3 attempts, a deposit per
		// request, immediate retries) is ours: tower leaves it to the
		// caller's Policy.
		{Name: Tower, Project: "tower (Rust)", Version: "tps_budget.rs 0918d77",
			Config:   "TpsBudget::default(); 3 attempts, deposit per request, no pause (our Policy)",
			Source:   "https://github.com/tower-rs/tower/blob/master/tower/src/retry/budget/tps_budget.rs",
			Attempts: 3, RetryTimeouts: true,
			Finagle: &TokenBudget{TTLS: 10, MinRetriesPerSec: 10, PercentCanRetry: 0.2}},
	}
}

// Find returns the preset named p.
func Find(p Policy) (Preset, bool) {
	for _, q := range Presets() {
		if q.Name == p {
			return q, true
		}
	}
	return Preset{}, false
}
