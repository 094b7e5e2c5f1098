package calc

import (
	"math"

	"retrylab/core/openclosed"
)

// OpenClosedResult is the result of the open-closed calculator
// (core/openclosed): the same server, timeout, retries and spike under
// an open and a closed population, each without and with backoff. The
// lists case … in_progress_end hold one value per case, in the order of
// case.
type OpenClosedResult struct {
	Clients       int       `json:"clients"` // the closed population before the spike
	Case          []string  `json:"case"`
	Requests      []int     `json:"requests"`
	Attempts      []int     `json:"attempts"`
	Successes     []int     `json:"successes"`
	ServerS       []float64 `json:"server_s"`
	SuccessShare  []float64 `json:"success_share"`
	InProgressEnd []int     `json:"in_progress_end"`
	// WorkCutOpen and WorkCutClosed: the share of server seconds that
	// backoff saves in each population (negative: it costs more).
	WorkCutOpen   float64 `json:"work_cut_open"`
	WorkCutClosed float64 `json:"work_cut_closed"`
	// Per second: attempts sent in each case.
	TS                        []float64 `json:"t_s"`
	AttemptsPerSOpen          []float64 `json:"attempts_per_s_open"`
	AttemptsPerSOpenBackoff   []float64 `json:"attempts_per_s_open_backoff"`
	AttemptsPerSClosed        []float64 `json:"attempts_per_s_closed"`
	AttemptsPerSClosedBackoff []float64 `json:"attempts_per_s_closed_backoff"`
	InProgressOpen            []int     `json:"in_progress_open"`
	InProgressOpenBackoff     []int     `json:"in_progress_open_backoff"`
}

// openClosedMaxWork bounds the attempts of one request for the command
// line and the browser.
const openClosedMaxWork = 20_000_000

func openClosedParams(a Args) openclosed.Params {
	return openclosed.Params{RatePerS: a.Float("rate_per_s"), PeakPerS: a.Float("peak_per_s"),
		SpikeStartS: a.Float("spike_start_s"), SpikeS: a.Float("spike_s"), HorizonS: a.Float("horizon_s"),
		Attempts: a.Int("attempts"), TimeoutS: a.Float("timeout_s"), ServiceS: a.Float("service_s"),
		SlopeS: a.Float("slope_s"), NetS: a.Float("net_s"), BackoffBaseS: a.Float("backoff_s"), ThinkS: a.Float("think_s")}
}

// openClosedWork bounds the attempts of the four runs: the open one sends
// at most the peak rate's requests, the closed one's clients at most one
// request per service time each, every request at most attempts times.
func openClosedWork(a Args) float64 {
	p := openClosedParams(a)
	p.PeakPerS = math.Max(p.PeakPerS, p.RatePerS)
	open := openclosed.Work(p)
	p.Closed = true
	k := float64(openclosed.ClosedClients(p)) * math.Max(1, p.PeakPerS/p.RatePerS)
	closed := k * p.HorizonS / math.Max(p.ServiceS+p.ThinkS, 0.001) * float64(p.Attempts)
	return 2 * (open + closed)
}

// openClosedServerWork bounds openClosedWork for the shared server: the
// defaults, 70,200 units, take 7 ms natively (go test -bench of Run,
// load 3, 2026-12-03). A corner of 74 ms at 40,000 units was seen once
// under heavy load and not reproduced; core/bench/serverwork.sh prints
// the worst accepted request.
const openClosedServerWork = 80_000

// openClosedCalc declares the open-closed calculator.
//
//retrylab:calculator article=4 order=30
func openClosedCalc() *Calculator {
	const name = "open-closed"
	return &Calculator{
		Name:        name,
		Examples:    []string{"horizon_s=30&spike_s=0", "peak_per_s=200&backoff_s=0.5&horizon_s=40"},
		Help:        "the same timeout, retries and backoff through a load spike, under an open and a closed population (Brooker 2023)",
		Essential:   []string{"peak_per_s", "spike_s", "backoff_s", "timeout_s"},
		StoryFields: []string{"case", "attempts", "server_s", "success_share", "in_progress_end", "work_cut_open", "work_cut_closed"},
		Work:        openClosedWork, ServerWork: openClosedServerWork, WorkParam: "horizon_s",
		Params: []Param{
			{Name: "rate_per_s", Kind: Float, Default: "40", Min: Excl(0), Max: Incl(10000), Unit: "1/s", SliderMin: 5, SliderMax: 90, Step: 1,
				Help: "open: new requests per second (Poisson); closed: the population is sized to make this many"},
			{Name: "peak_per_s", Kind: Float, Default: "80", Min: Excl(0), Max: Incl(10000), Unit: "1/s", SliderMin: 5, SliderMax: 200, Step: 1,
				Help: "the rate during the spike (closed: the population grows in the same ratio)"},
			{Name: "spike_start_s", Kind: Float, Default: "20", Min: Incl(0), Max: Incl(3600), Unit: "s", SliderMax: 60, Step: 1,
				Help: "when the spike starts"},
			{Name: "spike_s", Kind: Float, Default: "5", Min: Incl(0), Max: Incl(3600), Unit: "s", SliderMax: 30, Step: 0.5,
				Help: "how long the spike lasts"},
			{Name: "horizon_s", Kind: Float, Default: "60", Min: Incl(1), Max: Incl(3600), Unit: "s", SliderMin: 10, SliderMax: 300, Step: 10,
				Help: "the simulated time (at most 3,600 one-second bins)"},
			{Name: "backoff_s", Kind: Float, Default: "10", Min: Excl(0), Max: Incl(3600), Unit: "s", SliderMin: 0.1, SliderMax: 30, Step: 0.1,
				Help: "backoff base: the wait before retry k is uniform(0, base × 2^k)"},
			{Name: "timeout_s", Kind: Float, Default: "3", Min: Excl(0), Max: Incl(3600), Unit: "s", SliderMin: 0.5, SliderMax: 10, Step: 0.1,
				Help: "the client gives up an attempt after this; the server finishes it anyway"},
			{Name: "attempts", Kind: Int, Default: "3", Min: Incl(1), Max: Incl(10),
				Help: "attempts per request, the first included"},
			{Name: "service_s", Kind: Float, Default: "1", Min: Excl(0), Max: Incl(3600), Unit: "s", SliderMin: 0.1, SliderMax: 5, Step: 0.1,
				Help: "the server's time per call when it has nothing else to do"},
			{Name: "slope_s", Kind: Float, Default: "0.01", Min: Incl(0), Max: Incl(10), Unit: "s", SliderMax: 0.05, Step: 0.001,
				Help: "extra seconds per call for each call in progress"},
			{Name: "net_s", Kind: Float, Default: "0.1", Min: Incl(0), Max: Incl(60), Unit: "s", SliderMax: 1, Step: 0.01,
				Help: "mean (exponential) network delay of one message"},
			{Name: "think_s", Kind: Float, Default: "1", Min: Incl(0), Max: Incl(3600), Unit: "s", SliderMax: 10, Step: 0.1,
				Help: "closed: mean (exponential) pause after an answer before the next request"},
			{Name: "seed", Kind: Int, Default: "20261017", Min: Incl(0), Max: Incl(1 << 53),
				Help: "seed of the runs (math/rand/v2 PCG); the four cases use the same seed"},
		},
		Run: func(a Args) (any, error) {
			p := openClosedParams(a)
			if p.RatePerS*p.SlopeS >= 0.95 {
				return nil, Refuse(name, "slope_s", CodeConstraint, "detail.open-closed.slope",
					"rate_per_s × slope_s must be below 0.95: the server has no steady state before the spike")
			}
			if w := openClosedWork(a); w > openClosedMaxWork {
				return nil, Refuse(name, "horizon_s", CodeWork, "detail.open-closed.work",
					"the runs could send about {got} attempts; at most {max}", "got", FormatFloat(math.Round(w)), "max", FormatFloat(openClosedMaxWork))
			}
			seed := uint64(a.Int("seed"))
			out := OpenClosedResult{}
			var runs [4]openclosed.Result
			var runner openclosed.Runner // the four runs on one storage
			for i, c := range []struct {
				name            string
				closed, backoff bool
			}{{"open", false, false}, {"open-backoff", false, true}, {"closed", true, false}, {"closed-backoff", true, true}} {
				q := p
				q.Closed, q.Backoff = c.closed, c.backoff
				r := runner.Run(q, seed)
				runs[i] = r
				if c.closed {
					out.Clients = r.Clients
				}
				out.Case = append(out.Case, c.name)
				out.Requests = append(out.Requests, r.Requests)
				out.Attempts = append(out.Attempts, r.Attempts)
				out.Successes = append(out.Successes, r.Successes)
				out.ServerS = append(out.ServerS, r.ServerS)
				share := 0.0
				if r.Requests > 0 {
					share = float64(r.Successes) / float64(r.Requests)
				}
				out.SuccessShare = append(out.SuccessShare, share)
				out.InProgressEnd = append(out.InProgressEnd, r.InProgress[len(r.InProgress)-1])
			}
			if out.ServerS[0] > 0 {
				out.WorkCutOpen = 1 - out.ServerS[1]/out.ServerS[0]
			}
			if out.ServerS[2] > 0 {
				out.WorkCutClosed = 1 - out.ServerS[3]/out.ServerS[2]
			}
			out.TS = make([]float64, len(runs[0].AttemptsPerS))
			for i := range out.TS {
				out.TS[i] = float64(i)
			}
			out.AttemptsPerSOpen, out.AttemptsPerSOpenBackoff = runs[0].AttemptsPerS, runs[1].AttemptsPerS
			out.AttemptsPerSClosed, out.AttemptsPerSClosedBackoff = runs[2].AttemptsPerS, runs[3].AttemptsPerS
			out.InProgressOpen, out.InProgressOpenBackoff = runs[0].InProgress, runs[1].InProgress
			return out, nil
		},
	}
}
