package calc

import (
	"retrylab/core/dispatch"
	"retrylab/core/policies"
)

// PoliciesTrace runs the policies named (a subset of the result's, by
// name) on the outage of a policies calculator's arguments, with their
// traces (policies.RunTraced): what the request-flow view draws. Each
// Result equals the calculator's run of that policy: every policy sees
// the same seeded arrivals, whichever others run beside it. a must be
// arguments the calculator accepted (its Run has bounded the work).
func PoliciesTrace(a Args, names []string, maxMarks int) ([]policies.Result, []policies.Trace, error) {
	ps := make([]policies.Policy, len(names))
	for i, n := range names {
		ps[i] = policies.Policy(n)
	}
	return policies.RunTraced(policiesScenario(a), ps, uint64(a.Int("seed")), maxMarks)
}

// DispatchTrace runs the dispatch calculator's simulation of arguments a
// in mode (naive or dispatcher, whatever a's own mode), with the trace of
// at most maxJobs jobs (dispatch.RunTraced): what the request-flow view
// draws. a must be arguments the calculator accepted.
func DispatchTrace(a Args, mode string, maxJobs int) (dispatch.Result, dispatch.Trace, error) {
	c := dispatchConfig(a)
	c.Mode = dispatch.Mode(mode)
	return dispatch.RunTraced(c, dispatchRand(a), maxJobs)
}
