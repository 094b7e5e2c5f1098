package calc

import "retrylab/core/limits"

// CapacityResult is the result of the capacity calculator.
type CapacityResult struct {
	ReservedTokensPerRequest int     `json:"reserved_tokens_per_request"`
	RequestsPerMin           float64 `json:"requests_per_min"`
	WholeRequestsPerMin      int     `json:"whole_requests_per_min"`
	SecondsBetweenRequests   float64 `json:"seconds_between_requests"`
	TPMRequestsPerMin        float64 `json:"tpm_requests_per_min"` // what the token limit alone allows
	Binding                  string  `json:"binding"`              // tpm, rpm or both
}

func capacityCalc() *Calculator {
	return &Calculator{
		Name: "capacity",
		Help: "requests per minute when each request reserves prompt + max output tokens",
		Params: []Param{
			{Name: "tpm_limit", Kind: Float, Default: "120000", Min: Incl(1), Max: Incl(1e12), Unit: "tokens/min",
				SliderMin: 10000, SliderMax: 1000000, Step: 10000, Help: "the provider's tokens per minute"},
			{Name: "prompt_tokens", Kind: Int, Default: "4000", Min: Incl(0), Max: Incl(10000000), Unit: "tokens",
				SliderMax: 50000, Step: 100, Help: "estimated prompt tokens of one request"},
			{Name: "max_output_tokens", Kind: Int, Default: "1000", Min: Incl(1), Max: Incl(10000000), Unit: "tokens",
				SliderMin: 1, SliderMax: 8000, Step: 100, Help: "the request's max output tokens, reserved in full"},
			{Name: "rpm_limit", Kind: Float, Default: "0", Min: Incl(0), Max: Incl(1e9), Unit: "1/min",
				SliderMax: 600, Step: 1, Help: "the provider's requests per minute (0: no request limit)"},
		},
		Run: func(a Args) (any, error) {
			c := limits.CapacityOf(a.Float("tpm_limit"), a.Float("rpm_limit"), a.Int("prompt_tokens"), a.Int("max_output_tokens"))
			return CapacityResult{
				ReservedTokensPerRequest: c.ReservedTokens,
				RequestsPerMin:           c.RequestsPerMin,
				WholeRequestsPerMin:      c.WholeRequestsPerMin,
				SecondsBetweenRequests:   c.SecondsBetweenRequests,
				TPMRequestsPerMin:        c.TPMRequestsPerMin,
				Binding:                  string(c.Binding),
			}, nil
		},
	}
}
