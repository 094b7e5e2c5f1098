package limits

import "math"

// Estimate is the effect of estimating prompt tokens before a call, at
// full speed against a token limit, when the limiter reserves the
// estimated prompt plus the max output and the provider counts the true
// prompt plus the max output (as providers that count max_tokens at
// admission do). Without correction the limiter keeps counting its
// estimates; with correction it replaces each call's estimate by the
// prompt the response's usage reports, so only the calls still in flight
// carry an uncorrected estimate.
//
// Rates are per minute, sizes in tokens, LatencyS in seconds.
type Estimate struct {
	EstimatedPrompt float64 // tokens the limiter reserves for the prompt, on average
	ReservedPerCall float64 // EstimatedPrompt + max output
	CountedPerCall  float64 // the true prompt + max output: what the provider counts
	// PossiblePerMin is TPM / CountedPerCall: the calls the provider
	// admits a minute.
	PossiblePerMin float64
	// AdmittedPerMin is TPM / ReservedPerCall: the calls the limiter lets
	// through a minute without correction.
	AdmittedPerMin float64
	// RejectedPerMin is what the limiter admits beyond what the provider
	// allows: 429s every minute (0 when the estimate is not low).
	RejectedPerMin float64
	// UnusedShare is the share of the token limit left idle by an
	// estimate that is too high (0 when it is not high).
	UnusedShare float64
	// InFlight is the calls running at once at the possible rate
	// (PossiblePerMin/60 × LatencyS, Little's law); with correction only
	// they carry the estimate, so CorrectedOverrunTokens =
	// InFlight × max(0, CountedPerCall - ReservedPerCall) is the most the
	// limiter can be behind the provider, and CorrectedUnusedTokens the
	// most it holds back.
	InFlight               float64
	CorrectedOverrunTokens float64
	CorrectedUnusedTokens  float64
}

// EstimateOf computes Estimate for a token limit tpm > 0, a mean prompt
// of prompt >= 0 tokens, a max output of maxOutput >= 1, an estimate that
// is (1 + bias) times the true prompt on average (bias > -1: -0.2 is 20 %
// low), and a latency of latencyS >= 0 s.
func EstimateOf(tpm float64, prompt, maxOutput int, bias, latencyS float64) Estimate {
	p, m := float64(prompt), float64(maxOutput)
	var e Estimate
	e.EstimatedPrompt = math.Round(p * (1 + bias))
	e.ReservedPerCall = e.EstimatedPrompt + m
	e.CountedPerCall = p + m
	e.PossiblePerMin = tpm / e.CountedPerCall
	e.AdmittedPerMin = tpm / e.ReservedPerCall
	e.RejectedPerMin = math.Max(0, e.AdmittedPerMin-e.PossiblePerMin)
	e.UnusedShare = math.Max(0, 1-e.CountedPerCall/e.ReservedPerCall)
	e.InFlight = e.PossiblePerMin / 60 * latencyS
	e.CorrectedOverrunTokens = e.InFlight * math.Max(0, e.CountedPerCall-e.ReservedPerCall)
	e.CorrectedUnusedTokens = e.InFlight * math.Max(0, e.ReservedPerCall-e.CountedPerCall)
	return e
}
