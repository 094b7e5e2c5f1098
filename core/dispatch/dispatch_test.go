package dispatch

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strconv"
	"testing"

	"retrylab/core/errclass"
	"retrylab/core/retryafter"
)

func rng(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)) }

// run simulates c and checks the invariants, among them the Retry-After
// rule on every call: none before the Retry-After of the job's last 429
// has passed, and none after the job's deadline.
func run(t *testing.T, c Config, seed uint64) Result {
	t.Helper()
	early, late := 0, 0
	r, err := simulate(c, rng(seed), func(jb *job, at int64) {
		if at < jb.notBefore {
			early++
		}
		if c.DeadlineS > 0 && at > jb.arrival+dur(c.DeadlineS) {
			late++
		}
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if early > 0 || late > 0 {
		t.Errorf("%d calls before Retry-After had passed, %d after the deadline", early, late)
	}
	checkInvariants(t, c, r)
	return r
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

func checkInvariants(t *testing.T, c Config, r Result) {
	t.Helper()
	if r.Completed+r.DeadLetters+sum(r.GaveUp) != c.Jobs {
		t.Errorf("completed %d + dead letters %d + gave up %v != jobs %d", r.Completed, r.DeadLetters, r.GaveUp, c.Jobs)
	}
	if c.DeadlineS == 0 && sum(r.GaveUp) != 0 {
		t.Errorf("gave up %v without a deadline", r.GaveUp)
	}
	if c.DeadlineS == 0 && r.Requests != c.Jobs+r.Retries || r.Requests > c.Jobs+r.Retries {
		t.Errorf("requests %d != jobs %d + retries %d", r.Requests, c.Jobs, r.Retries)
	}
	if b := r.QueueWaitBuckets; len(b) != len(QueueWaitLe()) || b[len(b)-1] != r.Completed {
		t.Errorf("queue-wait buckets %v, completed %d", b, r.Completed)
	} else {
		for i := 1; i < len(b); i++ {
			if b[i] < b[i-1] {
				t.Errorf("queue-wait buckets %v not cumulative", b)
			}
		}
	}
	if sum(r.RequestsByStatus) != r.Requests {
		t.Errorf("requests by status %v sum to %d, requests %d", r.RequestsByStatus, sum(r.RequestsByStatus), r.Requests)
	}
	if c.DeadlineS == 0 && sum(r.RetriesByError) != r.Retries || sum(r.RetriesByError) < r.Retries {
		t.Errorf("retries by error %v sum to %d, retries %d", r.RetriesByError, sum(r.RetriesByError), r.Retries)
	}
	if sum(r.RateLimitHits) != r.RateLimited || r.RequestsByStatus["429"] != r.RateLimited {
		t.Errorf("rate-limit hits %v, 429s %d", r.RateLimitHits, r.RateLimited)
	}
	if r.TokensUsed > r.TokensReserved {
		t.Errorf("used %d > reserved %d", r.TokensUsed, r.TokensReserved)
	}
	if len(r.DepthT) > c.Samples || len(r.DepthT) != len(r.DepthReady) || len(r.DepthT) != len(r.DepthDelayed) || len(r.DepthT) != len(r.DepthInFlight) {
		t.Errorf("depth series of %d/%d/%d/%d samples, bound %d", len(r.DepthT), len(r.DepthReady), len(r.DepthDelayed), len(r.DepthInFlight), c.Samples)
	}
	for i := 1; i < len(r.DepthT); i++ {
		if r.DepthT[i] <= r.DepthT[i-1] {
			t.Fatalf("depth times not increasing at %d: %v", i, r.DepthT[i-1:i+1])
		}
	}
	if c.Mode == ModeDispatcher {
		for i, n := range r.DepthInFlight {
			if n > c.MaxConcurrency {
				t.Fatalf("%d calls in flight at %v s, cap %d", n, r.DepthT[i], c.MaxConcurrency)
			}
		}
	} else if sum(r.FallbacksByReason) != 0 {
		t.Errorf("naive mode fell back: %v", r.FallbacksByReason)
	}
	if r.QueueWaitP50 > r.QueueWaitP95 || r.QueueWaitP95 > r.MakespanS {
		t.Errorf("wait p50 %v p95 %v makespan %v", r.QueueWaitP50, r.QueueWaitP95, r.MakespanS)
	}
}

// The article's point: on the same work, naive workers collapse into 429s
// and dead letters, while the dispatcher completes every job with none.
func TestNaiveCollapsesDispatcherCompletes(t *testing.T) {
	c := Default()
	d := run(t, c, 20261017)
	c.Mode = ModeNaive
	n := run(t, c, 20261017)
	if d.Completed != c.Jobs || d.RateLimited != 0 || d.DeadLetters != 0 {
		t.Errorf("dispatcher: completed %d of %d, 429s %d, dead letters %d", d.Completed, c.Jobs, d.RateLimited, d.DeadLetters)
	}
	if n.RateLimited < c.Jobs || n.DeadLetters < c.Jobs/2 || n.Completed > c.Jobs/4 {
		t.Errorf("naive: 429s %d, dead letters %d, completed %d: it should collapse", n.RateLimited, n.DeadLetters, n.Completed)
	}
	if n.RateLimitHits["tpm"] == 0 {
		t.Errorf("naive: the token limit should bind: %v", n.RateLimitHits)
	}
	// The dispatcher's price is waiting: 500 jobs at ~22 a minute.
	if d.QueueWaitP95 < 600 || d.MakespanS < 1200 {
		t.Errorf("dispatcher: p95 wait %v s, makespan %v s", d.QueueWaitP95, d.MakespanS)
	}
}

func TestDeterministic(t *testing.T) {
	for _, m := range []Mode{ModeDispatcher, ModeNaive} {
		c := Default()
		c.Mode, c.Jobs, c.ArrivalPerMin, c.PDrop, c.P5xx = m, 300, 30, 0.05, 0.05
		a, b := run(t, c, 7), run(t, c, 7)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: two runs with seed 7 differ", m)
		}
		if o := run(t, c, 8); reflect.DeepEqual(a, o) {
			t.Errorf("%s: seeds 7 and 8 give the same result", m)
		}
	}
}

func TestDoubleBilling(t *testing.T) {
	for _, m := range []Mode{ModeDispatcher, ModeNaive} {
		c := Default()
		c.Mode, c.Jobs, c.PDrop, c.P5xx, c.Workers = m, 200, 0.3, 0, 5
		c.Idempotency = true
		with := run(t, c, 1)
		c.Idempotency = false
		without := run(t, c, 1)
		if with.DoubleBilled != 0 || with.DuplicatesSuppressed == 0 {
			t.Errorf("%s with an operation table: double billed %d, suppressed %d", m, with.DoubleBilled, with.DuplicatesSuppressed)
		}
		if without.DoubleBilled == 0 || without.DoubleBilledTokens == 0 || without.DuplicatesSuppressed != 0 {
			t.Errorf("%s without: double billed %d (%d tokens), suppressed %d", m, without.DoubleBilled, without.DoubleBilledTokens, without.DuplicatesSuppressed)
		}
		if with.RetriesByError["stream_cut"] == 0 {
			t.Errorf("%s: dropped connections not counted as stream_cut retries", m)
		}
	}
}

func TestFallback(t *testing.T) {
	// A dispatcher that overbooks the provider meets 429s; once a job's
	// budget is spent on them it moves to the second provider.
	c := Default()
	c.Jobs, c.Headroom, c.P5xx, c.PDrop, c.MaxAttempts = 400, 1.5, 0, 0, 2
	r := run(t, c, 3)
	if r.RateLimited == 0 || r.FallbacksByReason["rate_limit_after_retry_budget"] == 0 || r.FallbacksByReason["provider_5xx"] != 0 {
		t.Errorf("overbooked: 429s %d, fallbacks %v", r.RateLimited, r.FallbacksByReason)
	}
	c.Fallback = false
	nf := run(t, c, 3)
	if sum(nf.FallbacksByReason) != 0 || nf.DeadLetters <= r.DeadLetters {
		t.Errorf("without fallback: fallbacks %v, dead letters %d (with fallback %d)", nf.FallbacksByReason, nf.DeadLetters, r.DeadLetters)
	}
	// Every primary call fails with 503: every job falls back at once.
	c = Default()
	c.Jobs, c.P5xx, c.MaxAttempts = 50, 1, 3
	all := run(t, c, 4)
	if all.FallbacksByReason["provider_5xx"] != 50 || all.DeadLetters != 50 || all.RequestsByStatus["503"] != 50*4 {
		t.Errorf("all 503: fallbacks %v, dead letters %d, 503s %d", all.FallbacksByReason, all.DeadLetters, all.RequestsByStatus["503"])
	}
}

// Below capacity the queue stays short.
func TestUnderCapacity(t *testing.T) {
	c := Default()
	c.Jobs, c.ArrivalPerMin = 1000, 10 // capacity ~21.6 a minute
	r := run(t, c, 5)
	if r.RateLimited != 0 || r.Completed != c.Jobs || r.QueueWaitP95 > 30 {
		t.Errorf("10 a minute: 429s %d, completed %d, p95 wait %v s", r.RateLimited, r.Completed, r.QueueWaitP95)
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		field string
		f     func(*Config)
	}{
		{"Mode", func(c *Config) { c.Mode = "x" }},
		{"Jobs", func(c *Config) { c.Jobs = 0 }},
		{"Headroom", func(c *Config) { c.Headroom = 0 }},
		{"PromptSpread", func(c *Config) { c.PromptSpread = 1.5 }},
		{"P5xx", func(c *Config) { c.P5xx = -0.1 }},
		{"MaxOutputTokens", func(c *Config) { c.MaxOutputTokens = 200000 }},
		{"Samples", func(c *Config) { c.Samples = 1 }},
	}
	for _, tt := range tests {
		c := Default()
		tt.f(&c)
		_, err := Run(c, rng(1))
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != tt.field {
			t.Errorf("%s: err = %v", tt.field, err)
		}
	}
}

func TestPercentile(t *testing.T) {
	xs := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	if percentile(xs, 0.5) != 5 || percentile(xs, 0.95) != 10 || percentile(nil, 0.5) != 0 || percentile(xs[:1], 0.95) != 1 {
		t.Error("nearest-rank percentiles wrong")
	}
}

func ExampleRun() {
	c := Default()
	d, _ := Run(c, rand.New(rand.NewPCG(20261017, 0x9e3779b97f4a7c15)))
	c.Mode = ModeNaive
	n, _ := Run(c, rand.New(rand.NewPCG(20261017, 0x9e3779b97f4a7c15)))
	fmt.Println("dispatcher:", d.Completed, "completed,", d.RateLimited, "429s")
	fmt.Println("naive:", n.Completed, "completed,", n.RateLimited, "429s,", n.DeadLetters, "dead letters")
	// Output:
	// dispatcher: 500 completed, 0 429s
	// naive: 49 completed, 1840 429s, 451 dead letters
}

func benchmarkJobs(b *testing.B, m Mode) {
	c := Default()
	c.Mode, c.Jobs = m, 100000
	for b.Loop() {
		if _, err := Run(c, rng(20261017)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHundredThousandJobs is the budget of the calculator: 100,000
// jobs must simulate in well under a second.
func BenchmarkHundredThousandJobs(b *testing.B) { benchmarkJobs(b, ModeDispatcher) }

func BenchmarkHundredThousandJobsNaive(b *testing.B) { benchmarkJobs(b, ModeNaive) }

func TestSimulatedTimeBound(t *testing.T) {
	c := Default()
	c.Jobs, c.ArrivalPerMin = 10, 1e-9 // one job every ~1,900 years
	_, err := Run(c, rng(1))
	var fe *FieldError
	if !errors.As(err, &fe) || fe.Field != "Jobs" {
		t.Fatalf("err = %v, want a FieldError on Jobs", err)
	}
}

// The dispatcher follows the shared classification: the errors it counts
// are errclass keys, and its fallback reasons are the table's.
func TestSharedClassification(t *testing.T) {
	for i, e := range simErrors() {
		if e.Key != retryKeys[i] || e.Batch == "" {
			t.Errorf("simErrors()[%d] = %+v", i, e)
		}
	}
	if simErrors()[errRateLimited].FallbackWhen != fallbackKeys[fbBudget] || simErrors()[err5xx].FallbackWhen != fallbackKeys[fb5xx] {
		t.Error("fallback reasons disagree with core/errclass")
	}
	if simErrors()[errStreamCut].Fallback {
		t.Error("a processed call must not go to another provider")
	}
}

// TestRetryAfterInTheDispatcher: the providers' 429s carry Retry-After in
// either form; no call comes before it has passed (checked by run on every
// call), the two forms give the same schedule up to the rounding of dates to
// whole seconds, and with a deadline shorter than the Retry-After the naive
// workers give up instead of calling early.
func TestRetryAfterInTheDispatcher(t *testing.T) {
	c := Default()
	c.Mode, c.Jobs = ModeNaive, 300
	secs := run(t, c, 1)
	if secs.RateLimited == 0 || secs.RetryAfterExample == "" {
		t.Fatalf("naive run without 429s: %+v", secs)
	}
	if _, err := strconv.Atoi(secs.RetryAfterExample); err != nil {
		t.Errorf("Retry-After %q is not delay-seconds", secs.RetryAfterExample)
	}
	c.RetryAfterDate = true
	dates := run(t, c, 1)
	if v, err := retryafter.Parse(dates.RetryAfterExample, Epoch); err != nil || v.Form != retryafter.IMFFixdate {
		t.Errorf("Retry-After %q: %+v, %v; want an IMF-fixdate", dates.RetryAfterExample, v, err)
	}
	if dates.Completed == 0 || dates.RateLimited == 0 {
		t.Errorf("with dates: %d completed, %d 429s", dates.Completed, dates.RateLimited)
	}
	// A deadline of 3 s: every 429 asking for more gives the job up.
	c.RetryAfterDate, c.DeadlineS = false, 3
	dl := run(t, c, 1)
	if dl.GaveUp["retry_after_beyond_deadline"] == 0 {
		t.Errorf("deadline 3 s: gave up %v", dl.GaveUp)
	}
	// The dispatcher with a deadline: jobs that wait in the queue past it
	// give up; none is called late (run checks).
	d := Default()
	d.DeadlineS = 30
	r := run(t, d, 1)
	if r.GaveUp["deadline"] == 0 || r.Completed == 0 {
		t.Errorf("dispatcher, deadline 30 s: completed %d, gave up %v", r.Completed, r.GaveUp)
	}
	if d.DeadlineS = 0; !reflect.DeepEqual(run(t, d, 1), run(t, Default(), 1)) {
		t.Error("DeadlineS 0 changed the run")
	}
}

// TestBurst: the dispatcher's buckets hold BurstS seconds of their rate;
// the default, 0, is a minute's worth, and a smaller burst admits less at
// the start: in the default backlog, fewer calls in the first minute.
func TestBurst(t *testing.T) {
	c := Default()
	rb, tb := c.Bursts()
	if rb != 540 || tb != 108000 {
		t.Errorf("default bursts %d and %d, want a minute at 90%%: 540 and 108000", rb, tb)
	}
	c.BurstS = 60
	if !reflect.DeepEqual(run(t, c, 1), run(t, Default(), 1)) {
		t.Error("BurstS 60 differs from the default")
	}
	firstMinute := func(c Config) int {
		n := 0
		_, err := simulate(c, rng(1), func(jb *job, at int64) {
			if at < 60*second {
				n++
			}
		}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	c.BurstS = 10
	full, small := firstMinute(Default()), firstMinute(c)
	if small >= full {
		t.Errorf("calls in the first minute: burst 10 s %d, a minute %d", small, full)
	}
	c.BurstS = 1 // 1,800 tokens: less than the largest call
	var fe *FieldError
	if err := c.Validate(); !errors.As(err, &fe) || fe.Field != "BurstS" {
		t.Errorf("burst below the largest call: %v", err)
	}
}

// TestDecide: the dispatcher's step for each error of the classification,
// with fallback and an operation table, budget left and spent.
func TestDecide(t *testing.T) {
	for _, tt := range []struct {
		key          string
		left, spent  Step
		noFallback   Step // budget left, fallback off
		noIdempotent Step // budget left, no operation table
	}{
		{"rate_limited", StepRetry, StepFallback, StepRetry, StepRetry},
		{"service_unavailable", StepFallback, StepFallback, StepRetry, StepFallback},
		{"internal_error", StepReplay, StepReplay, StepReplay, StepRetry}, // outcome unknown: same provider, same key
		{"gateway_timeout", StepFallback, StepFallback, StepReplay, StepFallback},
		{"connection_reset", StepReplay, StepReplay, StepReplay, StepRetry},
		{"stream_cut", StepReplay, StepReplay, StepReplay, StepRetry},
		{"read_timeout", StepReplay, StepReplay, StepReplay, StepRetry},
		{"validation_error", StepDeadLetter, StepDeadLetter, StepDeadLetter, StepDeadLetter},
		{"context_length_exceeded", StepDeadLetter, StepDeadLetter, StepDeadLetter, StepDeadLetter},
	} {
		e, ok := errclass.ByKey(tt.key)
		if !ok {
			t.Fatalf("no %s", tt.key)
		}
		got := [4]Step{Decide(e, true, true, true), Decide(e, true, true, false), Decide(e, false, true, true), Decide(e, true, false, true)}
		if want := [4]Step{tt.left, tt.spent, tt.noFallback, tt.noIdempotent}; got != want {
			t.Errorf("%s: %v, want %v", tt.key, got, want)
		}
	}
}
