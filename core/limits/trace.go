package limits

import (
	"errors"
	"math"
	"strconv"

	"retrylab/core/standin/errwrap"
)

// Flow is a steady workload sent through a [Limiter], for [Config.Trace]:
// calls evenly spaced in time, the first at 0, each of the same size.
type Flow struct {
	CallsPerMin float64 // calls sent per minute, >= 0 (0: none)
	Tokens      int     // tokens one call reserves (prompt + max output), >= 0
	HorizonS    float64 // how long the trace runs, s, > 0
	// MaxWaitS is the longest a call waits for the buckets, s, >= 0: a
	// call that would wait longer is refused and takes nothing (the
	// caller gives up, or the provider answers 429).
	MaxWaitS float64
	Steps    int // samples of the trace, in [1, MaxTraceSteps]
}

// MaxTraceSteps bounds Flow.Steps; MaxTraceCalls bounds the calls a
// trace simulates (CallsPerMin × HorizonS / 60), so a trace costs at most
// a few milliseconds.
const (
	MaxTraceSteps = 2000
	MaxTraceCalls = 100000
)

// Step is one sample of a trace: the step runs from the previous step's T
// (0 for the first) to T.
type Step struct {
	T float64 // s, the end of the step
	// Requests and Tokens are what the two buckets hold at T, after the
	// calls of the step: negative while admitted calls wait for a refill
	// (the buckets owe them).
	Requests, Tokens float64
	// Admitted, Delayed and Refused count the calls that arrived in the
	// step: admitted at once, admitted after a wait of at most MaxWaitS,
	// or refused.
	Admitted, Delayed, Refused int
}

// ErrTraceTooLarge is returned (wrapped) by [Config.Trace] for a flow
// beyond MaxTraceCalls or MaxTraceSteps.
var ErrTraceTooLarge = errors.New("limits: trace too large")

// Trace sends f through a [Limiter] of c whose buckets start full, and
// returns f.Steps samples of both buckets and of the calls' outcomes, in
// time order. It is computed once: a view plays the samples back. A call
// of more tokens than the token bucket holds is refused, as is every call
// when f.Tokens exceeds the capacity.
func (c Config) Trace(f Flow) ([]Step, error) {
	l, err := NewLimiter(c)
	if err != nil {
		return nil, err
	}
	if !(f.CallsPerMin >= 0) || math.IsInf(f.CallsPerMin, 0) || !(f.HorizonS > 0) || math.IsInf(f.HorizonS, 0) || !(f.MaxWaitS >= 0) || f.Tokens < 0 {
		return nil, errors.New("limits: a flow needs calls per minute >= 0, tokens >= 0, a horizon > 0 and a wait >= 0")
	}
	calls := f.CallsPerMin * f.HorizonS / 60
	if f.Steps < 1 || f.Steps > MaxTraceSteps || calls > MaxTraceCalls {
		return nil, errwrap.Detail(ErrTraceTooLarge, strconv.Itoa(f.Steps)+" steps, "+formatFloat(math.Ceil(calls))+" calls")
	}
	const ns = 1e9
	maxWait := int64(math.Min(f.MaxWaitS*ns, math.MaxInt64/4))
	gap := 0.0 // s between calls
	if f.CallsPerMin > 0 {
		gap = 60 / f.CallsPerMin
	}
	steps := make([]Step, f.Steps)
	next := 0 // the next call
	for k := range steps {
		end := f.HorizonS * float64(k+1) / float64(f.Steps)
		s := &steps[k]
		s.T = end
		for gap > 0 {
			at := float64(next) * gap
			if at >= end || at >= f.HorizonS {
				break
			}
			t := int64(at * ns)
			r, err := l.Reserve(t, f.Tokens)
			switch {
			case err != nil:
				s.Refused++
			case r.At-t > maxWait:
				r.Cancel(t)
				s.Refused++
			case r.At > t:
				s.Delayed++
			default:
				s.Admitted++
			}
			next++
		}
		s.Requests, s.Tokens = l.Available(int64(end * ns))
	}
	return steps, nil
}
