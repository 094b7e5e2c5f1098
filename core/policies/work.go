package policies

// MaxAttempts returns the most attempts one request makes under policy p
// (the first included), attempts being the Scenario's (naive and backoff
// take it; the others keep their systems' own): what a bound on a run's
// work multiplies the requests by.
func (p Policy) MaxAttempts(attempts int) int {
	q, ok := Find(p)
	if !ok {
		return attempts
	}
	r := newRule(q, attempts)
	return r.max()
}
