package calc

import (
	"math"
	"retrylab/core/standin"
	"strconv"

	"retrylab/core/limits"
)

// CapacityResult is the result of the capacity calculator.
type CapacityResult struct {
	_                        standin.NoEqual // not comparable
	ReservedTokensPerRequest int             `json:"reserved_tokens_per_request"`
	RequestsPerMin           float64         `json:"requests_per_min"`
	WholeRequestsPerMin      int             `json:"whole_requests_per_min"`
	SecondsBetweenRequests   float64         `json:"seconds_between_requests"`
	TPMRequestsPerMin        float64         `json:"tpm_requests_per_min"` // what the token limit alone allows
	Binding                  string          `json:"binding"`              // tpm, rpm or both
	// BurstTokens is the token bucket's capacity, burst_s seconds of
	// tpm_limit (a minute's worth by default); BurstRequests the request
	// bucket's (0 without rpm_limit).
	BurstTokens   int `json:"burst_tokens"`
	BurstRequests int `json:"burst_requests"`
	// FirstMinuteRequests is the most requests the buckets admit in the
	// first minute, starting full: the bursts plus one minute of refill,
	// in whole requests. With the default burst it is about twice
	// whole_requests_per_min; later minutes get the steady rate.
	FirstMinuteRequests int `json:"first_minute_requests"`
}

// capacityCalc declares the capacity calculator.
//
//retrylab:calculator article=2 order=20
func capacityCalc() *Calculator {
	return &Calculator{
		Name:     "capacity",
		Examples: []string{"rpm_limit=1", "prompt_tokens=0&max_output_tokens=1", "tpm_limit=1000000000000"},
		Help:     "requests per minute when each request reserves prompt + max output tokens",
		Work:     fixedWork, ServerWork: microWork * fixedWorkBound,
		Params: []Param{
			{Name: "tpm_limit", Kind: Float, Default: "120000", Min: Incl(1), Max: Incl(1e12), Unit: "tokens/min",
				SliderMin: 10000, SliderMax: 1000000, Step: 10000, Help: "the provider's tokens per minute"},
			{Name: "prompt_tokens", Kind: Int, Default: "4000", Min: Incl(0), Max: Incl(10000000), Unit: "tokens",
				SliderMax: 50000, Step: 100, Help: "estimated prompt tokens of one request"},
			{Name: "max_output_tokens", Kind: Int, Default: "1000", Min: Incl(1), Max: Incl(10000000), Unit: "tokens",
				SliderMin: 1, SliderMax: 8000, Step: 100, Help: "the request's max output tokens, reserved in full"},
			{Name: "rpm_limit", Kind: Float, Default: "0", Min: Incl(0), Max: Incl(1e9), Unit: "1/min",
				SliderMax: 600, Step: 1, Help: "the provider's requests per minute (0: no request limit)"},
			{Name: "burst_s", Kind: Float, Default: "60", Min: Excl(0), Max: Incl(3600), Unit: "s", SliderMin: 1, SliderMax: 120, Step: 1,
				Help: "seconds of rate the limiter's buckets hold (60: a minute's worth); from full they admit the burst plus a minute of refill in the first minute"},
		},
		Run: func(a Args) (any, error) {
			tpm, rpm, b := a.Float("tpm_limit"), a.Float("rpm_limit"), a.Float("burst_s")
			c := limits.CapacityOf(tpm, rpm, a.Int("prompt_tokens"), a.Int("max_output_tokens"))
			out := CapacityResult{
				ReservedTokensPerRequest: c.ReservedTokens,
				RequestsPerMin:           c.RequestsPerMin,
				WholeRequestsPerMin:      c.WholeRequestsPerMin,
				SecondsBetweenRequests:   c.SecondsBetweenRequests,
				TPMRequestsPerMin:        c.TPMRequestsPerMin,
				Binding:                  string(c.Binding),
				BurstTokens:              limits.BurstFor(tpm, b),
			}
			if out.BurstTokens < c.ReservedTokens {
				return nil, Refuse("capacity", "burst_s", CodeConstraint, "detail.capacity.burst",
					"a token bucket of {burst} tokens cannot hold one request of {reserved} tokens: no request would ever be admitted",
					"burst", strconv.Itoa(out.BurstTokens), "reserved", strconv.Itoa(c.ReservedTokens))
			}
			first := math.Inf(1)
			if c.ReservedTokens > 0 {
				first = math.Floor((float64(out.BurstTokens) + tpm) / float64(c.ReservedTokens))
			}
			if rpm > 0 {
				out.BurstRequests = limits.BurstFor(rpm, b)
				first = math.Min(first, math.Floor(float64(out.BurstRequests)+rpm))
			}
			out.FirstMinuteRequests = int(math.Min(first, math.MaxInt32))
			return out, nil
		},
	}
}
