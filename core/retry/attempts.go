// Package retry holds the counting models of article 1: expected attempts
// under independent failures, amplification through nested retrying
// layers, a shared retry budget without refill, and the deadline arithmetic
// of a task that retries. Every function is pure: no clock, no randomness.
package retry

import (
	"math"
	"strconv"
)

// ExpectedAttempts returns the expected number of attempts, and the
// probability that one of them succeeds, when each attempt fails
// independently with probability q in [0, 1] and at most n >= 1 attempts
// are made (1 first + n-1 retries); a success stops the retries.
//
// The expected count is Σ_{k=0}^{n-1} q^k (attempt k+1 happens only if the
// k before it failed: probability q^k); success is 1 - q^n. Both are
// dimensionless. For q = 1 the count is n and success 0.
func ExpectedAttempts(q float64, n int) (expected, success float64) {
	if n < 1 {
		return 0, 0
	}
	if q == 1 {
		return float64(n), 0
	}
	// Summing term by term keeps q = 0.1, n = 3 at 1.11 exactly in float64
	// representation; the closed form (1-q^n)/(1-q) loses digits near q=1.
	term := 1.0
	for k := 0; k < n; k++ {
		expected += term
		term *= q
	}
	// math.Pow with an integer exponent is repeated squaring on float64
	// multiplies (it calls math.Exp and math.Log only for a fractional
	// one), the same bits on amd64 and wasm: core/standin/fmath's golden checks it.
	return round15(expected), round15(1 - math.Pow(q, float64(n)))
}

// round15 rounds v to 15 significant digits, the precision a float64
// carries through these sums, so that binary noise does not show in the
// results: 1 - 0.9³ is 0.2709999999999999 in float64 arithmetic and 0.271
// after rounding, as the exact value is.
func round15(v float64) float64 {
	r, err := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 15, 64), 64)
	if err != nil {
		return v
	}
	return r
}
