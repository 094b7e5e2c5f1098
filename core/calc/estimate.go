package calc

import (
	"retrylab/core/limits"
	"retrylab/core/standin"
)

// EstimateResult is the result of the estimate calculator (see
// limits.Estimate).
type EstimateResult struct {
	_                      standin.NoEqual // not comparable
	EstimateBias           float64         `json:"estimate_bias"` // the parameter, for citing
	EstimatedPromptTokens  float64         `json:"estimated_prompt_tokens"`
	ReservedPerCall        float64         `json:"reserved_per_call"`
	CountedPerCall         float64         `json:"counted_per_call"`
	PossiblePerMin         float64         `json:"possible_per_min"`
	AdmittedPerMin         float64         `json:"admitted_per_min"`
	RejectedPerMin         float64         `json:"rejected_per_min"`
	UnusedShare            float64         `json:"unused_share"`
	InFlight               float64         `json:"in_flight"`
	CorrectedOverrunTokens float64         `json:"corrected_overrun_tokens"`
	CorrectedUnusedTokens  float64         `json:"corrected_unused_tokens"`
}

// estimateCalc declares the estimate calculator.
//
//retrylab:calculator article=2 order=90
func estimateCalc() *Calculator {
	return &Calculator{
		Name:     "estimate",
		Examples: []string{"estimate_bias=0", "estimate_bias=3&latency_s=0", "prompt_tokens=0&max_output_tokens=1"},
		Help:     "prompt tokens estimated before the call and corrected from usage after: what a low or high estimate costs against a token limit",
		Work:     fixedWork, ServerWork: microWork * fixedWorkBound,
		Params: []Param{
			{Name: "tpm_limit", Kind: Float, Default: "120000", Min: Incl(1), Max: Incl(1e12), Unit: "tokens/min",
				SliderMin: 10000, SliderMax: 1000000, Step: 10000, Help: "the provider's tokens per minute"},
			{Name: "prompt_tokens", Kind: Int, Default: "4000", Min: Incl(0), Max: Incl(10000000), Unit: "tokens",
				SliderMax: 50000, Step: 100, Help: "the true prompt, as the response's usage reports it"},
			{Name: "max_output_tokens", Kind: Int, Default: "1000", Min: Incl(1), Max: Incl(10000000), Unit: "tokens",
				SliderMin: 1, SliderMax: 8000, Step: 100, Help: "the max output, reserved in full and counted by the provider"},
			{Name: "estimate_bias", Kind: Float, Default: "-0.2", Min: Excl(-1), Max: Incl(3), SliderMin: -0.5, SliderMax: 0.5, Step: 0.05,
				Help: "how far the estimate is from the true prompt on average: -0.2 is 20 % low, 0 exact, 0.25 is 25 % high"},
			{Name: "latency_s", Kind: Float, Default: "20", Min: Incl(0), Max: Incl(3600), Unit: "s", SliderMax: 120, Step: 1,
				Help: "how long a call runs before its usage corrects the estimate"},
		},
		Run: func(a Args) (any, error) {
			e := limits.EstimateOf(a.Float("tpm_limit"), a.Int("prompt_tokens"), a.Int("max_output_tokens"),
				a.Float("estimate_bias"), a.Float("latency_s"))
			return EstimateResult{
				EstimateBias:          a.Float("estimate_bias"),
				EstimatedPromptTokens: e.EstimatedPrompt, ReservedPerCall: e.ReservedPerCall, CountedPerCall: e.CountedPerCall,
				PossiblePerMin: e.PossiblePerMin, AdmittedPerMin: e.AdmittedPerMin, RejectedPerMin: e.RejectedPerMin,
				UnusedShare: e.UnusedShare, InFlight: e.InFlight, CorrectedOverrunTokens: e.CorrectedOverrunTokens,
				CorrectedUnusedTokens: e.CorrectedUnusedTokens,
			}, nil
		},
	}
}
