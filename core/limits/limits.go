// Package limits holds the arithmetic of provider rate limits for LLM APIs
// and a limiter that respects them: which of the request limit (RPM) and
// the token limit (TPM) a workload hits first, the throughput left when
// every request reserves its prompt plus its maximum output, how many calls
// are in flight at a given rate and latency, and [Limiter], which admits a
// call only when both a request bucket and a token bucket hold enough.
//
// Everything is pure: rates are per minute unless a name says otherwise,
// times are arguments (int64 nanoseconds since the caller's epoch), and
// nothing reads a clock. The package imports neither time nor context, so
// the browser module links it; core/ratelimit is the same Limiter for a
// real client (time.Time, context, on golang.org/x/time/rate).
package limits

import "math"

// Binding names the limit a workload or a capacity is bound by.
type Binding string

const (
	// BindingRPM: the request limit is the tighter one.
	BindingRPM Binding = "rpm"
	// BindingTPM: the token limit is the tighter one.
	BindingTPM Binding = "tpm"
	// BindingBoth: both limits are equally tight.
	BindingBoth Binding = "both"
	// BindingNone: no limit applies (a capacity with neither limit set).
	BindingNone Binding = "none"
)

// Usage is how much of a provider's limits a steady workload uses.
type Usage struct {
	RequestsPerMin float64 // calls per minute sent
	TokensPerMin   float64 // tokens per minute sent (calls × tokens per call)
	RPMUtilization float64 // RequestsPerMin / RPM limit: 1 is exactly at the limit
	TPMUtilization float64 // TokensPerMin / TPM limit
	RPMOK, TPMOK   bool    // utilization <= 1
	Binding        Binding // the limit with the higher utilization (BindingBoth on a tie)
}

// Check compares a workload of callsPerMin calls per minute, each of
// tokensPerCall tokens (prompt + output as the provider counts them), with
// an RPM limit rpm and a TPM limit tpm, both > 0. Utilizations are
// dimensionless ratios in [0, +Inf).
//
// The article's workloads against 600 RPM and 300,000 TPM: A, 1,000 calls
// of 200 tokens, uses 1.67 of the RPM and 0.67 of the TPM, so it fails on
// RPM; B, 100 calls of 5,000 tokens, uses 0.17 and 1.67: it fails on TPM.
func Check(rpm, tpm, callsPerMin, tokensPerCall float64) Usage {
	u := Usage{RequestsPerMin: callsPerMin, TokensPerMin: callsPerMin * tokensPerCall}
	u.RPMUtilization = u.RequestsPerMin / rpm
	u.TPMUtilization = u.TokensPerMin / tpm
	u.RPMOK = u.RPMUtilization <= 1
	u.TPMOK = u.TPMUtilization <= 1
	switch {
	case u.RPMUtilization > u.TPMUtilization:
		u.Binding = BindingRPM
	case u.TPMUtilization > u.RPMUtilization:
		u.Binding = BindingTPM
	default:
		u.Binding = BindingBoth
	}
	return u
}

// Capacity is the most a provider admits when each request reserves a fixed
// number of tokens.
type Capacity struct {
	ReservedTokens         int     // prompt + max output: what one request reserves
	RequestsPerMin         float64 // min(TPM / reserved, RPM): +Inf when neither limit is set
	WholeRequestsPerMin    int     // floor(RequestsPerMin): whole requests in one minute (capped at MaxInt32 when unbounded)
	SecondsBetweenRequests float64 // 60 / RequestsPerMin: the mean spacing, s (0 when unbounded)
	TPMRequestsPerMin      float64 // TPM / reserved (+Inf when tpm is 0)
	Binding                Binding // which limit sets RequestsPerMin
}

// CapacityOf returns the throughput of requests that each reserve
// promptTokens + maxOutputTokens tokens (both >= 0) against a TPM limit tpm
// and an RPM limit rpm; a limit of 0 means none. Reserving the upper bound
// of the output, not its expected value, is what keeps the token bucket
// from being overdrawn when a response is long.
//
// The article's figure: 120,000 TPM, 4,000 + 1,000 tokens: 5,000 reserved,
// 24 requests a minute, one every 2.5 s.
func CapacityOf(tpm, rpm float64, promptTokens, maxOutputTokens int) Capacity {
	c := Capacity{ReservedTokens: promptTokens + maxOutputTokens}
	c.TPMRequestsPerMin = math.Inf(1)
	if tpm > 0 && c.ReservedTokens > 0 {
		c.TPMRequestsPerMin = tpm / float64(c.ReservedTokens)
	}
	rpmCap := math.Inf(1)
	if rpm > 0 {
		rpmCap = rpm
	}
	c.RequestsPerMin = math.Min(c.TPMRequestsPerMin, rpmCap)
	switch {
	case math.IsInf(c.RequestsPerMin, 1):
		c.Binding = BindingNone
	case c.TPMRequestsPerMin < rpmCap:
		c.Binding = BindingTPM
	case rpmCap < c.TPMRequestsPerMin:
		c.Binding = BindingRPM
	default:
		c.Binding = BindingBoth
	}
	if math.IsInf(c.RequestsPerMin, 1) {
		c.WholeRequestsPerMin = math.MaxInt32
		return c
	}
	c.WholeRequestsPerMin = int(math.Floor(c.RequestsPerMin))
	if c.RequestsPerMin > 0 {
		c.SecondsBetweenRequests = 60 / c.RequestsPerMin
	}
	return c
}

// Flight is what a request rate and a latency put in flight.
type Flight struct {
	InFlight         float64 // rpm/60 × latency: calls in flight when nothing caps them (Little's law)
	InFlightCapped   float64 // min(InFlight, cap) when a cap is set, else InFlight
	ThroughputPerMin float64 // min(rpm, cap × 60 / latency): calls completed per minute
	CapThroughput    float64 // cap × 60 / latency, the most the cap lets through per minute (+Inf without cap)
	LimitedBy        string  // "rate" or "concurrency": which of the two sets the throughput
}

// InFlight returns the calls in flight when calls start at rpm per minute
// (>= 0) and each lasts latency seconds (> 0), and what a concurrency cap
// maxConcurrency (0: none) does to it: a cap below rpm/60 × latency lowers
// the throughput to maxConcurrency / latency calls per second.
//
// The article's figure: 60 RPM at 20 s is 20 calls in flight; the same 60
// RPM at 90 s is 90.
func InFlight(rpm, latency float64, maxConcurrency int) Flight {
	f := Flight{InFlight: rpm / 60 * latency, ThroughputPerMin: rpm, CapThroughput: math.Inf(1), LimitedBy: "rate"}
	f.InFlightCapped = f.InFlight
	if maxConcurrency > 0 {
		f.CapThroughput = float64(maxConcurrency) * 60 / latency
		if f.CapThroughput < rpm {
			f.ThroughputPerMin = f.CapThroughput
			f.InFlightCapped = float64(maxConcurrency)
			f.LimitedBy = "concurrency"
		}
	}
	return f
}
