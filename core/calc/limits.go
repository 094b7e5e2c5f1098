package calc

import (
	"retrylab/core/limits"
	"retrylab/core/standin"
)

// LimitsResult is the result of the limits calculator.
type LimitsResult struct {
	_              standin.NoEqual // not comparable
	RPMLimit       float64         `json:"rpm_limit"`
	TPMLimit       float64         `json:"tpm_limit"`
	RequestsPerMin float64         `json:"requests_per_min"`
	TokensPerMin   float64         `json:"tokens_per_min"`
	RPMUtilization float64         `json:"rpm_utilization"`
	TPMUtilization float64         `json:"tpm_utilization"`
	RPMOK          bool            `json:"rpm_ok"`
	TPMOK          bool            `json:"tpm_ok"`
	Binding        string          `json:"binding"` // rpm, tpm or both: the higher utilization
}

// limitsCalc declares the limits calculator.
//
//retrylab:calculator article=2 order=10
func limitsCalc() *Calculator {
	return &Calculator{
		Name:     "limits",
		Examples: []string{"calls_per_min=0", "tokens_per_call=1"},
		Help:     "which of the request limit (RPM) and the token limit (TPM) a workload hits first",
		Work:     fixedWork, ServerWork: microWork * fixedWorkBound,
		Params: []Param{
			{Name: "rpm_limit", Kind: Float, Default: "600", Min: Incl(0.001), Max: Incl(1e9), Unit: "1/min",
				SliderMin: 10, SliderMax: 2000, Step: 10, Help: "the provider's requests per minute"},
			{Name: "tpm_limit", Kind: Float, Default: "300000", Min: Incl(1), Max: Incl(1e12), Unit: "tokens/min",
				SliderMin: 10000, SliderMax: 1000000, Step: 10000, Help: "the provider's tokens per minute"},
			{Name: "calls_per_min", Kind: Float, Default: "1000", Min: Incl(0), Max: Incl(1e9), Unit: "1/min",
				SliderMax: 2000, Step: 10, Help: "calls the workload sends per minute"},
			{Name: "tokens_per_call", Kind: Int, Default: "200", Min: Incl(0), Max: Incl(10000000), Unit: "tokens",
				SliderMax: 10000, Step: 100, Help: "tokens of one call (prompt + output)"},
		},
		Run: func(a Args) (any, error) {
			rpm, tpm := a.Float("rpm_limit"), a.Float("tpm_limit")
			u := limits.Check(rpm, tpm, a.Float("calls_per_min"), float64(a.Int("tokens_per_call")))
			return LimitsResult{
				RPMLimit: rpm, TPMLimit: tpm,
				RequestsPerMin: u.RequestsPerMin, TokensPerMin: u.TokensPerMin,
				RPMUtilization: u.RPMUtilization, TPMUtilization: u.TPMUtilization,
				RPMOK: u.RPMOK, TPMOK: u.TPMOK, Binding: string(u.Binding),
			}, nil
		},
	}
}
