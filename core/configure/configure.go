// Package configure answers "which numbers do I put in my retry
// configuration?": from a reader's traffic (requests per second, clients,
// latency, per-attempt timeout, capacity headroom) and the extra load they
// accept during an outage (the largest amplification, attempts sent per
// request), it chooses, for each of several real systems, the parameters
// that keep the load within that limit, states the bound those parameters
// guarantee in closed form, runs a small seeded simulation of the same
// client with them, and writes the configuration to paste.
//
// The model (one client process holds each budget, as every one of these
// systems keeps its budget per channel, cluster, client or SDK client):
//
//   - the reader's traffic is spread evenly over Clients processes; each
//     sends new requests at the deterministic rate R = RPS/Clients (one
//     every 1/R seconds), whatever the answers (open loop);
//   - an attempt that succeeds takes LatencyMS; one that fails takes
//     TimeoutMS (the outage is a slow or silent server and every failure is
//     a timeout that the system treats as retryable);
//   - a failed attempt is retried at once (no backoff: the worst case for
//     the bounds below that depend on timing; those that do not hold for
//     any waits);
//   - before the outage a warm-up of healthy traffic fills every budget and
//     window as it would be in production; the outage starts at time 0 and
//     the requests counted are those that arrive in [0, OutageS).
//
// Amplification is attempts sent to the server per counted request. Two
// bounds are given per system: Outage, at 100 % failure over the outage
// (an upper bound that holds for every run of the model, and that the
// simulation is tested against), and Rate, the long-run amplification at
// failure probability FailureRate per attempt (an upper bound on the
// expected value as the number of requests grows; the tests check the
// pathwise inequalities it comes from).
//
// The package is pure: no clock, no I/O; randomness is a seed.
package configure

import (
	"math"
	"strconv"
)

// Traffic is the reader's traffic and what they accept.
type Traffic struct {
	RPS         float64 // new requests per second over all clients, > 0
	Clients     int     // client processes, each with its own budget, >= 1
	LatencyMS   float64 // duration of an attempt that succeeds, ms, > 0
	TimeoutMS   float64 // per-attempt timeout: duration of an attempt that fails, ms, > 0
	Headroom    float64 // capacity / normal load of the server, >= 1
	MaxAmp      float64 // accepted amplification during an outage, >= 1 (1.1: 10 % extra load)
	FailureRate float64 // the failure probability per attempt of the Rate bound, in [0, 1)
	Attempts    int     // attempts per request the reader wants at most (first included), 1..10
	OutageS     float64 // length of the outage the Outage bound covers, s, > 0
}

// Default is the calculator's default traffic.
func Default() Traffic {
	return Traffic{RPS: 1000, Clients: 20, LatencyMS: 50, TimeoutMS: 1000, Headroom: 1.5, MaxAmp: 1.1,
		FailureRate: 0.05, Attempts: 3, OutageS: 30}
}

// System names one configuration this package writes.
type System string

const (
	GRPC         System = "grpc"         // gRPC retry policy + retry throttling (gRFC A6, grpc-go)
	Envoy        System = "envoy"        // Envoy route retry_policy + cluster retry_budget
	Finagle      System = "finagle"      // Finagle RetryBudget on a MethodBuilder
	AWSStandard  System = "aws-standard" // AWS SDK retry_mode=standard (2026 costs, aws-sdk-go-v2)
	AWSAdaptive  System = "aws-adaptive" // AWS SDK retry_mode=adaptive
	Resilience4j System = "resilience4j" // resilience4j Retry + CircuitBreaker
	Polly        System = "polly"        // Polly v8 retry + circuit breaker
	Tenacity     System = "tenacity"     // Python tenacity
)

// Systems returns every system, in the order the result lists them.
func Systems() []System {
	return []System{GRPC, Envoy, Finagle, AWSStandard, AWSAdaptive, Resilience4j, Polly, Tenacity}
}

// Valid reports whether s is one of Systems.
func (s System) Valid() bool {
	for _, t := range Systems() {
		if s == t {
			return true
		}
	}
	return false
}

// Setting is one configured parameter: its name in the system's own
// configuration and its value as the snippet writes it.
type Setting struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Plan is the answer for one system.
type Plan struct {
	System   System    `json:"system"`
	Settings []Setting `json:"settings"`
	// OutageBound is the largest amplification at 100 % failure over the
	// outage; Exact says whether some run of the model attains it.
	OutageBound float64 `json:"outage_bound"`
	Exact       bool    `json:"exact"`
	// RateBound is the long-run amplification bound at FailureRate.
	RateBound float64 `json:"rate_bound"`
	// The simulation with these settings.
	SimOutage float64 `json:"sim_outage"`
	SimRate   float64 `json:"sim_rate"`
	// Meets: both bounds are within MaxAmp.
	Meets bool `json:"meets"`
	// Fits: the outage bound is within Headroom (the server keeps up).
	Fits bool `json:"fits"`
	// Formula is the closed form of the outage bound, in the notation of
	// methods.md.
	Formula  string `json:"formula"`
	Lang     string `json:"lang"` // the snippet's language: json, yaml, scala, ini, go, csharp, python
	Snippet  string `json:"snippet"`
	Snippet2 string `json:"snippet2,omitempty"` // a second file: Envoy's cluster, the go-v2 options
	Lang2    string `json:"lang2,omitempty"`
}

// Derived are the model's quantities every plan uses.
type Derived struct {
	PerClientRPS float64 // R = RPS / Clients
	Requests     float64 // N = R × OutageS, the counted requests of one client (as a real)
	FailS        float64 // d = TimeoutMS / 1000
	OKS          float64 // min(LatencyMS, TimeoutMS) / 1000
	// Warm is the most healthy attempts still in flight when the outage
	// starts, floor(R × OKS) + 1: their successes come after it and refill
	// the token buckets (and the breakers' windows).
	SpanS float64 // OutageS + (Attempts-1) × d: the last moment a counted request may start an attempt
	Warm  float64
}

func derive(t Traffic) Derived {
	r := t.RPS / float64(t.Clients)
	d := t.TimeoutMS / 1000
	// An attempt slower than the timeout is a timeout: a success takes
	// at most TimeoutMS.
	ok := math.Min(t.LatencyMS, t.TimeoutMS) / 1000
	return Derived{PerClientRPS: r, Requests: counted(r, t.OutageS), FailS: d, OKS: ok,
		SpanS: t.OutageS + float64(t.Attempts-1)*d, Warm: math.Floor(r*ok) + 1}
}

// counted is the number of deterministic arrivals at k/r, k >= 0, in
// [0, s): ceil(r·s), the requests the simulation counts.
func counted(r, s float64) float64 {
	n := math.Ceil(r*s - 1e-9)
	if n < 1 {
		n = 1
	}
	return n
}

// retryShare returns g_n(f) = f + f² + … + f^(n-1): the expected retries
// of a request that makes up to n attempts, each failing with probability
// f independently, when nothing else limits them.
func retryShare(f float64, n int) float64 {
	s, p := 0.0, 1.0
	for k := 1; k < n; k++ {
		p *= f
		s += p
	}
	return s
}

// FieldError is a Traffic field out of range.
type FieldError struct {
	Field string
	Msg   string
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Msg }

// Validate checks t's ranges and the simulation's size.
func (t Traffic) Validate() error {
	switch {
	case !(t.RPS > 0):
		return &FieldError{"RPS", "must be > 0"}
	case t.Clients < 1:
		return &FieldError{"Clients", "must be >= 1"}
	case !(t.LatencyMS > 0):
		return &FieldError{"LatencyMS", "must be > 0"}
	case !(t.TimeoutMS > 0):
		return &FieldError{"TimeoutMS", "must be > 0"}
	case !(t.Headroom >= 1):
		return &FieldError{"Headroom", "must be >= 1"}
	case !(t.MaxAmp >= 1):
		return &FieldError{"MaxAmp", "must be >= 1"}
	case !(t.FailureRate >= 0 && t.FailureRate < 1):
		return &FieldError{"FailureRate", "must be in [0, 1)"}
	case t.Attempts < 1 || t.Attempts > 10:
		return &FieldError{"Attempts", "must be in [1, 10]"}
	case !(t.OutageS > 0):
		return &FieldError{"OutageS", "must be > 0"}
	}
	if w := SimRequests(t); w > MaxSimRequests {
		return &FieldError{"RPS", "one client's simulation would send about " + strconv.Itoa(int(w)) +
			" requests per system; at most " + strconv.Itoa(MaxSimRequests) + " (fewer requests per client, or a shorter outage)"}
	}
	return nil
}

// MaxSimRequests bounds the requests of one simulated run (per system,
// per run; there are two runs per system).
const MaxSimRequests = 150_000

// SimRequests returns the requests of the longest simulated run of t:
// warm-up and outage at the rate of one client.
func SimRequests(t Traffic) float64 {
	r := t.RPS / float64(t.Clients)
	return math.Ceil(r*(WarmupS+t.OutageS+t.LatencyMS/1000)) + 110
}

// SimWork returns the attempts t's simulations may send at most: two runs
// per system, each of its warm-up and the outage, every request making
// up to Attempts attempts. The calculator's work bound counts it.
func SimWork(t Traffic) float64 {
	r := t.RPS / float64(t.Clients)
	w := 0.0
	for _, s := range Systems() {
		w += 2 * math.Ceil(r*(warmup(s, r, t.LatencyMS/1000)+t.OutageS)) * float64(t.Attempts)
	}
	return w
}

// WarmupS is the longest healthy warm-up before the outage: long enough to
// fill the longest window of any system here (Polly's 30 s sampling
// duration).
const WarmupS = 40.0

// warmup is system s's healthy warm-up at r requests per second: what
// fills its windows. The token buckets (gRPC, AWS) are full without one,
// Envoy's budget and tenacity keep no history; one second lets the healthy
// attempts be in flight when the outage starts.
func warmup(s System, r, ok float64) float64 {
	switch s {
	case Finagle:
		return 11 // ttl 10 s
	case Resilience4j:
		return math.Max(1, 110/r+ok) // the count window's 100 calls, recorded before the outage
	case Polly:
		return WarmupS
	}
	return 1
}
