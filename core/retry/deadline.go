package retry

import (
	"errors"
	"math"
	"strconv"
)

// Deadline is the time arithmetic of one task that retries under an
// overall deadline. Times are in milliseconds. Every attempt, in the worst
// case, runs to its limit and fails; the waits are spent in full.
type Deadline struct {
	Attempts   int       // attempts at most, >= 1
	TimeoutMS  float64   // limit of one attempt, > 0
	WaitsMS    []float64 // wait before attempt k+1 (k from 1): Attempts-1 values >= 0
	DeadlineMS float64   // time budget of the whole task, > 0
	// MinAttemptMS: an attempt is not started with less time than this
	// left (0: any positive time left admits it).
	MinAttemptMS float64
}

// DeadlineResult is the worst-case schedule of a Deadline.
type DeadlineResult struct {
	// WorstCaseMS is Attempts·TimeoutMS + Σ WaitsMS: the task's duration
	// when every attempt times out and nothing cuts it (750 for 3 × 200
	// with waits 50, 100).
	WorstCaseMS float64
	Fits        bool // WorstCaseMS <= DeadlineMS
	// RemainingBeforeAttemptMS[k] is the time left before attempt k+1
	// starts, when each earlier attempt used all of its budget; never
	// below 0.
	RemainingBeforeAttemptMS []float64
	// AttemptBudgetMS[k] = min(TimeoutMS, RemainingBeforeAttemptMS[k]):
	// the time attempt k+1 may use when the deadline is propagated.
	AttemptBudgetMS []float64
	// AttemptsAdmitted is the number of attempts started: attempts are
	// started in order while the time left is > 0 and >= MinAttemptMS.
	AttemptsAdmitted int
}

// Run computes the worst-case schedule. It checks the domain first.
func (d Deadline) Run() (DeadlineResult, error) {
	switch {
	case d.Attempts < 1:
		return DeadlineResult{}, errors.New("retry: attempts must be >= 1")
	case len(d.WaitsMS) != d.Attempts-1:
		return DeadlineResult{}, errors.New("retry: " + strconv.Itoa(len(d.WaitsMS)) + " waits for " + strconv.Itoa(d.Attempts) + " attempts, want " + strconv.Itoa(d.Attempts-1))
	case !(d.TimeoutMS > 0) || math.IsInf(d.TimeoutMS, 0):
		return DeadlineResult{}, errors.New("retry: timeout must be finite and > 0")
	case !(d.DeadlineMS > 0) || math.IsInf(d.DeadlineMS, 0):
		return DeadlineResult{}, errors.New("retry: deadline must be finite and > 0")
	case !(d.MinAttemptMS >= 0) || math.IsInf(d.MinAttemptMS, 0):
		return DeadlineResult{}, errors.New("retry: min attempt must be finite and >= 0")
	}
	for i, w := range d.WaitsMS {
		if !(w >= 0) || math.IsInf(w, 0) {
			return DeadlineResult{}, errors.New("retry: wait " + strconv.Itoa(i) + " must be finite and >= 0")
		}
	}
	res := DeadlineResult{
		RemainingBeforeAttemptMS: make([]float64, d.Attempts),
		AttemptBudgetMS:          make([]float64, d.Attempts),
	}
	res.WorstCaseMS = float64(d.Attempts) * d.TimeoutMS
	for _, w := range d.WaitsMS {
		res.WorstCaseMS += w
	}
	res.Fits = res.WorstCaseMS <= d.DeadlineMS
	left := d.DeadlineMS
	admitting := true
	for k := 0; k < d.Attempts; k++ {
		if k > 0 {
			left = math.Max(0, left-d.WaitsMS[k-1])
		}
		res.RemainingBeforeAttemptMS[k] = left
		budget := math.Min(d.TimeoutMS, left)
		res.AttemptBudgetMS[k] = budget
		if admitting && left > 0 && left >= d.MinAttemptMS {
			res.AttemptsAdmitted++
		} else {
			admitting = false
		}
		left -= budget
	}
	return res, nil
}
