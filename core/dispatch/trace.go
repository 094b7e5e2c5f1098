package dispatch

import (
	"math/rand/v2"

	"retrylab/core/internal/group"
	"retrylab/core/meter"
)

// The trace of a run, for the request-flow view (site/widget, view
// flow): the calls of a bounded sample of jobs (every Stride-th job in
// order of arrival, at most maxJobs), each with its start, its end and its
// outcome, and when a job that did not complete stopped (dead letter or
// deadline). The counters the view shows beside the marks are the
// Result's depth series, exact for every job.

// Status is the outcome of a traced call.
type Status uint8

const (
	StatusOK          Status = iota // answered (200)
	StatusRateLimited               // 429
	StatusUnavailable               // 503
	StatusDropped                   // finished and billed, the answer lost
	StatusReplay                    // answered from the idempotency store
)

// Call is one call of a traced job, times in s.
type Call struct {
	StartS, EndS float64
	Status       Status
}

// Job is one traced job.
type Job struct {
	Job      int // its number, in order of arrival
	ArrivalS float64
	Calls    []Call
	// StoppedS is when a job that never completed stopped (dead letter,
	// deadline); -1 for a job that completed.
	StoppedS float64
}

// Trace is a run's sample of jobs.
type Trace struct {
	Stride int
	Jobs   []Job
}

type tracer struct {
	stride int
	jobs   []Job
	// log holds the traced jobs' calls in the order they were recorded,
	// logJobs each one's job (its index in jobs): calls gives every job
	// its calls in one slice of them all (group.By), not one growing
	// slice a job (hundreds of allocations a traced run, dear in
	// WebAssembly).
	log     []Call
	logJobs []int32
}

// job returns the index in jobs of job j's trace, or -1 when j is not
// traced.
func (tr *tracer) job(j int32) int {
	if int(j)%tr.stride != 0 || int(j)/tr.stride >= len(tr.jobs) {
		return -1
	}
	return int(j) / tr.stride
}

func (tr *tracer) arrivals(jobs []job) {
	for i := range tr.jobs {
		tr.jobs[i].ArrivalS = seconds(jobs[tr.jobs[i].Job].arrival)
	}
}

func (tr *tracer) call(j int32, start, end int64, out outcome) {
	if i := tr.job(j); i >= 0 {
		st := StatusOK
		switch out {
		case out429:
			st = StatusRateLimited
		case out503:
			st = StatusUnavailable
		case outDrop:
			st = StatusDropped
		case outReplay:
			st = StatusReplay
		}
		tr.log = append(tr.log, Call{seconds(start), seconds(end), st})
		tr.logJobs = append(tr.logJobs, int32(i))
	}
}

func (tr *tracer) end(j int32, t int64) {
	if i := tr.job(j); i >= 0 {
		tr.jobs[i].StoppedS = seconds(t)
	}
}

// calls gives each traced job its calls from log, in the order logged: a
// slice each of one array (its capacity its length: an append copies),
// nil for none.
func (tr *tracer) calls() {
	g := group.By(tr.logJobs, tr.log, len(tr.jobs))
	for i := range tr.jobs {
		tr.jobs[i].Calls = g.Of(i)
	}
}

// RunTraced is Run with the trace of at most maxJobs jobs.
func RunTraced(c Config, r *rand.Rand, maxJobs int) (Result, Trace, error) {
	return RunTracedMeter(c, r, maxJobs, nil)
}

// RunTracedMeter is RunTraced with a meter (RunMeter's).
func RunTracedMeter(c Config, r *rand.Rand, maxJobs int, m *meter.Meter) (Result, Trace, error) {
	maxJobs = max(maxJobs, 1)
	stride := max(1, (c.Jobs+maxJobs-1)/maxJobs)
	n := 0 // the traced jobs
	if c.Jobs > 0 {
		n = (c.Jobs + stride - 1) / stride
	}
	// room for two calls a traced job (it grows beyond)
	tr := &tracer{stride: stride, jobs: make([]Job, 0, n), log: make([]Call, 0, 2*n), logJobs: make([]int32, 0, 2*n)}
	for j := 0; j < c.Jobs; j += stride {
		tr.jobs = append(tr.jobs, Job{Job: j, StoppedS: -1})
	}
	res, err := simulateWith(c, r, nil, m, tr)
	if err != nil {
		return Result{}, Trace{}, err
	}
	tr.calls()
	return res, Trace{Stride: stride, Jobs: tr.jobs}, nil
}
