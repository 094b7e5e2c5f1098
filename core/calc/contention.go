package calc

import (
	"slices"

	"retrylab/core/contention"
)

// ContentionResult is the result of the contention calculator: Brooker's
// 2015 experiment (core/contention). The lists time_ms and calls hold one
// value per strategy, in the order of strategy, at clients clients; the
// series hold one value per client count of clients_axis.
type ContentionResult struct {
	Clients  int       `json:"clients"`
	Runs     int       `json:"runs"`
	Strategy []string  `json:"strategy"`
	TimeMS   []float64 `json:"time_ms"`
	Calls    []float64 `json:"calls"`
	// Slowest is the strategy that takes the longest at clients; the two
	// ratios compare full jitter with no backoff and exponential backoff
	// without jitter.
	Slowest            string    `json:"slowest"`
	NoneOverFullCalls  float64   `json:"none_over_full_calls"`
	ExpoOverFullTime   float64   `json:"expo_over_full_time"`
	ClientsAxis        []int     `json:"clients_axis"`
	TimeNoneMS         []float64 `json:"time_none_ms"`
	TimeExponentialMS  []float64 `json:"time_exponential_ms"`
	TimeFullMS         []float64 `json:"time_full_ms"`
	TimeEqualMS        []float64 `json:"time_equal_ms"`
	TimeDecorrelatedMS []float64 `json:"time_decorrelated_ms"`
	CallsNone          []float64 `json:"calls_none"`
	CallsExponential   []float64 `json:"calls_exponential"`
	CallsFull          []float64 `json:"calls_full"`
	CallsEqual         []float64 `json:"calls_equal"`
	CallsDecorrelated  []float64 `json:"calls_decorrelated"`
}

// contentionMaxWork bounds the writes of one request for the command
// line and the browser.
const contentionMaxWork = 200_000_000

func contentionAxis(a Args) []int {
	var axis []int
	for n := a.Int("max_clients"); n >= 1 && len(axis) <= 200; n -= a.Int("step") {
		axis = append(axis, n)
	}
	slices.Reverse(axis)
	return axis
}

func contentionWork(a Args) float64 {
	w := contention.Work(a.Int("clients"), a.Int("runs"))
	for _, n := range contentionAxis(a) {
		w += contention.Work(n, a.Int("runs"))
	}
	return w * float64(len(contention.Strategies))
}

// contentionServerWork bounds contentionWork for the shared server: the
// defaults, 720,500 units, take 32 ms natively (go test -bench of Run,
// load 3, 2026-12-03): 44 ns a unit, 0.7 × 50 ms / 44 ns ≈ 790,000.
const contentionServerWork = 780_000

// contentionCalc declares the contention calculator.
//
//retrylab:calculator article=4 order=10
func contentionCalc() *Calculator {
	const name = "contention"
	return &Calculator{
		Name:        name,
		Examples:    []string{"clients=20&max_clients=40&runs=1", "cap_ms=5&base_ms=5&clients=5&max_clients=10&step=5"},
		Help:        "Brooker 2015: N clients update one row under optimistic concurrency; completion time and calls per backoff strategy",
		Essential:   []string{"clients", "runs", "cap_ms", "max_clients"},
		StoryFields: []string{"clients", "strategy", "time_ms", "calls", "slowest", "none_over_full_calls"},
		Work:        contentionWork, ServerWork: contentionServerWork, WorkParam: "runs",
		Params: []Param{
			{Name: "clients", Kind: Int, Default: "100", Min: Incl(1), Max: Incl(1000), SliderMin: 10, SliderMax: 190, Step: 10,
				Help: "clients of the comparison, each writing the row once"},
			{Name: "runs", Kind: Int, Default: "2", Min: Incl(1), Max: Incl(1000), SliderMax: 50,
				Help: "seeded runs averaged per point (the original averages 100)"},
			{Name: "base_ms", Kind: Float, Default: "5", Min: Excl(0), Max: Incl(100000), Unit: "ms", SliderMin: 1, SliderMax: 100, Step: 1,
				Help: "the backoff's base: the first wait ceiling is base × 2"},
			{Name: "cap_ms", Kind: Float, Default: "2000", Min: Excl(0), Max: Incl(10000000), Unit: "ms", SliderMin: 10, SliderMax: 10000, Step: 10,
				Help: "the largest wait ceiling (at least base_ms)"},
			{Name: "net_mean_ms", Kind: Float, Default: "10", Min: Incl(0), Max: Incl(100000), Unit: "ms", SliderMax: 100, Step: 1,
				Help: "mean network delay of one message"},
			{Name: "net_sd_ms", Kind: Float, Default: "2", Min: Incl(0), Max: Incl(100000), Unit: "ms", SliderMax: 20, Step: 0.5,
				Help: "standard deviation of the network delay (normal, folded at 0)"},
			{Name: "max_clients", Kind: Int, Default: "190", Min: Incl(1), Max: Incl(1000), SliderMin: 10, SliderMax: 400, Step: 10,
				Help: "the curves end at this many clients"},
			{Name: "step", Kind: Int, Default: "20", Min: Incl(1), Max: Incl(1000), SliderMin: 5, SliderMax: 50, Step: 5,
				Help: "the curves' spacing in clients, down from max_clients (at most 200 points)"},
			{Name: "seed", Kind: Int, Default: "20261017", Min: Incl(0), Max: Incl(1 << 53),
				Help: "seed of the runs (math/rand/v2 PCG); each strategy and client count has its own stream"},
		},
		Run: func(a Args) (any, error) {
			if a.Float("cap_ms") < a.Float("base_ms") {
				return nil, Refuse(name, "cap_ms", CodeConstraint, "detail.contention.cap", "must be at least base_ms")
			}
			axis := contentionAxis(a)
			if len(axis) > 200 || len(axis) == 0 {
				return nil, Refuse(name, "step", CodeConstraint, "detail.contention.points",
					"the curves would have {got} points; between 1 and {max}", "got", FormatFloat(float64(len(axis))), "max", "200")
			}
			if w := contentionWork(a); w > contentionMaxWork {
				return nil, Refuse(name, "runs", CodeWork, "detail.contention.work",
					"the runs could make about {got} writes; at most {max}", "got", FormatFloat(w), "max", FormatFloat(contentionMaxWork))
			}
			p := contention.Params{BaseMS: a.Float("base_ms"), CapMS: a.Float("cap_ms"),
				NetMeanMS: a.Float("net_mean_ms"), NetSDMS: a.Float("net_sd_ms")}
			runs, seed := a.Int("runs"), uint64(a.Int("seed"))
			out := ContentionResult{Clients: a.Int("clients"), Runs: runs, ClientsAxis: axis}
			p.Clients = out.Clients
			var sim contention.Sim // one for every run: its memory is reused
			var slowest float64
			for _, st := range contention.Strategies {
				r := sim.Run(p, st, runs, seed)
				out.Strategy = append(out.Strategy, st.String())
				out.TimeMS = append(out.TimeMS, r.TimeMS)
				out.Calls = append(out.Calls, r.Calls)
				if r.TimeMS > slowest {
					slowest, out.Slowest = r.TimeMS, st.String()
				}
			}
			if out.Calls[contention.Full] > 0 {
				out.NoneOverFullCalls = out.Calls[contention.None] / out.Calls[contention.Full]
			}
			if out.TimeMS[contention.Full] > 0 {
				out.ExpoOverFullTime = out.TimeMS[contention.Exponential] / out.TimeMS[contention.Full]
			}
			times := []*[]float64{&out.TimeNoneMS, &out.TimeExponentialMS, &out.TimeFullMS, &out.TimeEqualMS, &out.TimeDecorrelatedMS}
			calls := []*[]float64{&out.CallsNone, &out.CallsExponential, &out.CallsFull, &out.CallsEqual, &out.CallsDecorrelated}
			for i, st := range contention.Strategies {
				for _, n := range axis {
					p.Clients = n
					r := sim.Run(p, st, runs, seed)
					*times[i] = append(*times[i], r.TimeMS)
					*calls[i] = append(*calls[i], r.Calls)
				}
			}
			return out, nil
		},
	}
}
