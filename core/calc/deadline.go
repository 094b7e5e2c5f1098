package calc

import (
	"strconv"

	"retrylab/core/retry"
)

// DeadlineResult is the result of the deadline calculator.
type DeadlineResult struct {
	WorstCaseMS              float64   `json:"worst_case_ms"`
	Fits                     bool      `json:"fits"`
	RemainingBeforeAttemptMS []float64 `json:"remaining_before_attempt_ms"`
	AttemptBudgetMS          []float64 `json:"attempt_budget_ms"`
	AttemptsAdmitted         int       `json:"attempts_admitted"`
	// WaitsMS are the waits used (the default 50,100 is cut or continued
	// by doubling when waits_ms is not given and attempts is not 3).
	WaitsMS []float64 `json:"waits_ms"`
}

// maxWaitMS is the largest wait waits_ms accepts.
const maxWaitMS = 1e9

// defaultWaits returns n waits: 50, 100, 200, … (the default 50,100 cut
// or continued by doubling), each at most maxWaitMS, so that the waits
// the result lists are values waits_ms accepts.
func defaultWaits(n int) []float64 {
	w := make([]float64, n)
	for i := range w {
		w[i] = min(50*float64(uint64(1)<<uint(min(i, 60))), maxWaitMS)
	}
	return w
}

// deadlineCalc declares the deadline calculator.
//
//retrylab:calculator article=1 order=50
func deadlineCalc() *Calculator {
	const name = "deadline"
	return &Calculator{
		Name:      name,
		Examples:  []string{"attempts=1", "deadline_ms=1", "min_attempt_ms=100", "attempts=10"},
		Help:      "the deadline of a task that retries: worst case, time left before each attempt, admission",
		Essential: []string{"attempts", "timeout_ms", "waits_ms", "deadline_ms"},
		Work:      deadlineWork, ServerWork: microWork * itemWork * 3 * 100, WorkParam: "attempts",
		Params: []Param{
			{Name: "attempts", Kind: Int, Default: "3", Min: Incl(1), Max: Incl(100), SliderMax: 10,
				Help: "attempts at most (1 first + attempts-1 retries)"},
			{Name: "timeout_ms", Kind: Float, Default: "200", Min: Excl(0), Max: Incl(1e9), Step: 10, Unit: "ms", SliderMin: 10, SliderMax: 1000,
				Help: "limit of one attempt; in the worst case every attempt runs to it and fails"},
			{Name: "waits_ms", Kind: FloatList, Default: "50,100", Min: Incl(0), Max: Incl(maxWaitMS), MinLen: 1, MaxLen: 99, Step: 10, Unit: "ms",
				Help: "waits between attempts, attempts-1 values (when not given: 50, 100, 200, … as many as needed)"},
			{Name: "deadline_ms", Kind: Float, Default: "600", Min: Excl(0), Max: Incl(1e11), Step: 10, Unit: "ms", SliderMin: 10, SliderMax: 3000,
				Help: "time budget of the whole task"},
			{Name: "min_attempt_ms", Kind: Float, Default: "0", Min: Incl(0), Max: Incl(1e9), Step: 10, Unit: "ms", SliderMax: 500,
				Help: "an attempt is not started with less time than this left (0: any time left admits it)"},
		},
		Run: func(a Args) (any, error) {
			d := retry.Deadline{
				Attempts:     a.Int("attempts"),
				TimeoutMS:    a.Float("timeout_ms"),
				DeadlineMS:   a.Float("deadline_ms"),
				MinAttemptMS: a.Float("min_attempt_ms"),
			}
			if a.Given("waits_ms") {
				d.WaitsMS = a.Floats("waits_ms")
				if len(d.WaitsMS) != d.Attempts-1 {
					return nil, Refuse(name, "waits_ms", CodeConstraint, "detail.deadline.waits",
						"must have attempts-1 = {want} values, got {got}", "want", strconv.Itoa(d.Attempts-1), "got", strconv.Itoa(len(d.WaitsMS)))
				}
			} else {
				d.WaitsMS = defaultWaits(d.Attempts - 1)
			}
			r, err := d.Run()
			if err != nil { // the declared ranges make this unreachable
				return nil, Refuse(name, "", CodeConstraint, "detail.deadline.config", "{reason}", "reason", err.Error())
			}
			return DeadlineResult{
				WorstCaseMS:              r.WorstCaseMS,
				Fits:                     r.Fits,
				RemainingBeforeAttemptMS: r.RemainingBeforeAttemptMS,
				AttemptBudgetMS:          r.AttemptBudgetMS,
				AttemptsAdmitted:         r.AttemptsAdmitted,
				WaitsMS:                  d.WaitsMS,
			}, nil
		},
	}
}
