package calc

import "retrylab/core/strategies"

// StrategiesResult is the result of the retry-strategies calculator
// (core/strategies, after Brooker 2022). success_rate and load hold one
// value per strategy, in the order of strategy, at failure_rate; the
// series hold one value per failure rate of failure_rates.
type StrategiesResult struct {
	FailureRate       float64   `json:"failure_rate"`
	Clients           int       `json:"clients"`
	RequestsPerClient float64   `json:"requests_per_client"`
	Strategy          []string  `json:"strategy"`
	SuccessRate       []float64 `json:"success_rate"`
	Load              []float64 `json:"load"`
	// The token bucket's and the breaker's outcome at failure_rate, as
	// numbers of their own for the comparison's sentence.
	AdaptiveLoad    float64   `json:"adaptive_load"`
	AdaptiveSuccess float64   `json:"adaptive_success"`
	BreakerLoad     float64   `json:"breaker_load"`
	FailureRates    []float64 `json:"failure_rates"`
	LoadNone        []float64 `json:"load_none"`
	LoadRetries     []float64 `json:"load_retries"`
	LoadAdaptive    []float64 `json:"load_adaptive"`
	LoadBreaker     []float64 `json:"load_breaker"`
	SuccessNone     []float64 `json:"success_none"`
	SuccessRetries  []float64 `json:"success_retries"`
	SuccessAdaptive []float64 `json:"success_adaptive"`
	SuccessBreaker  []float64 `json:"success_breaker"`
}

// strategiesMaxWork bounds the calls of one request for the command line
// and the browser.
const strategiesMaxWork = 200_000_000

func strategiesParams(a Args) strategies.Params {
	return strategies.Params{Requests: a.Int("requests"), Clients: a.Int("clients"), Retries: a.Int("retries"),
		Deposit: a.Float("deposit"), BucketCap: a.Float("bucket"), Window: a.Int("window"),
		Threshold: a.Float("threshold"), FailureRate: a.Float("failure_rate")}
}

func strategiesWork(a Args) float64 {
	return strategies.Work(strategiesParams(a)) * float64(len(strategies.All)) * float64(a.Int("points")+1)
}

// strategiesCalc declares the retry-strategies calculator.
//
//retrylab:calculator article=4 order=20
func strategiesCalc() *Calculator {
	const name = "retry-strategies"
	return &Calculator{
		Name:        name,
		Examples:    []string{"failure_rate=1&clients=1000&requests=2000", "points=1&retries=0"},
		Help:        "Brooker 2022: no retries, N retries, a retry token bucket and a retry circuit breaker against a server failing at a set rate",
		Essential:   []string{"failure_rate", "clients", "retries", "requests"},
		StoryFields: []string{"failure_rate", "clients", "adaptive_load", "adaptive_success", "breaker_load", "strategy", "success_rate", "load"},
		Work:        strategiesWork, ServerWork: 6_000_000, WorkParam: "requests",
		Params: []Param{
			{Name: "failure_rate", Kind: Float, Default: "0.5", Min: Incl(0), Max: Incl(1), Step: 0.01,
				Help: "probability that one call to the server fails"},
			{Name: "clients", Kind: Int, Default: "10", Min: Incl(1), Max: Incl(1000000), SliderMax: 10000, Step: 1,
				Help: "clients sharing the requests; each has its own bucket and breaker"},
			{Name: "requests", Kind: Int, Default: "10000", Min: Incl(1), Max: Incl(10000000), SliderMin: 100, SliderMax: 100000, Step: 100,
				Help: "first tries in all, split evenly among the clients"},
			{Name: "retries", Kind: Int, Default: "3", Min: Incl(0), Max: Incl(20), SliderMax: 10,
				Help: "N: retries after the first try"},
			{Name: "deposit", Kind: Float, Default: "0.1", Min: Incl(0), Max: Incl(100), SliderMax: 1, Step: 0.01,
				Help: "token bucket: tokens a success adds (a retry takes one whole token)"},
			{Name: "bucket", Kind: Float, Default: "10", Min: Incl(0), Max: Incl(1000000), SliderMax: 100, Step: 1,
				Help: "token bucket: its size; every client's bucket starts full"},
			{Name: "window", Kind: Int, Default: "10", Min: Incl(1), Max: Incl(100000), SliderMax: 100,
				Help: "circuit breaker: the client's recent calls it looks at"},
			{Name: "threshold", Kind: Float, Default: "0.1", Min: Incl(0), Max: Incl(1), Step: 0.01,
				Help: "circuit breaker: retries stop while the failure share of the window is at or above this"},
			{Name: "points", Kind: Int, Default: "20", Min: Incl(1), Max: Incl(200), SliderMax: 50,
				Help: "the curves sample failure rates 0, 1/points, …, 1"},
			{Name: "seed", Kind: Int, Default: "20261017", Min: Incl(0), Max: Incl(1 << 53),
				Help: "seed of the failures (math/rand/v2 PCG); every strategy sees the same stream"},
		},
		Run: func(a Args) (any, error) {
			if w := strategiesWork(a); w > strategiesMaxWork {
				return nil, Refuse(name, "requests", CodeWork, "detail.retry-strategies.work",
					"the curves could make about {got} calls; at most {max}", "got", FormatFloat(w), "max", FormatFloat(strategiesMaxWork))
			}
			p := strategiesParams(a)
			// Every run draws from a fresh source of the same seeds.
			run := strategies.NewRunner(uint64(a.Int("seed")), 0x7374726174).Run
			out := StrategiesResult{FailureRate: p.FailureRate, Clients: p.Clients,
				RequestsPerClient: float64(p.Requests) / float64(p.Clients)}
			for _, st := range strategies.All {
				r := run(p, st)
				out.Strategy = append(out.Strategy, st.String())
				out.SuccessRate = append(out.SuccessRate, r.SuccessRate)
				out.Load = append(out.Load, r.Load)
			}
			out.AdaptiveLoad, out.AdaptiveSuccess = out.Load[strategies.Adaptive], out.SuccessRate[strategies.Adaptive]
			out.BreakerLoad = out.Load[strategies.Breaker]
			n := a.Int("points")
			loads := []*[]float64{&out.LoadNone, &out.LoadRetries, &out.LoadAdaptive, &out.LoadBreaker}
			succ := []*[]float64{&out.SuccessNone, &out.SuccessRetries, &out.SuccessAdaptive, &out.SuccessBreaker}
			for k := 0; k <= n; k++ {
				q := p
				q.FailureRate = float64(k) / float64(n)
				out.FailureRates = append(out.FailureRates, q.FailureRate)
				for i, st := range strategies.All {
					r := run(q, st)
					*loads[i] = append(*loads[i], r.Load)
					*succ[i] = append(*succ[i], r.SuccessRate)
				}
			}
			return out, nil
		},
	}
}
