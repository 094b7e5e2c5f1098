package calc

import (
	"encoding/json"
	"errors"
	"math"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

func nextUp(v float64) float64   { return math.Nextafter(v, math.Inf(1)) }
func nextDown(v float64) float64 { return math.Nextafter(v, math.Inf(-1)) }
func strconvG(v float64) string  { return strconv.FormatFloat(v, 'g', -1, 64) }

// compute runs calculator name on key=value pairs.
func compute(t *testing.T, name string, pairs ...string) (any, error) {
	t.Helper()
	c, ok := New().Lookup(name)
	if !ok {
		t.Fatalf("no calculator %s", name)
	}
	a, err := c.ParsePairs(pairs)
	if err != nil {
		return nil, err
	}
	return c.Run(a)
}

func mustCompute(t *testing.T, name string, pairs ...string) any {
	t.Helper()
	res, err := compute(t, name, pairs...)
	if err != nil {
		t.Fatalf("%s %v: %v", name, pairs, err)
	}
	if _, err := json.Marshal(res); err != nil {
		t.Fatalf("%s %v: result does not encode: %v", name, pairs, err)
	}
	return res
}

// The article's figures, from the calculators' defaults or the values the
// article gives.
func TestArticle2Figures(t *testing.T) {
	a := mustCompute(t, "limits").(LimitsResult)
	if a.RPMOK || !a.TPMOK || a.Binding != "rpm" || a.TokensPerMin != 200000 {
		t.Errorf("workload A: %+v", a)
	}
	b := mustCompute(t, "limits", "calls_per_min=100", "tokens_per_call=5000").(LimitsResult)
	if !b.RPMOK || b.TPMOK || b.Binding != "tpm" || b.TokensPerMin != 500000 {
		t.Errorf("workload B: %+v", b)
	}
	c := mustCompute(t, "capacity").(CapacityResult)
	if c.ReservedTokensPerRequest != 5000 || c.RequestsPerMin != 24 || c.WholeRequestsPerMin != 24 || c.SecondsBetweenRequests != 2.5 || c.Binding != "tpm" {
		t.Errorf("capacity: %+v", c)
	}
	if c := mustCompute(t, "capacity", "rpm_limit=10").(CapacityResult); c.RequestsPerMin != 10 || c.Binding != "rpm" {
		t.Errorf("capacity with 10 RPM: %+v", c)
	}
	// The burst: a full bucket of a minute's worth admits 48 requests of
	// 5,000 tokens in the first minute (120,000 + 120,000), twice the
	// steady 24; a 10 s bucket, 28; with 10 RPM, 20 (10 + 10).
	for _, tt := range []struct {
		args         []string
		burst, first int
	}{
		{nil, 120000, 48},
		{[]string{"burst_s=10"}, 20000, 28},
		{[]string{"rpm_limit=10"}, 120000, 20},
		{[]string{"burst_s=2.5"}, 5000, 25},
	} {
		if c := mustCompute(t, "capacity", tt.args...).(CapacityResult); c.BurstTokens != tt.burst || c.FirstMinuteRequests != tt.first {
			t.Errorf("capacity %v: burst %d, first minute %d; want %d, %d", tt.args, c.BurstTokens, c.FirstMinuteRequests, tt.burst, tt.first)
		}
	}
	f20 := mustCompute(t, "concurrency").(ConcurrencyResult)
	f90 := mustCompute(t, "concurrency", "latency_s=90").(ConcurrencyResult)
	capped := mustCompute(t, "concurrency", "latency_s=90", "max_concurrency=20").(ConcurrencyResult)
	if f20.InFlight != 20 || f90.InFlight != 90 || f20.CapThroughputPerMin != nil {
		t.Errorf("in flight %v and %v, want 20 and 90", f20.InFlight, f90.InFlight)
	}
	if capped.InFlightCapped != 20 || capped.LimitedBy != "concurrency" || capped.ThroughputPerMin >= 60 {
		t.Errorf("capped: %+v", capped)
	}
}

func TestBackoffCalc(t *testing.T) {
	sync := mustCompute(t, "backoff", "jitter=false").(BackoffResult)
	if sync.Peak != 100 || sync.Retries != 300 || sync.Workers != 100 {
		t.Errorf("without jitter: peak %d retries %d", sync.Peak, sync.Retries)
	}
	for i, start := range []float64{0.5, 1.5, 3.5} {
		j := int(start*10 + 0.5)
		if sync.Counts[j] != 100 || sync.BinStartsS[j] != start {
			t.Errorf("wave %d: bin from %v holds %d, want 100 at %v", i, sync.BinStartsS[j], sync.Counts[j], start)
		}
	}
	jit := mustCompute(t, "backoff").(BackoffResult)
	if jit.Retries != 300 || jit.Peak >= 50 || len(jit.ArrivalsS) != 300 {
		t.Errorf("with jitter: retries %d peak %d arrivals %d", jit.Retries, jit.Peak, len(jit.ArrivalsS))
	}
	for _, tt := range []struct {
		policy   string
		attempts int
		elapsed  float64
	}{{"interactive", 3, 8}, {"batch", 8, 300}} {
		r := mustCompute(t, "backoff", "policy="+tt.policy).(BackoffResult)
		custom := mustCompute(t, "backoff", "max_attempts="+itoa(tt.attempts), "max_elapsed_s="+FormatFloat(tt.elapsed)).(BackoffResult)
		if r.MaxAttempts != tt.attempts || r.MaxElapsedS != tt.elapsed || r.Retries != custom.Retries || r.MaxElapsedUsedS != custom.MaxElapsedUsedS {
			t.Errorf("%s: %d attempts, %v s, %d retries; custom equivalent %d retries", tt.policy, r.MaxAttempts, r.MaxElapsedS, r.Retries, custom.Retries)
		}
	}
	// Retry-After is a floor, never cut to the time left: with 5 s asked
	// and 8 s allowed, every worker retries at 5 s and, with 3 s left,
	// gives up; with 12 s asked and 20 s allowed, at 12 s, then gives up
	// rather than call at 20 s. Without Retry-After nobody gives up on it.
	for _, tt := range []struct {
		args                      []string
		retries, gaveUp, gaveUpRA int
		lastCall                  float64
	}{
		{[]string{"retry_after_s=5", "max_elapsed_s=8"}, 100, 100, 100, 5},
		{[]string{"retry_after_s=12"}, 100, 100, 100, 12},
		{[]string{"retry_after_s=12", "max_elapsed_s=24"}, 200, 100, 0, 24},
		{[]string{"retry_after_s=3"}, 300, 0, 0, 9},
	} {
		ra := mustCompute(t, "backoff", tt.args...).(BackoffResult)
		if ra.RetryAfterS == nil || ra.Retries != tt.retries || ra.GaveUp != tt.gaveUp || ra.GaveUpRetryAfter != tt.gaveUpRA ||
			ra.GaveUpElapsed != ra.GaveUp-ra.GaveUpRetryAfter || math.Abs(ra.MaxElapsedUsedS-tt.lastCall) > 0.6 {
			t.Errorf("%v: retries %d, gave up %d (%d on Retry-After), last call %v", tt.args, ra.Retries, ra.GaveUp,
				ra.GaveUpRetryAfter, ra.MaxElapsedUsedS)
		}
		for a, at := range ra.ArrivalsS {
			if at < *ra.RetryAfterS*float64(1+a/100) {
				t.Fatalf("%v: retry %d at %v s, before Retry-After allowed it", tt.args, a, at)
			}
		}
	}
	if big := mustCompute(t, "backoff", "workers=100000", "max_attempts=30", "max_elapsed_s=86400", "width_s=10").(BackoffResult); big.ArrivalsS != nil {
		t.Error("arrivals listed for 2.9 million retries")
	}
}

func itoa(n int) string { return FormatFloat(float64(n)) }

func TestIdempotencyCalc(t *testing.T) {
	r := mustCompute(t, "idempotency-key").(IdempotencyResult)
	if r.Canonical != `{"document_id":"doc-42","max_output_tokens":1000}` ||
		r.Key != "acme:summarize:8a5dbf3d81e17c323058f3e9d175f5ad2ceeb7ba6e27c9b5ffebe9100579dc35" {
		t.Errorf("default: %+v", r)
	}
	// Key order and spacing do not change the key; <>& stay as they are.
	a := mustCompute(t, "idempotency-key", `payload={"b": "<&>", "a": [1.0, 1e16]}`).(IdempotencyResult)
	b := mustCompute(t, "idempotency-key", `payload={"a":[1.0,1E16],"b":"<&>"}`).(IdempotencyResult)
	if a.Key != b.Key || a.Canonical != `{"a":[1.0,1e+16],"b":"<&>"}` {
		t.Errorf("canonical %s / %s", a.Canonical, b.Canonical)
	}
	c := mustCompute(t, "idempotency-key", "tenant=globex", "task=classify").(IdempotencyResult)
	if !strings.HasPrefix(c.Key, "globex:classify:") || c.SHA256 != r.SHA256 {
		t.Errorf("tenant and task: %+v", c)
	}
}

func TestDispatchCalc(t *testing.T) {
	d := mustCompute(t, "dispatch").(DispatchResult)
	n := mustCompute(t, "dispatch", "mode=naive").(DispatchResult)
	if d.Completed != d.Jobs || d.RateLimited != 0 || d.DeadLetters != 0 {
		t.Errorf("dispatcher: %d of %d completed, %d 429s", d.Completed, d.Jobs, d.RateLimited)
	}
	if n.RateLimited <= n.Jobs || n.Completed >= d.Completed/4 || n.DeadLetters == 0 {
		t.Errorf("naive: %d completed, %d 429s, %d dead letters", n.Completed, n.RateLimited, n.DeadLetters)
	}
	if d.TokensReserved <= d.TokensUsed || d.QueueWaitP95S < d.QueueWaitP50S || len(d.DepthTS) == 0 || len(d.DepthTS) > 200 {
		t.Errorf("dispatcher metrics: %+v", d)
	}
	if d.GaveUp != 0 || d.RetryAfterExample != nil || d.BurstTokens != 108000 || d.FirstMinuteTokens != 216000 || d.BurstRequests != 540 {
		t.Errorf("dispatcher defaults: gave up %d, bursts %d and %d, first minute %v tokens", d.GaveUp, d.BurstRequests,
			d.BurstTokens, d.FirstMinuteTokens)
	}
	// Retry-After in the calculator: in either form the naive workers get
	// it with their 429s; with a 20 s deadline, those told to wait past it
	// give up instead of calling early; and the date form gives dates.
	for _, form := range []string{"seconds", "date"} {
		r := mustCompute(t, "dispatch", "mode=naive", "deadline_s=20", "retry_after_form="+form).(DispatchResult)
		if r.GaveUpByReason["retry_after_beyond_deadline"] == 0 || r.Completed+r.DeadLetters+r.GaveUp != r.Jobs {
			t.Errorf("%s: completed %d, dead letters %d, gave up %v", form, r.Completed, r.DeadLetters, r.GaveUpByReason)
		}
		if r.RetryAfterExample == nil {
			t.Fatalf("%s: no Retry-After", form)
		}
		if _, err := strconv.Atoi(*r.RetryAfterExample); (err == nil) != (form == "seconds") {
			t.Errorf("%s: Retry-After %q", form, *r.RetryAfterExample)
		}
	}
	// A burst of 10 s: buckets of a sixth of a minute, and the first
	// minute admits 7/6 of the rate instead of twice it.
	b := mustCompute(t, "dispatch", "burst_s=10").(DispatchResult)
	if b.BurstTokens != 18000 || b.FirstMinuteTokens != 126000 || b.Completed != b.Jobs {
		t.Errorf("burst 10 s: %d tokens, first minute %v, completed %d", b.BurstTokens, b.FirstMinuteTokens, b.Completed)
	}
	again := mustCompute(t, "dispatch").(DispatchResult)
	ja, _ := json.Marshal(d)
	jb, _ := json.Marshal(again)
	if string(ja) != string(jb) {
		t.Error("two runs with the default seed differ")
	}
}

// Bad input to every calculator of article 2 is an *Error naming the
// parameter (the CLI prints it and exits 2).
func TestArticle2BadInput(t *testing.T) {
	checkRefusals(t, func(name string, pairs []string) error {
		_, err := compute(t, name, pairs...)
		return err
	}, []refusal{
		{"limits", []string{"rpm_limit=0"}, "rpm_limit", CodeRange},
		{"limits", []string{"rpm_limit=1e-300"}, "rpm_limit", CodeRange},
		{"capacity", []string{"tpm_limit=0.5"}, "tpm_limit", CodeRange},
		{"limits", []string{"tpm_limit=-5"}, "tpm_limit", CodeRange},
		{"limits", []string{"calls_per_min=lots"}, "calls_per_min", CodeNotNumber},
		{"limits", []string{"tokens_per_call=1.5"}, "tokens_per_call", CodeNotInteger},
		{"limits", []string{"rpm=600"}, "rpm", CodeUnknownParam},
		{"capacity", []string{"max_output_tokens=0"}, "max_output_tokens", CodeRange},
		{"capacity", []string{"prompt_tokens=-1"}, "prompt_tokens", CodeRange},
		{"capacity", []string{"rpm_limit=NaN"}, "rpm_limit", CodeNotFinite},
		{"capacity", []string{"tpm_limit=1e999"}, "tpm_limit", CodeRange},
		{"capacity", []string{"burst_s=2"}, "burst_s", CodeConstraint},
		{"concurrency", []string{"latency_s=0"}, "latency_s", CodeRange},
		{"concurrency", []string{"max_concurrency=-1"}, "max_concurrency", CodeRange},
		{"concurrency", []string{"rpm=60", "rpm=61"}, "rpm", CodeRepeated},
		{"backoff", []string{"policy=aggressive"}, "policy", CodeChoice},
		{"backoff", []string{"policy=batch", "max_attempts=3"}, "max_attempts", CodeConstraint},
		{"backoff", []string{"policy=interactive", "max_elapsed_s=30"}, "max_elapsed_s", CodeConstraint},
		{"backoff", []string{"width_s=0.00001", "max_elapsed_s=86400", "max_attempts=30"}, "width_s", CodeWork},
		{"backoff", []string{"seed=12ab"}, "seed", CodeNotInteger},
		{"backoff", []string{"jitter=maybe"}, "jitter", CodeBool},
		{"backoff", []string{"retry_after_s=-1"}, "retry_after_s", CodeRange},
		{"dispatch", []string{"burst_s=1"}, "burst_s", CodeConstraint},
		{"errors", []string{"class=teapot"}, "class", CodeChoice},
		{"errors", []string{"status=200"}, "status", CodeRange},
		{"timeouts", []string{"calls=100000"}, "calls", CodeWork},
		{"timeouts", []string{"idle_timeout_s=-1"}, "idle_timeout_s", CodeRange},
		{"timeouts", []string{"first_token_shape=0.1"}, "first_token_shape", CodeRange},
		{"dispatch", []string{"burst_s=0"}, "burst_s", CodeRange},
		{"dispatch", []string{"deadline_s=0"}, "deadline_s", CodeRange},
		{"dispatch", []string{"retry_after_form=rfc850"}, "retry_after_form", CodeChoice},
		{"backoff", []string{"workers=0"}, "workers", CodeRange},
		{"backoff", []string{"max_attempts=31"}, "max_attempts", CodeRange},
		{"idempotency-key", []string{"payload=NaN"}, "payload", CodeJSON},
		{"idempotency-key", []string{"payload=[1E400]"}, "payload", CodeJSON},
		{"idempotency-key", []string{`payload={"a":`}, "payload", CodeJSON},
		{"idempotency-key", []string{"payload=" + strings.Repeat("[", 600) + strings.Repeat("]", 600)}, "payload", CodeJSON},
		{"idempotency-key", []string{"payload=" + strings.Repeat("9", 4301)}, "payload", CodeJSON},
		{"idempotency-key", []string{"tenant=" + strings.Repeat("x", 201)}, "tenant", CodeTooLong},
		{"idempotency-key", []string{"payload=\"" + strings.Repeat("x", 16385) + "\""}, "payload", CodeTooLong},
		{"dispatch", []string{"mode=dispatched"}, "mode", CodeChoice},
		{"dispatch", []string{"jobs=0"}, "jobs", CodeRange},
		{"dispatch", []string{"jobs=100000", "max_attempts=5"}, "jobs", CodeWork},
		{"dispatch", []string{"tpm_limit=1000"}, "max_output_tokens", CodeConstraint},
		{"dispatch", []string{"rpm_limit=1", "headroom=0.5"}, "rpm_limit", CodeConstraint},
		{"dispatch", []string{"arrival_per_min=0.0000001", "jobs=1000"}, "jobs", CodeConstraint},
		{"dispatch", []string{"headroom=3"}, "headroom", CodeRange},
		{"dispatch", []string{"p_drop=1.5"}, "p_drop", CodeRange},
		{"dispatch", []string{"seed=-1"}, "seed", CodeRange},
		{"dispatch", []string{"samples=1"}, "samples", CodeRange},
	})
}

// Every article-2 calculator answers from its defaults, and the URL query
// of its Args reproduces the same result.
func TestArticle2Defaults(t *testing.T) {
	reg := New()
	for _, name := range []string{"limits", "capacity", "concurrency", "backoff", "idempotency-key", "dispatch", "errors", "timeouts", "estimate"} {
		c, ok := reg.Lookup(name)
		if !ok || c.Article != 2 {
			t.Fatalf("%s missing from article 2", name)
		}
		for _, p := range c.Params {
			if p.Help == "" {
				t.Errorf("%s.%s has no help", name, p.Name)
			}
		}
		res, err := reg.Compute(name, url.Values{})
		if err != nil {
			t.Fatalf("%s defaults: %v", name, err)
		}
		if _, err := json.Marshal(res); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// extremes returns values at the ends of p's range (the smallest float
// above an open bound included).
func extremes(p Param) []string {
	if !p.Kind.IsNumeric() || p.Kind.IsList() {
		return nil
	}
	var out []string
	for _, b := range []Bound{p.Min, p.Max} {
		if !b.Set {
			continue
		}
		v := b.V
		if b.Open {
			if p.Kind == Int {
				continue
			}
			if b == p.Min {
				v = nextUp(v)
			} else {
				v = nextDown(v)
			}
		}
		if p.Kind == Int {
			out = append(out, FormatFloat(v))
		} else {
			out = append(out, strconvG(v))
		}
	}
	return out
}

// Every article-2 calculator at the ends of every range, one parameter at
// a time and all at once: an answer that encodes as JSON, or an *Error;
// never a panic, never a NaN or an infinity in the result.
func TestArticle2Extremes(t *testing.T) {
	reg := New()
	for _, name := range []string{"limits", "capacity", "concurrency", "backoff", "idempotency-key", "dispatch", "errors", "timeouts", "estimate"} {
		c, _ := reg.Lookup(name)
		var sets [][]string
		lo, hi := []string{}, []string{}
		for _, p := range c.Params {
			ex := extremes(p)
			for _, v := range ex {
				sets = append(sets, []string{p.Name + "=" + v})
			}
			if len(ex) == 2 {
				lo = append(lo, p.Name+"="+ex[0])
				hi = append(hi, p.Name+"="+ex[1])
			}
		}
		sets = append(sets, lo, hi)
		if len(lo) <= 4 { // small calculators: every combination of ends
			for mask := 0; mask < 1<<len(lo); mask++ {
				var pairs []string
				for i := range lo {
					if mask&(1<<i) != 0 {
						pairs = append(pairs, hi[i])
					} else {
						pairs = append(pairs, lo[i])
					}
				}
				sets = append(sets, pairs)
			}
		}
		for _, pairs := range sets {
			res, err := compute(t, name, pairs...)
			if err != nil {
				var e *Error
				if !errors.As(err, &e) {
					t.Errorf("%s %v: %v is not an *Error", name, pairs, err)
				}
				continue
			}
			if _, err := json.Marshal(res); err != nil {
				t.Errorf("%s %v: %v", name, pairs, err)
			}
		}
	}
}

// The errors calculator is the classification and the dispatcher's step:
// by class, by status (listed or by its class), with the switches.
func TestErrorsCalc(t *testing.T) {
	for _, tt := range []struct {
		args                                  []string
		key, decision, processed, disp, after string
		status                                int
		standard, byClass, billed             bool
	}{
		{nil, "rate_limited", "retry", "no", "retry", "fallback", 429, true, false, false},
		{[]string{"status=429"}, "rate_limited", "retry", "no", "retry", "fallback", 429, true, false, false},
		{[]string{"status=503", "class=stream_cut"}, "service_unavailable", "retry", "no", "fallback", "fallback", 503, true, false, false},
		{[]string{"status=500"}, "internal_error", "retry", "unknown", "replay", "replay", 500, true, false, true},
		{[]string{"status=502", "fallback=false"}, "bad_gateway", "retry", "unknown", "replay", "replay", 502, true, false, true},
		{[]string{"status=529"}, "overloaded", "retry", "no", "fallback", "fallback", 529, false, false, false},
		{[]string{"status=599"}, "internal_error", "retry", "unknown", "replay", "replay", 599, false, true, true},
		{[]string{"status=418"}, "validation_error", "never", "no", "dead_letter", "dead_letter", 418, false, true, false},
		{[]string{"class=stream_cut"}, "stream_cut", "ask_user", "yes", "replay", "replay", 0, false, false, true},
		{[]string{"class=stream_cut", "idempotency=false"}, "stream_cut", "ask_user", "yes", "retry", "dead_letter", 0, false, false, true},
		{[]string{"class=context_length_exceeded"}, "context_length_exceeded", "never", "no", "dead_letter", "dead_letter", 400, true, false, false},
		{[]string{"class=rate_limited", "fallback=false"}, "rate_limited", "retry", "no", "retry", "dead_letter", 429, true, false, false},
	} {
		r := mustCompute(t, "errors", tt.args...).(ErrorsResult)
		if r.Class != tt.key || r.Decision != tt.decision || r.Processed != tt.processed || r.Dispatcher != tt.disp ||
			r.DispatcherAfterBudget != tt.after || r.Status != tt.status || r.StandardStatus != tt.standard ||
			r.ByStatusClass != tt.byClass || r.MayBeBilled != tt.billed {
			t.Errorf("errors %v: %+v", tt.args, r)
		}
		if r.RetryClasses+r.NeverClasses+r.AskUserClasses != 18 {
			t.Errorf("errors %v: %d classes", tt.args, r.RetryClasses+r.NeverClasses+r.AskUserClasses)
		}
	}
}

// The timeouts calculator: the cuts add up, a shorter first-token timeout
// cuts more calls and causes more retries (the calls are the same), and
// without timeouts every call completes.
func TestTimeoutsCalc(t *testing.T) {
	d := mustCompute(t, "timeouts").(TimeoutsResult)
	if d.Completed+d.CutConnect+d.CutFirstToken+d.CutIdle+d.CutTotal != d.Calls ||
		d.RetriesCaused != d.CutConnect+d.CutFirstToken || d.HandedToUser != d.CutIdle+d.CutTotal {
		t.Fatalf("defaults do not add up: %+v", d)
	}
	if d.CutIdle == 0 || d.TokensThrownAway == 0 || d.FirstTokenTail <= 0 || len(d.FirstTokenCounts) != 40 {
		t.Errorf("defaults: %+v", d)
	}
	short := mustCompute(t, "timeouts", "first_token_timeout_s=2").(TimeoutsResult)
	if short.CutFirstToken <= d.CutFirstToken || short.RetriesCaused <= d.RetriesCaused || short.FirstTokenP50S != d.FirstTokenP50S {
		t.Errorf("first-token timeout 2 s: %d cuts, %d retries (defaults %d, %d)", short.CutFirstToken, short.RetriesCaused,
			d.CutFirstToken, d.RetriesCaused)
	}
	none := mustCompute(t, "timeouts", "connect_timeout_s=0", "first_token_timeout_s=0", "idle_timeout_s=0", "total_timeout_s=0").(TimeoutsResult)
	if none.Completed != none.Calls || none.TokensThrownAway != 0 || none.FirstTokenTail != 0 {
		t.Errorf("no timeout: %+v", none)
	}
	sum := 0
	for _, n := range d.FirstTokenCounts {
		sum += n
	}
	if sum != d.Calls-d.CutConnect {
		t.Errorf("histogram holds %d calls, %d connected", sum, d.Calls-d.CutConnect)
	}
}

// The estimate calculator: 20 % low admits more than the provider allows,
// exact neither rejects nor wastes, high leaves capacity unused;
// correction from usage bounds the gap by the calls in flight.
func TestEstimateCalc(t *testing.T) {
	low := mustCompute(t, "estimate").(EstimateResult)
	if low.ReservedPerCall != 4200 || low.CountedPerCall != 5000 || low.PossiblePerMin != 24 || !(low.RejectedPerMin > 4.5) ||
		low.UnusedShare != 0 || low.InFlight != 8 || low.CorrectedOverrunTokens != 6400 {
		t.Errorf("20 %% low: %+v", low)
	}
	exact := mustCompute(t, "estimate", "estimate_bias=0").(EstimateResult)
	if exact.RejectedPerMin != 0 || exact.UnusedShare != 0 || exact.AdmittedPerMin != 24 || exact.CorrectedOverrunTokens != 0 {
		t.Errorf("exact: %+v", exact)
	}
	high := mustCompute(t, "estimate", "estimate_bias=0.25").(EstimateResult)
	if high.RejectedPerMin != 0 || high.AdmittedPerMin != 20 || high.CorrectedUnusedTokens != 8000 {
		t.Errorf("25 %% high: %+v", high)
	}
}
