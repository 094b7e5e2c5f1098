package calc

import (
	"math"

	"retrylab/core/meter"
	"retrylab/core/policies"
	"retrylab/core/timeouts"
)

// WithPoll returns a with p, which the simulations of Run call every
// meter.Every units of work (the unit of the calculator's Work) with the
// work done since the last call: p answering true stops the run, which
// then returns meter.ErrStopped. The shared server passes a p that counts
// the work and asks whether the client still waits (site/server); the
// command line and the browser pass none.
func (a Args) WithPoll(p meter.Poll) Args {
	a.poll = p
	return a
}

// WithTrace returns a with n: for n > 0, the calculators whose time
// views draw single requests also record them in their result, in fields
// that are not part of its JSON: policies the trace of each policy's run
// (policies.RunTraced: at most n sampled requests each, and the exact
// counters), dispatch the runs of both modes on the same seed, a's own
// and the other (dispatch.RunTraced: at most n sampled jobs each), and
// limits its workload through the two buckets second by second
// (limits.Config.Trace). The widgets ask for it when they show such a
// view (site/widget); the command line, the API and the embeds do not,
// and pay nothing for it. The zero value, and n <= 0, record nothing.
func (a Args) WithTrace(n int) Args {
	a.trace = max(n, 0)
	return a
}

// TraceMarks returns WithTrace's n (0 when a records no trace).
func (a Args) TraceMarks() int { return a.trace }

// meter returns a fresh Meter of a's Poll for one run (nil without one).
func (a Args) meter() *meter.Meter {
	if a.poll == nil {
		return nil
	}
	return meter.New(a.poll)
}

// stopped reports whether err is a run stopped by its meter (the
// simulations return meter.ErrStopped itself; no errors.Is, whose
// reflection the browser's module would link).
func stopped(err error) bool { return err == meter.ErrStopped }

// The work the calculators declare (Calculator.Work) and the bounds of the
// shared server (Calculator.ServerWork). Each bound is set from the
// calibration `make bench` prints (core/bench/serverwork.sh: the CPU time
// per unit of work of each calculator's worst accepted request on the
// machine that ran it, and that request's CPU time against the 50 ms
// goal): ServerWork ≈ 0.7 × 50 ms / (ns per unit), rounded down, so that
// the worst accepted request stays under the goal with room for a slower
// core. TestServerWorkBudget (server_test.go) holds every calculator to a
// declaration, the declaration to the work the simulations report, and
// the answers to MaxAnswerBytes; it times nothing.
//
// The calibration of 2026-12-03 (core/bench/serverwork.sh on a 2.8 GHz
// Xeon of two cores under load 25, the API's computation and JSON
// encoding), most ns per unit of work → ServerWork:
//
//	jitter    19.0 ns a draw          → 1,800,000 (0.7 × 50 ms / 19.0 ns ≈ 1,840,000)
//	backoff   38.9 ns a worker's turn →   850,000 (≈ 899,000)
//	dispatch   796 ns a call          →    40,000 (≈ 43,950)
//	peak      0.64 ns a multiply-add  →    5 × 10^7 (≈ 5.4 × 10^7)
//	policies  31.4 ns an attempt      → 1,100,000 (policiesServerWork)
//	timeouts  9.05 ns a gap           → 3,800,000 (timeoutsServerWork)
//
// The others cost microseconds at their largest values (microWork).

// microWork multiplies the ServerWork of the calculators whose largest
// values cost microseconds to a few hundred (make bench): their bound is
// a hundred times the Work of their largest values, which the server
// never refuses and its lanes count as cheap (site/server's Shed puts a
// request in the cheap lane up to a tenth of its ServerWork).
const microWork = 100

// fixedWork is the work of a calculator of a few closed forms and a
// short table: its answer's numbers (at most fixedWorkBound / itemWork).
func fixedWork(Args) float64 { return fixedWorkBound }

const fixedWorkBound = itemWork * 100

// attemptsWork: one term of the sum per attempt.
func attemptsWork(a Args) float64 { return float64(a.Int("n")) }

// amplificationWork: the calls of each level and the tree's nodes listed
// (at most maxTreeNodes; a larger tree is counted, not drawn).
func amplificationWork(a Args) float64 {
	return itemWork * float64(2*len(a.Ints("attempts"))+maxTreeNodes)
}

// budgetWork: the histogram of each process (processes × attempts) and
// the numbers listed (the histogram, the requests one by one up to
// maxPerRequest).
func budgetWork(a Args) float64 {
	at := a.Int("attempts")
	return float64(a.Int("processes")*at) + itemWork*float64(at+min(a.Int("requests"), maxPerRequest))
}

// deadlineWork: three numbers listed per attempt.
func deadlineWork(a Args) float64 { return itemWork * 3 * float64(a.Int("attempts")) }

// idempotencyWork: the bytes canonicalized and hashed.
func idempotencyWork(a Args) float64 {
	return float64(len(a.String("tenant")) + len(a.String("task")) + len(a.String("payload")))
}

// idempotencyServerWork: the key costs under a millisecond at the most
// bytes the parameters allow (make bench).
const idempotencyServerWork = microWork * (200 + 200 + 16384)

// policiesServerWork bounds policiesWork for the shared server, in
// attempts simulated (core/bench/serverwork.sh, 2026-12-03, a 2.8 GHz
// Xeon of two cores under load 25: at most 31.4 ns an attempt, the worst
// accepted request 34.5 ms; 0.7 × 50 ms / 31.4 ns ≈ 1,113,000). The
// presets' defaults (120 s of warm-up, a 300 s horizon, eight policies)
// declare 1,152,000, so the bound is 0.9 × 50 ms / 31.4 ns ≈ 1,433,000:
// the article's own experiment is served, with less margin than the
// others (core/bench/serverwork.sh prints the worst accepted).
const policiesServerWork = 1_400_000

// policiesWork is the policies calculator's work in attempts: for each
// policy, an upper bound of the requests started (Poisson, so the mean
// plus eight standard deviations) times the most attempts the policy
// makes per request, plus itemWork for each number of the series (four
// per bin and policy); 0 where Run refuses the values itself. Every
// attempt, sent or refused, is an event or two of the simulation
// (core/policies counts them through the meter).
func policiesWork(a Args) float64 {
	horizon := a.Float("horizon_s")
	var mean, fixed float64
	if a.String("loop") == "closed" {
		c := float64(a.Int("clients"))
		mean, fixed = c*horizon*1000/a.Float("think_ms"), c // each user's first request, then one per think time at most
	} else {
		mean = a.Float("rate_per_s") * horizon
	}
	if mean > policiesMaxRequests || !(mean >= 0) {
		return 0
	}
	requests := fixed + mean + 8*math.Sqrt(mean) + 16
	pols, err := parsePolicies("policies", a.String("policies"))
	if err != nil {
		return 0
	}
	bins := math.Min(policies.MaxBins, math.Ceil(horizon/a.Float("bin_s")))
	var w float64
	for _, p := range pols {
		w += requests*float64(p.MaxAttempts(a.Int("attempts"))) + itemWork*4*bins
	}
	return w
}

// timeoutsServerWork bounds timeoutsWork for the shared server, in gaps
// between tokens (core/bench/serverwork.sh, the same run: at most 9.05 ns
// a gap, 43 ms at 4,800,000; 0.7 × 50 ms / 9.05 ns ≈ 3,870,000).
const timeoutsServerWork = 3_800_000

// timeoutsWork is the timeouts calculator's work in gaps between tokens:
// each call draws the gaps of at most max_output_tokens and may replay
// them once (core/timeouts counts them through the meter), plus a few
// draws of its own, and the histogram's bins listed; 0 where Run refuses
// the values itself.
func timeoutsWork(a Args) float64 {
	calls, out := float64(a.Int("calls")), float64(a.Int("max_output_tokens"))
	if calls*out > timeouts.MaxWork {
		return 0
	}
	return calls*(2*out+8) + itemWork*timeoutsMaxBins
}
