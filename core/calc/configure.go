package calc

import (
	"math"
	"strconv"

	"retrylab/core/configure"
	"retrylab/core/standin"
)

// ConfigureResult is the result of the configure calculator: the
// parameters of every system for the reader's traffic (core/configure),
// with the chosen system's plan in the top-level fields for the article's
// citations ({=configure.outage_bound}) and the widget's snippet; the
// lists system … meets hold one value per system, in systems' order.
type ConfigureResult struct {
	_             standin.NoEqual // not comparable
	System        string          `json:"system"`
	PerClientRPS  float64         `json:"per_client_rps"`  // R = rps / clients
	Requests      float64         `json:"requests"`        // N: one client's requests during the outage
	ExtraAttempts float64         `json:"extra_attempts"`  // (max_amplification - 1) × N
	Settings      []Setting       `json:"settings"`        // the chosen system's parameters
	OutageBound   float64         `json:"outage_bound"`    // amplification bound at 100 % failure over the outage
	Exact         bool            `json:"exact"`           // some run of the model attains OutageBound
	RateBound     float64         `json:"rate_bound"`      // long-run bound at failure_rate
	SimOutage     float64         `json:"sim_outage"`      // simulated, 100 % failure
	SimRate       float64         `json:"sim_rate"`        // simulated, failure_rate
	Meets         bool            `json:"meets"`           // both bounds within max_amplification
	Fits          bool            `json:"fits"`            // outage bound within headroom
	Formula       string          `json:"formula"`         // the outage bound's closed form
	Lang          string          `json:"lang"`            // the snippet's language
	Snippet       string          `json:"snippet"`         // the configuration to paste
	Lang2         string          `json:"lang2,omitempty"` // a second file's language
	Snippet2      string          `json:"snippet2,omitempty"`
	Systems       []string        `json:"systems"`
	OutageBounds  []float64       `json:"outage_bounds"`
	RateBounds    []float64       `json:"rate_bounds"`
	SimOutages    []float64       `json:"sim_outages"`
	SimRates      []float64       `json:"sim_rates"`
	MeetsAll      []bool          `json:"meets_all"`
}

// Setting is one parameter of a system's configuration.
type Setting struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

func configureTraffic(a Args) configure.Traffic {
	return configure.Traffic{RPS: a.Float("rps"), Clients: a.Int("clients"), LatencyMS: a.Float("latency_ms"),
		TimeoutMS: a.Float("timeout_ms"), Headroom: a.Float("headroom"), MaxAmp: a.Float("max_amplification"),
		FailureRate: a.Float("failure_rate"), Attempts: a.Int("attempts"), OutageS: a.Float("outage_s")}
}

// configureWork is the attempts the simulations may send: two runs of one
// client per system.
func configureWork(a Args) float64 { return configure.SimWork(configureTraffic(a)) }

// configureCalc declares the configure calculator.
//
//retrylab:calculator article=3 order=20
func configureCalc() *Calculator {
	const name = "configure"
	d := configure.Default()
	f := FormatFloat
	i := strconv.Itoa
	var systems []string
	for _, s := range configure.Systems() {
		systems = append(systems, string(s))
	}
	return &Calculator{
		Name:        name,
		Examples:    []string{"system=envoy&rps=50&clients=5&outage_s=10", "system=aws-adaptive&attempts=1", "system=polly&max_amplification=2&failure_rate=0.5"},
		Help:        "the retry parameters of gRPC, Envoy, Finagle, the AWS SDKs, resilience4j, Polly and tenacity for your traffic and the extra load you accept in an outage, with their bounds and the configuration to paste",
		Essential:   []string{"system", "rps", "clients", "max_amplification"},
		StoryFields: []string{"meets", "fits", "per_client_rps", "extra_attempts"},
		Params: []Param{
			{Name: "system", Kind: Choice, Default: string(configure.GRPC), Choices: systems,
				Help: "the system whose parameters, bounds and configuration the result shows first (every system is in the lists)"},
			{Name: "rps", Kind: Float, Default: f(d.RPS), Min: Excl(0), Max: Incl(1e6), Unit: "1/s",
				SliderMin: 1, SliderMax: 5000, Step: 1, Help: "new requests per second over all clients"},
			{Name: "clients", Kind: Int, Default: i(d.Clients), Min: Incl(1), Max: Incl(100000), SliderMax: 200,
				Help: "client processes (channels, sidecars, SDK clients), each with its own budget"},
			{Name: "latency_ms", Kind: Float, Default: f(d.LatencyMS), Min: Incl(0.001), Max: Incl(600000), Unit: "ms",
				SliderMin: 1, SliderMax: 2000, Step: 1, Help: "how long an attempt that succeeds takes"},
			{Name: "timeout_ms", Kind: Float, Default: f(d.TimeoutMS), Min: Incl(0.001), Max: Incl(600000), Unit: "ms",
				SliderMin: 10, SliderMax: 10000, Step: 10, Help: "per-attempt timeout: how long an attempt that fails takes"},
			{Name: "headroom", Kind: Float, Default: f(d.Headroom), Min: Incl(1), Max: Incl(100), SliderMax: 5, Step: 0.05,
				Help: "server capacity divided by its normal load"},
			{Name: "max_amplification", Kind: Float, Default: f(d.MaxAmp), Min: Incl(1), Max: Incl(10), SliderMax: 3, Step: 0.01,
				Help: "attempts per request you accept during an outage (1.1: 10 % extra load)"},
			{Name: "failure_rate", Kind: Float, Default: f(d.FailureRate), Min: Incl(0), Max: Excl(1), SliderMax: 0.99, Step: 0.01,
				Help: "failure probability per attempt of the long-run bound"},
			{Name: "attempts", Kind: Int, Default: i(d.Attempts), Min: Incl(1), Max: Incl(10),
				Help: "attempts per request you want at most, the first included"},
			{Name: "outage_s", Kind: Float, Default: f(d.OutageS), Min: Incl(0.1), Max: Incl(86400), Unit: "s",
				SliderMin: 1, SliderMax: 600, Step: 1, Help: "how long the outage lasts"},
			{Name: "seed", Kind: Int, Default: "20261017", Min: Incl(0), Max: Incl(1 << 53),
				Help: "seed of the simulation's failures (math/rand/v2 PCG)"},
		},
		Work: configureWork, ServerWork: 150_000, WorkParam: "rps",
		Run: func(a Args) (any, error) {
			t := configureTraffic(a)
			// The work bound: one simulated run's requests (core/configure
			// refuses the same values; the message here is translated).
			if w := configure.SimRequests(t); w > configure.MaxSimRequests {
				return nil, Refuse(name, "rps", CodeWork, "detail.configure.requests",
					"one client's simulation would send about {got} requests; at most {max} (fewer requests per client, or a shorter outage)",
					"got", i(int(w)), "max", i(configure.MaxSimRequests))
			}
			res, err := configure.Compute(t, uint64(a.Int("seed")))
			if err != nil {
				// every field of Traffic is in its parameter's declared
				// range here: core/configure refuses nothing else
				return nil, err
			}
			sys := configure.System(a.String("system"))
			out := ConfigureResult{System: string(sys), PerClientRPS: res.Derived.PerClientRPS, Requests: res.Derived.Requests,
				ExtraAttempts: math.Round((t.MaxAmp-1)*res.Derived.Requests*1e6) / 1e6}
			for _, p := range res.Plans {
				out.Systems = append(out.Systems, string(p.System))
				out.OutageBounds = append(out.OutageBounds, p.OutageBound)
				out.RateBounds = append(out.RateBounds, p.RateBound)
				out.SimOutages = append(out.SimOutages, p.SimOutage)
				out.SimRates = append(out.SimRates, p.SimRate)
				out.MeetsAll = append(out.MeetsAll, p.Meets)
				if p.System != sys {
					continue
				}
				for _, s := range p.Settings {
					out.Settings = append(out.Settings, Setting{Name: s.Name, Value: s.Value})
				}
				out.OutageBound, out.Exact, out.RateBound = p.OutageBound, p.Exact, p.RateBound
				out.SimOutage, out.SimRate, out.Meets, out.Fits = p.SimOutage, p.SimRate, p.Meets, p.Fits
				out.Formula, out.Lang, out.Snippet, out.Lang2, out.Snippet2 = p.Formula, p.Lang, p.Snippet, p.Lang2, p.Snippet2
			}
			return out, nil
		},
	}
}
