package calc

import (
	"math"

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
	// Play holds, under Args.WithTrace only, the workload run through the
	// two buckets second by second: what the time view draws. Nil
	// otherwise, and when the trace would be too large; never part of the
	// JSON.
	Play *LimitsPlay `json:"-"`
}

// LimitsPlay is the limits calculator's workload through the two buckets
// (limits.Config.Trace): a call that would wait longer than MaxWaitS is
// refused; the trace lasts HorizonS, until a little after the first
// bucket runs dry (limitsHorizon), in steps of one second.
type LimitsPlay struct {
	HorizonS float64 // s, in [LimitsMinS, LimitsMaxS]
	MaxWaitS float64 // s
	// BurstRequests and BurstTokens are the buckets' capacities, full at
	// the start (limits.Config.Bursts).
	BurstRequests, BurstTokens int
	Steps                      []limits.Step
}

// The bounds of a LimitsPlay: its longest wait for the buckets, and its
// shortest and longest horizon, s.
const (
	LimitsMaxWaitS = 5
	LimitsMinS     = 60
	LimitsMaxS     = 600
)

// limitsHorizon is how long the trace runs, s: until 30 s after the
// sooner of the two buckets runs dry at the workload's pace (each starts
// with a minute's worth), rounded up to 10 s, within [LimitsMinS,
// LimitsMaxS]; LimitsMinS when neither runs dry.
func limitsHorizon(c limits.Config, callsPerMin, tokens float64) float64 {
	rb, tb := c.Bursts()
	dry := math.Inf(1)
	if over := callsPerMin - c.RPM; over > 0 {
		dry = float64(rb) / over * 60
	}
	if over := callsPerMin*tokens - c.TPM; over > 0 {
		dry = math.Min(dry, float64(tb)/over*60)
	}
	if math.IsInf(dry, 1) { // neither runs dry: a minute shows it
		return LimitsMinS
	}
	return math.Min(LimitsMaxS, math.Max(LimitsMinS, math.Ceil((dry+30)/10)*10))
}

// limitsPlay runs the workload of u through the buckets of c (nil when
// the trace would be too large: limits.ErrTraceTooLarge).
func limitsPlay(c limits.Config, u limits.Usage, tokens int) *LimitsPlay {
	h := limitsHorizon(c, u.RequestsPerMin, float64(tokens))
	steps, err := c.Trace(limits.Flow{CallsPerMin: u.RequestsPerMin, Tokens: tokens, HorizonS: h, MaxWaitS: LimitsMaxWaitS, Steps: int(h)})
	if err != nil {
		return nil
	}
	p := &LimitsPlay{HorizonS: h, MaxWaitS: LimitsMaxWaitS, Steps: steps}
	p.BurstRequests, p.BurstTokens = c.Bursts()
	return p
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
			var play *LimitsPlay
			if a.trace > 0 {
				play = limitsPlay(limits.Config{RPM: rpm, TPM: tpm}, u, a.Int("tokens_per_call"))
			}
			return LimitsResult{
				Play:     play,
				RPMLimit: rpm, TPMLimit: tpm,
				RequestsPerMin: u.RequestsPerMin, TokensPerMin: u.TokensPerMin,
				RPMUtilization: u.RPMUtilization, TPMUtilization: u.TPMUtilization,
				RPMOK: u.RPMOK, TPMOK: u.TPMOK, Binding: string(u.Binding),
			}, nil
		},
	}
}
