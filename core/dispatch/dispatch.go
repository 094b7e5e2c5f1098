// Package dispatch is a deterministic discrete-event simulation of the
// article's architecture for LLM calls that exceed the provider's quota:
//
//	app → job queue → rate-aware dispatcher → provider client → result store
//
// Jobs of random sizes arrive. In ModeDispatcher a dispatcher admits them
// through a request bucket and a token bucket (each call reserves its
// prompt plus its max output), then takes one of MaxConcurrency slots just
// before the call; failed jobs wait in a delayed set until not_before and
// go to dead_letter when their retry budget is spent; a second provider
// takes over on the article's conditions (provider_5xx, and
// rate_limit_after_retry_budget). In ModeNaive, Workers workers each take a
// job and call at once, sleeping on their own backoff after a failure:
// nothing counts tokens, nothing falls back.
//
// Each provider enforces its own hard RPM and TPM (token buckets holding a
// minute's worth, charging prompt + max output at admission, as providers
// that count max_tokens do) and answers 429 with a Retry-After header, in
// whole seconds or as an HTTP-date; the client reads it with
// core/retryafter and never calls that job again before it has passed
// (RFC 9110 §10.2.3). With a DeadlineS, a job whose Retry-After ends after
// its deadline gives up at once rather than call early. A call can also fail with a 503, or finish at the provider and
// lose its connection before the answer arrives: the provider bills it,
// the client sees an error. With Idempotency the job's operation is keyed
// by its idempotency key: after a dropped connection it is retried, after a
// reconciliation delay, on the same provider with the same key, and the
// provider returns its stored result without running or billing the call
// again (a duplicate suppressed). Without it, the retry is a new call, and
// the job is billed twice.
//
// Time is simulated: int64 nanoseconds from the first arrival, no clock.
// Randomness is the *rand.Rand passed to Run (the calculator seeds
// math/rand/v2's PCG with the seed and a fixed stream), drawn in event
// order, so a seed gives one result: the same on amd64, where pages are
// built, and in the browser's WebAssembly. This package keeps its own
// arithmetic unfused, and so do the buckets (core/limits on
// core/standin/tokenbucket: x/time/rate's arithmetic on int64 nanoseconds), so
// architectures whose compiler fuses multiply-adds, such as arm64, round
// them the same. Events live in a binary min-heap ordered by time, then by
// the order they were scheduled. The package imports neither time nor fmt:
// the browser module links it.
package dispatch

import (
	"math"
	"math/rand/v2"
	"retrylab/core/standin"
	"strconv"

	"retrylab/core/backoff"
	"retrylab/core/errclass"
	"retrylab/core/limits"
	"retrylab/core/meter"
	"retrylab/core/retryafter"
	"retrylab/core/standin/heapsort"
)

// Mode chooses the architecture.
type Mode string

const (
	ModeDispatcher Mode = "dispatcher" // queue, two buckets, concurrency slots, delayed retries, fallback
	ModeNaive      Mode = "naive"      // every worker calls at once and sleeps on its own backoff
)

// Config is one simulation. Rates are per minute, times in seconds, sizes
// in tokens. Validate lists the ranges.
type Config struct {
	_    standin.NoEqual // not comparable
	Mode Mode
	Jobs int // jobs to run, >= 1
	// ArrivalPerMin is the mean rate of Poisson arrivals; 0 puts every
	// job in the queue at time 0 (a backlog).
	ArrivalPerMin float64
	// PromptTokens is the mean prompt; each job's prompt is uniform in
	// [PromptTokens·(1-PromptSpread), PromptTokens·(1+PromptSpread)].
	PromptTokens int
	PromptSpread float64 // in [0, 1]
	// MaxOutputTokens is every call's max output; the output actually
	// produced is MaxOutputTokens × uniform(0.2, 1), rounded.
	MaxOutputTokens int
	RPMLimit        float64 // each provider's hard requests per minute, > 0
	TPMLimit        float64 // each provider's hard tokens per minute, > 0
	// Headroom scales the dispatcher's buckets: Headroom × the provider's
	// limits, in (0, 2]. Below 1 it absorbs rounding and other clients;
	// above 1 the dispatcher overbooks and meets 429s.
	Headroom       float64
	MaxConcurrency int     // dispatcher: calls in flight at once, >= 1
	Workers        int     // naive: workers calling at once, >= 1
	LatencyS       float64 // s before the first output token, >= 0
	OutputPerS     float64 // output tokens per second, > 0
	// MaxAttempts is the retry budget: calls per job on one provider, the
	// first included, >= 1.
	MaxAttempts int
	BaseS, CapS float64 // backoff: wait before retry a is uniform(0, min(CapS, BaseS·2^a)), at least Retry-After
	P5xx        float64 // probability that a call fails with 503, in [0, 1]
	PDrop       float64 // probability that a finished call loses its connection, in [0, 1]
	Fallback    bool    // dispatcher: use the second provider on the article's conditions
	Idempotency bool    // an operation table keyed by idempotency key (both modes)
	ReconcileS  float64 // s to wait before retrying a dropped call with its key, >= 0
	// Samples bounds the queue-depth series (>= 2); the sampling interval
	// doubles whenever the series would grow past it.
	Samples int
	// BurstS is how many seconds of their rate the dispatcher's buckets
	// hold, >= 0; 0 means 60, a minute's worth. Starting full, they admit
	// in the first minute up to (1 + BurstS/60) × Headroom × the limits
	// (limits.Config.FirstMinute); a smaller burst spreads that start.
	BurstS float64
	// DeadlineS is each job's time budget, s from its arrival, >= 0; 0
	// means none. A job still waiting when it passes gives up; a failed
	// job whose Retry-After ends after it gives up at once (it must not
	// call before Retry-After), and a backoff wait that would overrun it
	// is cut to end at it.
	DeadlineS float64
	// RetryAfterDate makes the providers send Retry-After as an
	// IMF-fixdate instead of delay-seconds; simulated time 0 is Epoch.
	RetryAfterDate bool
}

// Epoch is the Unix time, s, of simulated time 0: 2026-12-01 00:00:00 UTC.
// Only the HTTP-dates of Retry-After depend on it.
const Epoch int64 = 1796083200

// Default returns the defaults of the calculator: the article's capacity
// example (120,000 TPM, 4,000-token prompts, 1,000 max output: 24 calls a
// minute) with 500 jobs waiting at once, 100 naive workers against a
// dispatcher with 20 slots at 90% of the limits.
func Default() Config {
	return Config{
		Mode: ModeDispatcher, Jobs: 500, ArrivalPerMin: 0, PromptTokens: 4000, PromptSpread: 0.5,
		MaxOutputTokens: 1000, RPMLimit: 600, TPMLimit: 120000, Headroom: 0.9, MaxConcurrency: 20, Workers: 100,
		LatencyS: 2, OutputPerS: 50, MaxAttempts: 4, BaseS: 0.5, CapS: 20, P5xx: 0.01, PDrop: 0.01,
		Fallback: true, Idempotency: true, ReconcileS: 5, Samples: 200,
	}
}

// FieldError is a Config field out of range.
type FieldError struct {
	Field string // the Config field
	Msg   string
}

func (e *FieldError) Error() string { return "dispatch: " + e.Field + " " + e.Msg }

// MaxReserved returns the largest reservation a job can make: its largest
// prompt plus the max output.
func (c Config) MaxReserved() int {
	return int(math.Floor(float64(c.PromptTokens)*(1+c.PromptSpread))) + c.MaxOutputTokens
}

// Validate reports the first field out of range as a *FieldError.
func (c Config) Validate() error {
	bad := func(f, msg string) error { return &FieldError{f, msg} }
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	switch {
	case c.Mode != ModeDispatcher && c.Mode != ModeNaive:
		return bad("Mode", "must be dispatcher or naive")
	case c.Jobs < 1:
		return bad("Jobs", "must be >= 1")
	case !(c.ArrivalPerMin >= 0) || !finite(c.ArrivalPerMin):
		return bad("ArrivalPerMin", "must be finite and >= 0")
	case c.PromptTokens < 0:
		return bad("PromptTokens", "must be >= 0")
	case !(c.PromptSpread >= 0 && c.PromptSpread <= 1):
		return bad("PromptSpread", "must be in [0, 1]")
	case c.MaxOutputTokens < 1:
		return bad("MaxOutputTokens", "must be >= 1")
	case !(c.RPMLimit > 0) || !finite(c.RPMLimit):
		return bad("RPMLimit", "must be finite and > 0")
	case !(c.TPMLimit > 0) || !finite(c.TPMLimit):
		return bad("TPMLimit", "must be finite and > 0")
	case !(c.Headroom > 0 && c.Headroom <= 2):
		return bad("Headroom", "must be in (0, 2]")
	case c.MaxConcurrency < 1:
		return bad("MaxConcurrency", "must be >= 1")
	case c.Workers < 1:
		return bad("Workers", "must be >= 1")
	case !(c.LatencyS >= 0) || !finite(c.LatencyS):
		return bad("LatencyS", "must be finite and >= 0")
	case !(c.OutputPerS > 0) || !finite(c.OutputPerS):
		return bad("OutputPerS", "must be finite and > 0")
	case c.MaxAttempts < 1:
		return bad("MaxAttempts", "must be >= 1")
	case !(c.BaseS > 0) || !finite(c.BaseS) || !(c.CapS > 0) || !finite(c.CapS):
		return bad("BaseS", "and CapS must be finite and > 0")
	case !(c.P5xx >= 0 && c.P5xx <= 1):
		return bad("P5xx", "must be in [0, 1]")
	case !(c.PDrop >= 0 && c.PDrop <= 1):
		return bad("PDrop", "must be in [0, 1]")
	case !(c.ReconcileS >= 0) || !finite(c.ReconcileS):
		return bad("ReconcileS", "must be finite and >= 0")
	case c.Samples < 2:
		return bad("Samples", "must be >= 2")
	case !(c.BurstS >= 0) || !finite(c.BurstS) || c.BurstS > 3600:
		return bad("BurstS", "must be in [0, 3600]")
	case !(c.DeadlineS >= 0) || !finite(c.DeadlineS) || c.DeadlineS > seconds(MaxSimulated):
		return bad("DeadlineS", "must be finite and >= 0")
	}
	if m := c.MaxReserved(); float64(m) > c.TPMLimit || float64(m) > math.Floor(c.TPMLimit*c.Headroom) {
		return bad("MaxOutputTokens", "plus the largest prompt ("+strconv.Itoa(m)+" tokens) exceeds the token bucket ("+
			strconv.Itoa(int(math.Min(c.TPMLimit, math.Floor(c.TPMLimit*c.Headroom))))+" tokens): no call could ever be admitted")
	}
	if c.RPMLimit*c.Headroom < 1 {
		return bad("RPMLimit", "× Headroom must allow at least one request a minute")
	}
	if c.BurstS > 0 {
		if rb, tb := c.Bursts(); tb < c.MaxReserved() {
			return bad("BurstS", "gives a token bucket of "+strconv.Itoa(tb)+" tokens, less than the largest call ("+
				strconv.Itoa(c.MaxReserved())+" tokens): no such call could ever be admitted")
		} else if rb < 1 {
			return bad("BurstS", "gives a request bucket of less than one request")
		}
	}
	return nil
}

// Bursts returns the capacities of the dispatcher's request and token
// buckets: BurstS seconds (default 60) of Headroom × the limits.
func (c Config) Bursts() (requests, tokens int) {
	b := c.BurstS
	if b == 0 {
		b = 60
	}
	return limits.BurstFor(c.RPMLimit*c.Headroom, b), limits.BurstFor(c.TPMLimit*c.Headroom, b)
}

// Result holds the article's metrics. Tokens count prompt + output.
type Result struct {
	Mode      Mode
	Jobs      int
	Completed int // jobs that got their answer
	// DeadLetters are jobs whose retry budget ran out (on both providers
	// when falling back).
	DeadLetters int
	// GaveUp counts jobs stopped by their deadline (Config.DeadlineS) by
	// reason: "deadline" (still waiting when it passed) and
	// "retry_after_beyond_deadline" (a 429's Retry-After ended after it).
	// Completed + DeadLetters + the GaveUp counts = Jobs.
	GaveUp map[string]int
	// RetryAfterExample is the first Retry-After header a provider sent,
	// "" when none did.
	RetryAfterExample string
	Requests          int // calls sent to a provider, replays with a key included
	// RequestsByStatus counts calls by outcome: "200", "429", "503",
	// "connection_dropped" (finished and billed, answer lost).
	RequestsByStatus map[string]int
	RateLimited      int            // 429 answers
	RateLimitHits    map[string]int // 429 answers by the limit that refused: "rpm", "tpm"
	Retries          int            // calls after a job's first
	// RetriesByError counts retries by the errclass key of the error
	// that caused them: rate_limited, service_unavailable, stream_cut.
	// With a deadline, a retry scheduled for a job that then gives up is
	// counted here but never made.
	RetriesByError map[string]int
	// FallbacksByReason counts jobs moved to the second provider:
	// provider_5xx, rate_limit_after_retry_budget.
	FallbacksByReason map[string]int
	TokensReserved    int64 // tokens the dispatcher's bucket reserved (naive: the same count, had it reserved)
	TokensUsed        int64 // tokens the providers billed
	// DuplicatesSuppressed counts replays answered from the provider's
	// idempotency store instead of being run and billed again.
	DuplicatesSuppressed int
	// DoubleBilled counts jobs billed more than once; DoubleBilledTokens
	// the tokens billed beyond the first time.
	DoubleBilled       int
	DoubleBilledTokens int64
	// QueueWaitP50 and QueueWaitP95 are percentiles (nearest rank) of
	// the time from arrival to the start of the call that answered, s,
	// over completed jobs; 0 when none completed.
	QueueWaitP50, QueueWaitP95 float64
	// QueueWaitBuckets[i] counts the completed jobs whose queue wait was
	// at most QueueWaitLe[i] s (cumulative, as a Prometheus histogram's
	// buckets are; the last bound is +Inf, so the last count is Completed).
	QueueWaitBuckets []int
	MakespanS        float64 // time of the last event, s
	MaxQueueDepth    int     // most jobs in ready + delayed at once
	// The depth series: at DepthT[i] s, DepthReady jobs were ready (or
	// waiting for a worker), DepthDelayed waited for not_before (naive:
	// a worker sleeping on backoff), DepthInFlight calls were running.
	DepthT                                  []float64
	DepthReady, DepthDelayed, DepthInFlight []int
	// DepthRateLimited and DepthRetries are cumulative: the 429s
	// answered and the retries scheduled before DepthT[i] (same length).
	DepthRateLimited, DepthRetries []int
	Events                         int // events processed
}

type evKind uint8

const (
	evArrival  evKind = iota
	evWake            // the dispatcher's head reservation matures
	evDue             // a delayed job's not_before passes
	evDone            // a call returns
	evNaiveTry        // a naive worker calls again after sleeping
)

type event struct {
	_    standin.NoEqual // not comparable
	t    int64           // ns
	seq  uint64
	kind evKind
	job  int32
}

// eventHeap is a binary min-heap of events by (t, seq). seq is unique,
// so the order is total and the events come out in one order whatever
// the heap's shape. Its own push and pop, rather than container/heap's,
// keep the comparisons and moves out of interface method calls, each a
// trip through the Go stack in WebAssembly, and that package out of the
// browser's module.
type eventHeap []event

// before reports whether a comes out before b.
func before(a, b *event) bool {
	if a.t != b.t {
		return a.t < b.t
	}
	return a.seq < b.seq
}

// push adds e: appended, then moved up past every later parent.
func (h *eventHeap) push(e event) {
	*h = append(*h, e)
	q := *h
	i := len(q) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !before(&e, &q[p]) {
			break
		}
		q[i] = q[p]
		i = p
	}
	q[i] = e
}

// pop removes the earliest event and returns it; h must not be empty.
// The last event takes the root's place and moves down past every
// earlier child.
func (h *eventHeap) pop() event {
	q := *h
	top := q[0]
	n := len(q) - 1
	x := q[n]
	q = q[:n]
	*h = q
	i := 0
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if r := c + 1; r < n && before(&q[r], &q[c]) {
			c = r
		}
		if !before(&q[c], &x) {
			break
		}
		q[i] = q[c]
		i = c
	}
	if n > 0 {
		q[i] = x
	}
	return top
}

type outcome uint8

const (
	outOK outcome = iota
	out429
	out503
	outDrop
	outReplay // answered from the idempotency store
)

type job struct {
	_          standin.NoEqual // not comparable
	arrival    int64           // ns, like every time of the simulation
	prompt     int32
	output     int32 // output it will produce
	provider   uint8 // 0 primary, 1 fallback
	attempts   int32 // calls on the current provider
	calls      int32 // calls in all
	billed     int32 // times the providers billed it
	replay     bool  // the next call carries a key the provider has completed
	start      int64
	result     outcome
	retryAfter string // the 429's Retry-After header
	notBefore  int64  // no call before this (Retry-After), ns
}

type provider struct {
	_        standin.NoEqual // not comparable
	lim      *limits.Limiter // the provider's own hard limits
	rpmPerS  float64
	tpmPerS  float64
	dispatch *limits.Limiter // the dispatcher's buckets for this provider
}

type sim struct {
	meter   *meter.Meter
	halt    bool // meter said stop
	c       Config
	r       *rand.Rand
	events  eventHeap
	seq     uint64
	jobs    []job
	prov    [2]provider
	ready   []int32 // FIFO; head at readyHead
	rHead   int
	delayed int
	// dispatcher
	pending  int32 // job holding a matured-later reservation, -1 none
	slotWait []int32
	swHead   int
	inFlight int
	// naive
	idle  int // idle workers
	sleep int // workers sleeping on backoff
	res   Result
	waits []float64
	// sampling
	every    int64 // ns
	next     int64
	policy   backoff.Config
	overflow bool
	// counters, copied into the Result's maps at the end
	status   [4]int // 200, 429, 503, connection_dropped
	hits     [2]int // rpm, tpm
	retryBy  [3]int // rate_limited, service_unavailable, stream_cut
	fellBack [2]int // provider_5xx, rate_limit_after_retry_budget
	gaveUp   [2]int // deadline, retry_after_beyond_deadline
	// onCall, when set (by tests), sees every call before it is made.
	onCall func(jb *job, t int64)
	// errs are simErrors(), looked up when the run starts
	errs [3]errclass.Entry

	tr *tracer // RunTraced's recorder, nil otherwise
}

// The counter indices and the keys they are reported under.
var (
	statusKeys   = [4]string{"200", "429", "503", "connection_dropped"}
	hitKeys      = [2]string{"rpm", "tpm"}
	retryKeys    = [3]string{"rate_limited", "service_unavailable", "stream_cut"}
	fallbackKeys = [2]string{errclass.ReasonProvider5xx, errclass.ReasonRateLimitAfterBudget}
	gaveUpKeys   = [2]string{"deadline", "retry_after_beyond_deadline"}
)

// simErrors returns the errclass entries of the errors the simulation
// produces, indexed like retryKeys: their decisions drive fail. Each run
// looks them up once (sim.errs), not the program at start-up.
func simErrors() [3]errclass.Entry {
	var errs [3]errclass.Entry
	for i, k := range retryKeys {
		e, ok := errclass.ByKey(k)
		if !ok {
			panic("dispatch: errclass has no " + k)
		}
		errs[i] = e
	}
	return errs
}

const (
	st200, st429, st503, stDrop          = 0, 1, 2, 3
	hitRPM, hitTPM                       = 0, 1
	errRateLimited, err5xx, errStreamCut = 0, 1, 2
	fb5xx, fbBudget                      = 0, 1
	guDeadline, guRetryAfter             = 0, 1
)

func toMap(keys []string, counts []int) map[string]int {
	m := make(map[string]int, len(keys))
	for i, k := range keys {
		m[k] = counts[i]
	}
	return m
}

// Simulated time is int64 nanoseconds from the first arrival.
const (
	millisecond int64 = 1e6
	second            = 1000 * millisecond
	hour              = 3600 * second

	replayLatency = 200 * millisecond
	errorLatency  = 200 * millisecond // a 429 answers at once
	fail5xxAfter  = second
)

// seconds converts ns to s as time.Duration.Seconds does: whole seconds
// and the rest apart.
func seconds(d int64) float64 {
	sec, nsec := d/second, d%second
	return float64(sec) + float64(nsec)/1e9
}

// dur converts s to ns, rounded.
func dur(s float64) int64 { return int64(math.Round(s * 1e9)) }

// Run simulates c with randomness from r (which it advances).
func Run(c Config, r *rand.Rand) (Result, error) { return simulate(c, r, nil, nil) }

// RunMeter is Run with a meter, told of every call placed: when it says
// stop, the run ends at once with meter.ErrStopped.
func RunMeter(c Config, r *rand.Rand, m *meter.Meter) (Result, error) { return simulate(c, r, nil, m) }

func simulate(c Config, r *rand.Rand, onCall func(jb *job, t int64), m *meter.Meter) (Result, error) {
	return simulateWith(c, r, onCall, m, nil)
}

// simulateWith is simulate with a tracer (RunTraced), nil for none.
func simulateWith(c Config, r *rand.Rand, onCall func(jb *job, t int64), m *meter.Meter, tr *tracer) (Result, error) {
	if err := c.Validate(); err != nil {
		return Result{}, err
	}
	s := &sim{c: c, r: r, pending: -1, idle: c.Workers, every: second, onCall: onCall, errs: simErrors(), meter: m, tr: tr}
	rb, tb := c.Bursts()
	s.policy = backoff.Config{Base: c.BaseS, Cap: c.CapS, MaxAttempts: c.MaxAttempts, MaxElapsed: math.MaxFloat64, Jitter: true, Workers: 1}
	for i := range s.prov {
		hard, err := limits.NewLimiter(limits.Config{RPM: c.RPMLimit, TPM: c.TPMLimit})
		if err != nil {
			return Result{}, err
		}
		disp, err := limits.NewLimiter(limits.Config{RPM: c.RPMLimit * c.Headroom, TPM: c.TPMLimit * c.Headroom,
			RequestBurst: rb, TokenBurst: tb})
		if err != nil {
			return Result{}, err
		}
		s.prov[i] = provider{lim: hard, rpmPerS: c.RPMLimit / 60, tpmPerS: c.TPMLimit / 60, dispatch: disp}
	}
	s.res = Result{Mode: c.Mode, Jobs: c.Jobs}
	// Jobs and their arrivals are drawn first, in job order.
	s.jobs = make([]job, c.Jobs)
	s.events = make(eventHeap, 0, c.Workers+c.MaxConcurrency+64)
	var t int64
	lo := float64(c.PromptTokens) * (1 - c.PromptSpread)
	hi := float64(c.PromptTokens) * (1 + c.PromptSpread)
	for i := range s.jobs {
		if c.ArrivalPerMin > 0 && i > 0 {
			t = min(t+dur(min(s.r.ExpFloat64()*60/c.ArrivalPerMin, seconds(MaxSimulated))), MaxSimulated+1)
		}
		p := int32(math.Floor(lo + float64((hi-lo)*s.r.Float64()))) // float64(): no fused multiply-add
		o := int32(math.Round(float64(c.MaxOutputTokens) * (0.2 + float64(0.8*s.r.Float64()))))
		s.jobs[i] = job{arrival: t, prompt: p, output: max(o, 1)}
	}
	if tr != nil {
		tr.arrivals(s.jobs)
	}
	// Arrivals are in time order: each one schedules the next, which
	// keeps the heap small.
	s.push(0, evArrival, 0)
	s.waits = make([]float64, 0, c.Jobs)
	for len(s.events) > 0 && !s.halt {
		e := s.events.pop()
		s.sample(e.t)
		s.res.Events++
		s.res.MakespanS = seconds(e.t)
		switch e.kind {
		case evArrival:
			if next := e.job + 1; int(next) < len(s.jobs) {
				s.push(s.jobs[next].arrival, evArrival, next)
			}
			s.enqueue(e.job)
			s.kick(e.t)
		case evWake:
			s.pending = -1
			s.takeSlot(e.job, e.t)
			s.kick(e.t)
		case evDue:
			s.delayed--
			s.enqueue(e.job)
			s.kick(e.t)
		case evDone:
			s.done(e.job, e.t)
		case evNaiveTry:
			s.sleep--
			s.call(e.job, e.t)
		}
	}
	if m.Done() {
		return Result{}, meter.ErrStopped
	}
	if s.overflow {
		return Result{}, &FieldError{"Jobs", "would take more than 100 years of simulated time"}
	}
	s.sample(dur(s.res.MakespanS)) // up to the end
	s.finish()
	return s.res, nil
}

// MaxSimulated bounds simulated time, ns (100 years of 365 days): a run
// that would go beyond it stops with an error (int64 nanoseconds hold
// about 292 years).
const MaxSimulated = 100 * 365 * 24 * hour

func (s *sim) push(t int64, k evKind, j int32) {
	if t > MaxSimulated || t < 0 {
		s.overflow = true
		return
	}
	s.events.push(event{t: t, seq: s.seq, kind: k, job: j})
	s.seq++
}

func (s *sim) enqueue(j int32) { s.ready = append(s.ready, j) }

func (s *sim) readyLen() int { return len(s.ready) - s.rHead }

func (s *sim) popReady() int32 {
	j := s.ready[s.rHead]
	s.rHead++
	if s.rHead > 1024 && s.rHead*2 > len(s.ready) {
		n := copy(s.ready, s.ready[s.rHead:])
		s.ready, s.rHead = s.ready[:n], 0
	}
	return j
}

func (s *sim) reserved(j int32) int {
	return int(s.jobs[j].prompt) + s.c.MaxOutputTokens
}

// kick lets the dispatcher (or the idle naive workers) take ready jobs.
func (s *sim) kick(t int64) {
	if s.c.Mode == ModeNaive {
		for s.idle > 0 && s.readyLen() > 0 {
			j := s.popReady()
			if s.expired(j, t) {
				continue
			}
			s.idle--
			s.call(j, t)
		}
		return
	}
	// One reservation at a time, and none while calls wait for a slot:
	// rate capacity is taken only for a call about to be made.
	for s.pending < 0 && s.swHead == len(s.slotWait) && s.readyLen() > 0 {
		j := s.popReady()
		if s.expired(j, t) {
			continue
		}
		p := &s.prov[s.jobs[j].provider]
		rv, err := p.dispatch.Reserve(t, s.reserved(j))
		if err != nil { // excluded by Validate
			panic("dispatch: " + err.Error())
		}
		if s.expired(j, rv.At) { // its reservation matures too late
			rv.Cancel(t)
			continue
		}
		if ready := rv.At; ready > t {
			s.pending = j
			s.push(ready, evWake, j)
			return
		}
		s.takeSlot(j, t)
	}
}

// takeSlot starts j's call if a concurrency slot is free, else queues it
// for the next slot.
func (s *sim) takeSlot(j int32, t int64) {
	if s.inFlight < s.c.MaxConcurrency {
		s.inFlight++
		s.call(j, t)
		return
	}
	s.slotWait = append(s.slotWait, j)
}

// call sends j to its provider at t and schedules the answer.
func (s *sim) call(j int32, t int64) {
	jb := &s.jobs[j]
	c := s.c
	if s.meter != nil && s.meter.Add(1) {
		s.halt = true
	}
	if s.onCall != nil {
		s.onCall(jb, t)
	}
	if c.Mode == ModeNaive {
		s.inFlight++
	}
	s.res.Requests++
	if jb.calls > 0 {
		s.res.Retries++
	}
	jb.calls++
	jb.attempts++
	jb.start = t
	n := s.reserved(j)
	s.res.TokensReserved += int64(n)
	p := &s.prov[jb.provider]
	req, tok := p.lim.Available(t)
	switch {
	case req < 1:
		jb.result = out429
		s.hits[hitRPM]++
		s.refuse(jb, t, math.Ceil((1-req)/p.rpmPerS))
		s.push(t+errorLatency, evDone, j)
		return
	case tok < float64(n):
		jb.result = out429
		s.hits[hitTPM]++
		s.refuse(jb, t, math.Ceil((float64(n)-tok)/p.tpmPerS))
		s.push(t+errorLatency, evDone, j)
		return
	}
	p.lim.Allow(t, n)
	if jb.replay {
		jb.result = outReplay
		s.push(t+replayLatency, evDone, j)
		return
	}
	if c.P5xx > 0 && s.r.Float64() < c.P5xx {
		jb.result = out503
		s.push(t+fail5xxAfter, evDone, j)
		return
	}
	jb.result = outOK
	if c.PDrop > 0 && s.r.Float64() < c.PDrop {
		jb.result = outDrop
	}
	s.push(t+dur(c.LatencyS+float64(jb.output)/c.OutputPerS), evDone, j)
}

// refuse writes the provider's Retry-After for a 429 at t: the capacity
// is back after wait s (whole seconds), as delay-seconds or as the
// HTTP-date of that moment.
func (s *sim) refuse(jb *job, t int64, wait float64) {
	if s.c.RetryAfterDate {
		jb.retryAfter = retryafter.FormatDate(Epoch + (t+second-1)/second + int64(wait))
	} else {
		jb.retryAfter = strconv.FormatInt(int64(wait), 10)
	}
	if s.res.RetryAfterExample == "" {
		s.res.RetryAfterExample = jb.retryAfter
	}
}

// notBefore reads the Retry-After of j's 429, received at t, as the
// client does: the moment before which it must not call again, ns.
func (s *sim) notBefore(jb *job, t int64) int64 {
	v, err := retryafter.Parse(jb.retryAfter, Epoch+t/second)
	if err != nil { // the providers above write only valid headers
		panic("dispatch: " + err.Error())
	}
	if v.Form == retryafter.Seconds {
		return t + v.Delay*second
	}
	return max(t, (v.Date-Epoch)*second)
}

// expired gives up j, which would call at t, if its deadline has passed
// by then.
func (s *sim) expired(j int32, t int64) bool {
	jb := &s.jobs[j]
	if s.c.DeadlineS == 0 || t <= jb.arrival+dur(s.c.DeadlineS) {
		return false
	}
	s.gaveUp[guDeadline]++
	if s.tr != nil {
		s.tr.end(j, t)
	}
	return true
}

// done handles the answer to j's call at t.
func (s *sim) done(j int32, t int64) {
	jb := &s.jobs[j]
	s.inFlight--
	if s.tr != nil {
		s.tr.call(j, jb.start, t, jb.result)
	}
	switch jb.result {
	case outOK, outReplay:
		if jb.result == outOK {
			s.bill(jb)
		} else {
			s.res.DuplicatesSuppressed++
		}
		s.status[st200]++
		s.res.Completed++
		s.waits = append(s.waits, seconds(jb.start-jb.arrival))
		if s.c.Mode == ModeNaive {
			s.workerFree(t)
		} else {
			s.free(t)
		}
		return
	case out429:
		s.status[st429]++
		s.res.RateLimited++
		s.fail(j, t, errRateLimited, s.notBefore(jb, t))
	case out503:
		s.status[st503]++
		s.fail(j, t, err5xx, t)
	case outDrop:
		s.status[stDrop]++
		s.bill(jb)
		s.fail(j, t, errStreamCut, t)
	}
	s.free(t)
}

func (s *sim) bill(jb *job) {
	used := int64(jb.prompt) + int64(jb.output)
	s.res.TokensUsed += used
	jb.billed++
	if jb.billed == 2 {
		s.res.DoubleBilled++
	}
	if jb.billed >= 2 {
		s.res.DoubleBilledTokens += used
	}
}

// free gives back j's worker or slot after its answer.
func (s *sim) free(t int64) {
	if s.c.Mode == ModeNaive {
		return // the worker's next step was decided by done
	}
	for s.swHead < len(s.slotWait) {
		j := s.slotWait[s.swHead]
		s.swHead++
		if s.swHead == len(s.slotWait) {
			s.slotWait, s.swHead = s.slotWait[:0], 0
		}
		if s.expired(j, t) {
			continue
		}
		s.inFlight++
		s.call(j, t)
		break
	}
	s.kick(t)
}

// fail does what Decide says after error k of j's call at t:
//   - an error that allows a fallback "on provider_5xx" moves the job to
//     the second provider at once; one that allows it "after the retry
//     budget" moves it there once its attempts on the first are spent;
//   - an error after which the provider may have processed the call is,
//     with an operation table, retried on the same provider with the same
//     idempotency key after the reconciliation delay (a replay that does
//     not spend the budget); without one it is an ordinary retry, and the
//     provider runs and bills the call again;
//   - otherwise the job waits in delayed for max(backoff, Retry-After), or
//     goes to the dead letters when its budget is spent. With a deadline,
//     a Retry-After that ends after it makes the job give up at once, and
//     a backoff that ends after it is cut to end there.
//
// notBefore is the end of the 429's Retry-After (t for other errors).
func (s *sim) fail(j int32, t int64, k int, notBefore int64) {
	e := s.errs[k]
	jb := &s.jobs[j]
	canFallBack := s.c.Mode == ModeDispatcher && s.c.Fallback && jb.provider == 0
	step := Decide(e, canFallBack, s.c.Idempotency, jb.attempts < int32(s.c.MaxAttempts))
	switch {
	case step == StepDeadLetter:
		if s.tr != nil {
			s.tr.end(j, t)
		}
		s.deadLetter(t)
	case step == StepFallback && e.FallbackWhen == errclass.ReasonProvider5xx:
		s.fallBack(j, t, k, fb5xx)
	case step == StepReplay:
		jb.replay = true
		if jb.attempts >= int32(s.c.MaxAttempts) {
			jb.attempts-- // the replay does not spend the budget
		}
		s.retryBy[k]++
		s.later(j, t, dur(s.c.ReconcileS))
	case step == StepRetry:
		wait := dur(s.policy.Wait(int(jb.attempts)-1, s.r.Float64()))
		at := max(t+wait, notBefore)
		if s.c.DeadlineS > 0 {
			dl := jb.arrival + dur(s.c.DeadlineS)
			if notBefore > dl {
				s.gaveUp[guRetryAfter]++
				if s.tr != nil {
					s.tr.end(j, t)
				}
				if s.c.Mode == ModeNaive {
					s.workerFree(t)
				}
				return
			}
			at = min(at, max(dl, t))
		}
		s.retryBy[k]++
		jb.notBefore = notBefore
		s.later(j, t, at-t)
	default: // StepFallback after the budget
		s.fallBack(j, t, k, fbBudget)
	}
}

// Step is what the dispatcher does with a failed job.
type Step string

const (
	StepRetry      Step = "retry"       // wait in delayed for max(backoff, Retry-After), then call the same provider
	StepReplay     Step = "replay"      // after the reconciliation delay, call the same provider with the same idempotency key
	StepFallback   Step = "fallback"    // move the job to the second provider, with a fresh budget
	StepDeadLetter Step = "dead_letter" // stop: the job goes to the dead letters
)

// Decide returns the dispatcher's step after error e, as the shared
// classification (core/errclass, the batch column) says:
//   - an error never retried goes to the dead letters;
//   - one that allows a fallback "on provider_5xx" moves the job to the
//     second provider at once, when canFallBack (fallback on, the job still
//     on the first provider);
//   - one after which the provider may have processed the call is, with
//     an operation table (idempotency), replayed with its key;
//   - otherwise it is retried while budgetLeft; once the budget is spent,
//     one that allows it "after the retry budget" falls back, and any
//     other goes to the dead letters.
func Decide(e errclass.Entry, canFallBack, idempotency, budgetLeft bool) Step {
	canFallBack = canFallBack && e.Fallback
	switch {
	case e.Batch == errclass.Never:
		return StepDeadLetter
	case canFallBack && e.FallbackWhen == errclass.ReasonProvider5xx:
		return StepFallback
	case e.Processed != errclass.ProcessedNo && idempotency:
		return StepReplay
	case budgetLeft:
		return StepRetry
	case canFallBack && e.FallbackWhen == errclass.ReasonRateLimitAfterBudget:
		return StepFallback
	}
	return StepDeadLetter
}

// fallBack moves j to the second provider with a fresh budget. Its
// idempotency key means nothing there: a replay becomes a new call.
func (s *sim) fallBack(j int32, t int64, k, reason int) {
	s.fellBack[reason]++
	s.retryBy[k]++
	jb := &s.jobs[j]
	jb.provider, jb.attempts, jb.replay = 1, 0, false
	s.toReady(j, t)
}

func (s *sim) deadLetter(t int64) {
	s.res.DeadLetters++
	if s.c.Mode == ModeNaive {
		s.workerFree(t)
	}
}

// later puts j in delayed until t+d (naive: its worker sleeps until then).
func (s *sim) later(j int32, t, d int64) {
	if s.c.Mode == ModeNaive {
		s.sleep++
		s.push(t+d, evNaiveTry, j)
		return
	}
	s.delayed++
	s.push(t+d, evDue, j)
}

func (s *sim) toReady(j int32, t int64) {
	s.enqueue(j)
	if s.c.Mode == ModeNaive {
		s.workerFree(t)
	}
}

func (s *sim) workerFree(t int64) {
	s.idle++
	s.kick(t)
}

// sample records the depth before the event at t is applied: the state
// held during the interval that ends at t.
func (s *sim) sample(t int64) {
	for s.next <= t {
		s.res.DepthT = append(s.res.DepthT, seconds(s.next))
		ready := s.readyLen()
		delayed := s.delayed
		if s.c.Mode == ModeNaive {
			delayed = s.sleep
		} else {
			ready += len(s.slotWait) - s.swHead
			if s.pending >= 0 {
				ready++
			}
		}
		s.res.DepthReady = append(s.res.DepthReady, ready)
		s.res.DepthDelayed = append(s.res.DepthDelayed, delayed)
		s.res.DepthInFlight = append(s.res.DepthInFlight, s.inFlight)
		s.res.DepthRateLimited = append(s.res.DepthRateLimited, s.res.RateLimited)
		s.res.DepthRetries = append(s.res.DepthRetries, s.res.Retries)
		if len(s.res.DepthT) >= s.c.Samples {
			s.thin()
		}
		s.next += s.every
	}
	d := s.readyLen() + s.delayed + s.sleep + len(s.slotWait) - s.swHead
	if s.pending >= 0 {
		d++
	}
	if d > s.res.MaxQueueDepth {
		s.res.MaxQueueDepth = d
	}
}

// thin keeps every other sample and doubles the interval.
func (s *sim) thin() {
	r := &s.res
	k := 0
	for i := 0; i < len(r.DepthT); i += 2 {
		r.DepthT[k], r.DepthReady[k], r.DepthDelayed[k], r.DepthInFlight[k] = r.DepthT[i], r.DepthReady[i], r.DepthDelayed[i], r.DepthInFlight[i]
		r.DepthRateLimited[k], r.DepthRetries[k] = r.DepthRateLimited[i], r.DepthRetries[i]
		k++
	}
	r.DepthT, r.DepthReady, r.DepthDelayed, r.DepthInFlight = r.DepthT[:k], r.DepthReady[:k], r.DepthDelayed[:k], r.DepthInFlight[:k]
	r.DepthRateLimited, r.DepthRetries = r.DepthRateLimited[:k], r.DepthRetries[:k]
	s.every *= 2
	s.next = dur(r.DepthT[k-1]) + s.every
}

func (s *sim) finish() {
	s.res.RequestsByStatus = toMap(statusKeys[:], s.status[:])
	s.res.RateLimitHits = toMap(hitKeys[:], s.hits[:])
	s.res.RetriesByError = toMap(retryKeys[:], s.retryBy[:])
	s.res.FallbacksByReason = toMap(fallbackKeys[:], s.fellBack[:])
	s.res.GaveUp = toMap(gaveUpKeys[:], s.gaveUp[:])
	heapsort.Float64s(s.waits) // not slices.Sort: its pdqsort is 13 KB of the browser's module (core/standin/heapsort)
	s.res.QueueWaitP50 = percentile(s.waits, 0.50)
	s.res.QueueWaitP95 = percentile(s.waits, 0.95)
	le := QueueWaitLe()
	s.res.QueueWaitBuckets = make([]int, len(le))
	k := 0
	for i, b := range le {
		for k < len(s.waits) && s.waits[k] <= b {
			k++
		}
		s.res.QueueWaitBuckets[i] = k
	}
}

// QueueWaitLe returns the upper bounds, s, of the queue-wait histogram's
// buckets, the last one +Inf.
func QueueWaitLe() []float64 {
	return []float64{0.1, 0.5, 1, 5, 10, 30, 60, 300, 1800, math.Inf(1)}
}

// percentile returns the nearest-rank p-quantile of sorted xs, 0 if empty.
func percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	k := int(math.Ceil(p*float64(len(xs)))) - 1
	return xs[max(0, min(k, len(xs)-1))]
}
