package dispatch

import (
	"math/rand/v2"

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
}

func (tr *tracer) job(j int32) *Job {
	if int(j)%tr.stride != 0 || int(j)/tr.stride >= len(tr.jobs) {
		return nil
	}
	return &tr.jobs[int(j)/tr.stride]
}

func (tr *tracer) arrivals(jobs []job) {
	for i := range tr.jobs {
		tr.jobs[i].ArrivalS = seconds(jobs[tr.jobs[i].Job].arrival)
	}
}

func (tr *tracer) call(j int32, start, end int64, out outcome) {
	if jb := tr.job(j); jb != nil {
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
		jb.Calls = append(jb.Calls, Call{seconds(start), seconds(end), st})
	}
}

func (tr *tracer) end(j int32, t int64) {
	if jb := tr.job(j); jb != nil {
		jb.StoppedS = seconds(t)
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
	tr := &tracer{stride: stride}
	for j := 0; j < c.Jobs; j += stride {
		tr.jobs = append(tr.jobs, Job{Job: j, StoppedS: -1})
	}
	res, err := simulateWith(c, r, nil, m, tr)
	if err != nil {
		return Result{}, Trace{}, err
	}
	return res, Trace{Stride: stride, Jobs: tr.jobs}, nil
}
