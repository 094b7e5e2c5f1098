package calc

import (
	"errors"
	"math"
	"math/rand/v2"
	"strconv"

	"retrylab/core/dispatch"
)

// DispatchResult is the result of the dispatch calculator: the article's
// metrics for one simulated run (see core/dispatch).
type DispatchResult struct {
	Mode        string `json:"mode"`
	Jobs        int    `json:"jobs"`
	Completed   int    `json:"completed"`
	DeadLetters int    `json:"dead_letters"`
	// GaveUp counts the jobs stopped by deadline_s, GaveUpByReason by
	// reason: "deadline" (still waiting when it passed) and
	// "retry_after_beyond_deadline" (a 429's Retry-After ended after it:
	// the job gives up rather than call early).
	GaveUp         int            `json:"gave_up"`
	GaveUpByReason map[string]int `json:"gave_up_by_reason"`
	// RetryAfterExample is the first Retry-After header a provider sent
	// (null when none did), in the form retry_after_form chose.
	RetryAfterExample *string `json:"retry_after_example"`
	// BurstRequests and BurstTokens are the capacities of the
	// dispatcher's buckets; FirstMinuteRequests and FirstMinuteTokens the
	// most they admit in the first minute from full: burst plus a minute
	// of refill.
	BurstRequests        int            `json:"burst_requests"`
	BurstTokens          int            `json:"burst_tokens"`
	FirstMinuteRequests  float64        `json:"first_minute_requests"`
	FirstMinuteTokens    float64        `json:"first_minute_tokens"`
	Requests             int            `json:"requests"`
	RequestsByStatus     map[string]int `json:"requests_by_status"`
	RateLimited          int            `json:"rate_limited"`
	RateLimitHits        map[string]int `json:"rate_limit_hits"`
	Retries              int            `json:"retries"`
	RetriesByError       map[string]int `json:"retries_by_error"`
	Fallbacks            int            `json:"fallbacks"`
	FallbacksByReason    map[string]int `json:"fallbacks_by_reason"`
	TokensReserved       int64          `json:"tokens_reserved"`
	TokensUsed           int64          `json:"tokens_used"`
	ReservedOverUsed     float64        `json:"reserved_over_used"` // tokens_reserved / tokens_used (0 when nothing was used)
	DuplicatesSuppressed int            `json:"duplicates_suppressed"`
	DoubleBilled         int            `json:"double_billed"`
	DoubleBilledTokens   int64          `json:"double_billed_tokens"`
	QueueWaitP50S        float64        `json:"queue_wait_p50_s"`
	QueueWaitP95S        float64        `json:"queue_wait_p95_s"`
	// QueueWaitBuckets is the histogram of the completed jobs' queue
	// waits, cumulative as Prometheus writes it: element i counts the
	// waits of at most QueueWaitLeS[i] s, and the last element, one
	// longer than QueueWaitLeS, counts them all (le="+Inf").
	QueueWaitBuckets []int     `json:"queue_wait_buckets"`
	QueueWaitLeS     []float64 `json:"queue_wait_le_s"`
	MakespanS        float64   `json:"makespan_s"`
	CompletedPerMin  float64   `json:"completed_per_min"`
	MaxQueueDepth    int       `json:"max_queue_depth"`
	DepthTS          []float64 `json:"depth_t_s"`
	DepthReady       []int     `json:"depth_ready"`
	DepthDelayed     []int     `json:"depth_delayed"`
	DepthInFlight    []int     `json:"depth_in_flight"`
	DepthRateLimited []int     `json:"depth_rate_limited"` // 429s before each depth_t_s, cumulative
	DepthRetries     []int     `json:"depth_retries"`      // retries before each depth_t_s, cumulative
	// Flow holds, under Args.WithTrace(n) only, the same jobs run in
	// both modes on the same seed, naive first (dispatch.RunTraced: each
	// run with at most n sampled jobs): what the request-flow view draws.
	// The run of the result's own mode is the result's. Nil otherwise;
	// never part of the JSON.
	Flow []DispatchRun `json:"-"`
}

// dispatchMaxCalls bounds jobs × max_attempts, which bounds the events
// (about three per call, twice as many calls with a fallback).
const dispatchMaxCalls = 400000

// dispatchParam returns the parameter name of core/dispatch's Config
// field ("" for a field without one), from dispatchParams.
func dispatchParam(field string) string {
	for _, p := range &dispatchParams {
		if p[0] == field {
			return p[1]
		}
	}
	return ""
}

// dispatchParams pairs core/dispatch's Config fields with the parameters
// that set them: a table in the module's data, neither a map to build
// when the browser's module starts nor a switch's code.
var dispatchParams = [...][2]string{
	{"Mode", "mode"},
	{"Jobs", "jobs"},
	{"ArrivalPerMin", "arrival_per_min"},
	{"PromptTokens", "prompt_tokens"},
	{"PromptSpread", "prompt_spread"},
	{"MaxOutputTokens", "max_output_tokens"},
	{"RPMLimit", "rpm_limit"},
	{"TPMLimit", "tpm_limit"},
	{"Headroom", "headroom"},
	{"MaxConcurrency", "max_concurrency"},
	{"Workers", "workers"},
	{"LatencyS", "latency_s"},
	{"OutputPerS", "output_tokens_per_s"},
	{"MaxAttempts", "max_attempts"},
	{"BaseS", "base_s"},
	{"P5xx", "p_5xx"},
	{"PDrop", "p_drop"},
	{"ReconcileS", "reconcile_s"},
	{"Samples", "samples"},
	{"BurstS", "burst_s"},
	{"DeadlineS", "deadline_s"},
}

// dispatchConfig is the simulation the arguments describe.
func dispatchConfig(a Args) dispatch.Config {
	c := dispatch.Config{
		Mode: dispatch.Mode(a.String("mode")), Jobs: a.Int("jobs"), ArrivalPerMin: a.Float("arrival_per_min"),
		PromptTokens: a.Int("prompt_tokens"), PromptSpread: a.Float("prompt_spread"),
		MaxOutputTokens: a.Int("max_output_tokens"), RPMLimit: a.Float("rpm_limit"), TPMLimit: a.Float("tpm_limit"),
		Headroom: a.Float("headroom"), MaxConcurrency: a.Int("max_concurrency"), Workers: a.Int("workers"),
		LatencyS: a.Float("latency_s"), OutputPerS: a.Float("output_tokens_per_s"), MaxAttempts: a.Int("max_attempts"),
		BaseS: a.Float("base_s"), CapS: a.Float("cap_s"), P5xx: a.Float("p_5xx"), PDrop: a.Float("p_drop"),
		Fallback: a.Bool("fallback"), Idempotency: a.Bool("idempotency"), ReconcileS: a.Float("reconcile_s"),
		Samples: a.Int("samples"), BurstS: a.Float("burst_s"), RetryAfterDate: a.String("retry_after_form") == "date",
	}
	if a.Has("deadline_s") {
		c.DeadlineS = a.Float("deadline_s")
	}
	return c
}

// dispatchRand is the simulation's randomness: PCG on the seed.
func dispatchRand(a Args) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(a.Int("seed")), 0x9e3779b97f4a7c15))
}

// dispatchCalc declares the dispatch calculator.
//
//retrylab:calculator article=2 order=60
func dispatchCalc() *Calculator {
	const name = "dispatch"
	d := dispatch.Default()
	f := FormatFloat
	i := strconv.Itoa
	return &Calculator{
		Name:        name,
		Examples:    []string{"jobs=50", "samples=2000&jobs=200"},
		Help:        "simulate a queue with a rate-aware dispatcher against naive workers that all call at once",
		Essential:   []string{"mode", "jobs", "rpm_limit", "max_attempts"},
		StoryFields: []string{"completed", "dead_letters", "rate_limited", "retries", "makespan_s", "queue_wait_p95_s"},
		Params: []Param{
			{Name: "mode", Kind: Choice, Default: string(d.Mode), Choices: []string{"dispatcher", "naive"},
				Help: "dispatcher: queue, request and token buckets, concurrency slots, delayed retries, fallback; naive: every worker calls at once"},
			{Name: "jobs", Kind: Int, Default: i(d.Jobs), Min: Incl(1), Max: Incl(100000), SliderMax: 2000, Step: 10,
				Help: "jobs to run (jobs × max_attempts at most 400,000)"},
			{Name: "arrival_per_min", Kind: Float, Default: f(d.ArrivalPerMin), Min: Incl(0), Max: Incl(1000000), Unit: "1/min",
				SliderMax: 60, Step: 1, Help: "mean rate of Poisson arrivals (0: every job is waiting at time 0)"},
			{Name: "prompt_tokens", Kind: Int, Default: i(d.PromptTokens), Min: Incl(0), Max: Incl(1000000), Unit: "tokens",
				SliderMax: 20000, Step: 100, Help: "mean prompt of a job"},
			{Name: "prompt_spread", Kind: Float, Default: f(d.PromptSpread), Min: Incl(0), Max: Incl(1), Step: 0.05,
				Help: "prompts are uniform in prompt_tokens × [1 - spread, 1 + spread]"},
			{Name: "max_output_tokens", Kind: Int, Default: i(d.MaxOutputTokens), Min: Incl(1), Max: Incl(1000000), Unit: "tokens",
				SliderMax: 8000, Step: 100, Help: "max output of every call, reserved in full; the output produced is uniform in [0.2, 1] of it"},
			{Name: "rpm_limit", Kind: Float, Default: f(d.RPMLimit), Min: Excl(0), Max: Incl(1000000), Unit: "1/min",
				SliderMin: 10, SliderMax: 1000, Step: 10, Help: "each provider's hard requests per minute"},
			{Name: "tpm_limit", Kind: Float, Default: f(d.TPMLimit), Min: Excl(0), Max: Incl(1e9), Unit: "tokens/min",
				SliderMin: 10000, SliderMax: 1000000, Step: 10000, Help: "each provider's hard tokens per minute"},
			{Name: "headroom", Kind: Float, Default: f(d.Headroom), Min: Excl(0), Max: Incl(2), Step: 0.05, SliderMin: 0.5, SliderMax: 1.5,
				Help: "the dispatcher's buckets as a fraction of the provider's limits (above 1 it overbooks)"},
			{Name: "max_concurrency", Kind: Int, Default: i(d.MaxConcurrency), Min: Incl(1), Max: Incl(10000), SliderMax: 100,
				Help: "dispatcher: calls in flight at once"},
			{Name: "workers", Kind: Int, Default: i(d.Workers), Min: Incl(1), Max: Incl(10000), SliderMax: 500,
				Help: "naive: workers calling at once"},
			{Name: "latency_s", Kind: Float, Default: f(d.LatencyS), Min: Incl(0), Max: Incl(3600), Unit: "s", SliderMax: 30, Step: 0.5,
				Help: "time to the first output token"},
			{Name: "output_tokens_per_s", Kind: Float, Default: f(d.OutputPerS), Min: Incl(1), Max: Incl(1000000), Unit: "tokens/s",
				SliderMin: 5, SliderMax: 500, Step: 5, Help: "generation speed"},
			{Name: "max_attempts", Kind: Int, Default: i(d.MaxAttempts), Min: Incl(1), Max: Incl(20), SliderMax: 10,
				Help: "retry budget: calls per job on one provider, the first included"},
			{Name: "base_s", Kind: Float, Default: f(d.BaseS), Min: Excl(0), Max: Incl(3600), Unit: "s", SliderMin: 0.1, SliderMax: 5, Step: 0.1,
				Help: "backoff: ceiling of the first wait (full jitter; Retry-After is a floor)"},
			{Name: "cap_s", Kind: Float, Default: f(d.CapS), Min: Excl(0), Max: Incl(86400), Unit: "s", SliderMin: 1, SliderMax: 120, Step: 1,
				Help: "backoff: largest wait ceiling"},
			{Name: "p_5xx", Kind: Float, Default: f(d.P5xx), Min: Incl(0), Max: Incl(1), Step: 0.01, SliderMax: 0.3,
				Help: "probability that a call fails with 503"},
			{Name: "p_drop", Kind: Float, Default: f(d.PDrop), Min: Incl(0), Max: Incl(1), Step: 0.01, SliderMax: 0.3,
				Help: "probability that a finished, billed call loses its connection before the answer arrives"},
			{Name: "fallback", Kind: Bool, Default: strconv.FormatBool(d.Fallback),
				Help: "dispatcher: move a job to the second provider after a 5xx, or after its budget is spent on 429s"},
			{Name: "idempotency", Kind: Bool, Default: strconv.FormatBool(d.Idempotency),
				Help: "operation table keyed by idempotency key: a dropped call is retried with its key and not billed twice"},
			{Name: "reconcile_s", Kind: Float, Default: f(d.ReconcileS), Min: Incl(0), Max: Incl(3600), Unit: "s", SliderMax: 60, Step: 1,
				Help: "wait before retrying a dropped call with its key"},
			{Name: "burst_s", Kind: Float, Default: "60", Min: Excl(0), Max: Incl(3600), Unit: "s", SliderMin: 1, SliderMax: 120, Step: 1,
				Help: "dispatcher: seconds of rate its buckets hold (60: a minute's worth); from full they admit burst + one minute of rate in the first minute"},
			{Name: "deadline_s", Kind: Float, Optional: true, Min: Excl(0), Max: Incl(86400), Unit: "s", DefaultNote: "none",
				SliderMax: 600, Step: 5, Help: "each job's time budget from its arrival: a job still waiting gives up, and so does one whose Retry-After ends after it"},
			{Name: "retry_after_form", Kind: Choice, Default: "seconds", Choices: []string{"seconds", "date"},
				Help: "the providers' Retry-After: delay-seconds or an HTTP-date (RFC 9110 §10.2.3); the client reads both"},
			{Name: "seed", Kind: Int, Default: "20261017", Min: Incl(0), Max: Incl(1 << 53),
				Help: "seed of the simulation (math/rand/v2 PCG)"},
			{Name: "samples", Kind: Int, Default: i(d.Samples), Min: Incl(2), Max: Incl(2000), SliderMax: 500,
				Help: "most points of the queue-depth series"},
		},
		Work: dispatchWork, ServerWork: 40_000, WorkParam: "jobs",
		Run: func(a Args) (any, error) {
			c := dispatchConfig(a)
			if c.Jobs*c.MaxAttempts > dispatchMaxCalls {
				return nil, Refuse(name, "jobs", CodeWork, "detail.dispatch.calls",
					"jobs × max_attempts must be at most {max}, got {got}", "max", i(dispatchMaxCalls), "got", i(c.Jobs*c.MaxAttempts))
			}
			var res dispatch.Result
			var tr dispatch.Trace
			var err error
			if a.trace > 0 {
				res, tr, err = dispatch.RunTracedMeter(c, dispatchRand(a), a.trace, a.meter())
			} else {
				res, err = dispatch.RunMeter(c, dispatchRand(a), a.meter())
			}
			if err != nil {
				if stopped(err) {
					return nil, err
				}
				if fe, ok := errors.AsType[*dispatch.FieldError](err); ok {
					p := dispatchParam(fe.Field)
					// the numbers a translation of detail.dispatch.PARAM
					// may name (the English reason names them too)
					kv := []string{"reason", fe.Msg,
						"reserved", i(c.MaxReserved()), "bucket", i(int(math.Min(c.TPMLimit, math.Floor(c.TPMLimit*c.Headroom)))),
						"years", i(int(dispatch.MaxSimulated / (365 * 24 * 3600 * 1e9)))}
					return nil, Refuse(name, p, CodeConstraint, "detail.dispatch."+p, "{reason}", kv...)
				}
				return nil, Refuse(name, "", CodeConstraint, "detail.dispatch.config", "{reason}", "reason", err.Error())
			}
			out := dispatchResult(c, res)
			if a.trace > 0 {
				// the other mode stopped by the meter stops the run; one
				// that refuses the values leaves no flow (the view says so)
				if out.Flow, err = dispatchFlow(a, c, DispatchRun{string(c.Mode), res, tr}); stopped(err) {
					return nil, err
				}
			}
			return out, nil
		},
		Reuse: dispatchReuse,
	}
}

// dispatchReuse answers a variant of another mode from the base's Flow:
// the traced run simulated both modes on the same seed and values, and
// the trace draws nothing (dispatch.RunTraced), so the run of the
// variant's mode is the one an untraced run of the variant makes.
func dispatchReuse(base any, param string, va Args) (any, bool) {
	b, ok := base.(DispatchResult)
	if !ok || param != "mode" || va.trace > 0 {
		return nil, false
	}
	c := dispatchConfig(va)
	for _, r := range b.Flow {
		if r.Mode == string(c.Mode) {
			return dispatchResult(c, r.Result), true
		}
	}
	return nil, false
}

// dispatchResult is the calculator's result of res, a run of c.
func dispatchResult(c dispatch.Config, res dispatch.Result) DispatchResult {
	out := DispatchResult{
		Mode: string(res.Mode), Jobs: res.Jobs, Completed: res.Completed, DeadLetters: res.DeadLetters,
		Requests: res.Requests, RequestsByStatus: res.RequestsByStatus, RateLimited: res.RateLimited,
		RateLimitHits: res.RateLimitHits, Retries: res.Retries, RetriesByError: res.RetriesByError,
		FallbacksByReason: res.FallbacksByReason, TokensReserved: res.TokensReserved, TokensUsed: res.TokensUsed,
		DuplicatesSuppressed: res.DuplicatesSuppressed, DoubleBilled: res.DoubleBilled,
		DoubleBilledTokens: res.DoubleBilledTokens, QueueWaitP50S: res.QueueWaitP50, QueueWaitP95S: res.QueueWaitP95,
		MakespanS: res.MakespanS, MaxQueueDepth: res.MaxQueueDepth, DepthTS: res.DepthT,
		DepthReady: res.DepthReady, DepthDelayed: res.DepthDelayed, DepthInFlight: res.DepthInFlight,
		GaveUpByReason:   res.GaveUp,
		QueueWaitBuckets: res.QueueWaitBuckets, QueueWaitLeS: dispatch.QueueWaitLe(),
		DepthRateLimited: res.DepthRateLimited, DepthRetries: res.DepthRetries,
	}
	out.QueueWaitLeS = out.QueueWaitLeS[:len(out.QueueWaitLeS)-1] // JSON has no +Inf
	if ra := res.RetryAfterExample; ra != "" {
		out.RetryAfterExample = &ra
	}
	for _, n := range res.GaveUp {
		out.GaveUp += n
	}
	out.BurstRequests, out.BurstTokens = c.Bursts()
	out.FirstMinuteRequests = float64(out.BurstRequests) + c.RPMLimit*c.Headroom
	out.FirstMinuteTokens = float64(out.BurstTokens) + c.TPMLimit*c.Headroom
	for _, n := range res.FallbacksByReason {
		out.Fallbacks += n
	}
	if res.TokensUsed > 0 {
		out.ReservedOverUsed = float64(res.TokensReserved) / float64(res.TokensUsed)
	}
	if res.MakespanS > 0 {
		out.CompletedPerMin = float64(res.Completed) / res.MakespanS * 60
	}
	return out
}

// DispatchRun is one mode's run of a DispatchResult's Flow.
type DispatchRun struct {
	Mode   string
	Result dispatch.Result
	Trace  dispatch.Trace
}

// dispatchFlow runs c in both modes with their traces (Args.WithTrace),
// own (c.Mode's run, already done) in its place; nil and the error when
// the other mode's run fails.
func dispatchFlow(a Args, c dispatch.Config, own DispatchRun) ([]DispatchRun, error) {
	flow := []DispatchRun{{Mode: string(dispatch.ModeNaive)}, {Mode: string(dispatch.ModeDispatcher)}}
	for i := range flow {
		if flow[i].Mode == own.Mode {
			flow[i] = own
			continue
		}
		c.Mode = dispatch.Mode(flow[i].Mode)
		res, tr, err := dispatch.RunTracedMeter(c, dispatchRand(a), a.trace, a.meter())
		if err != nil {
			return nil, err
		}
		flow[i].Result, flow[i].Trace = res, tr
	}
	return flow, nil
}

// dispatchWork is the dispatch calculator's work: the calls it may
// simulate, jobs × max_attempts, twice that with the fallback (each job
// may spend its attempts on both providers); 0 where the calculator
// refuses the values itself.
func dispatchWork(a Args) float64 {
	calls := a.Int("jobs") * a.Int("max_attempts")
	if calls > dispatchMaxCalls {
		return 0
	}
	if a.Bool("fallback") {
		calls *= 2
	}
	return float64(calls)
}
