package calc

import (
	"math"

	"retrylab/core/metastable"
	"retrylab/core/standin/pcgrand"
)

// MetastableResult is the result of the metastable calculator
// (core/metastable): the chain at lambda solved exactly, a seeded
// simulation of the same chain, and the exact solve swept over arrival
// rates.
type MetastableResult struct {
	Lambda      float64   `json:"lambda"`
	Utilization float64   `json:"utilization"` // λ/μ
	States      int       `json:"states"`
	QueueDist   []float64 `json:"queue_dist"` // stationary P(q), q = 0..queue
	MeanQueue   float64   `json:"mean_queue"`
	MeanOrbit   float64   `json:"mean_orbit"`
	PFull       float64   `json:"p_full"` // P(q = queue)
	Bimodal     bool      `json:"bimodal"`
	Modes       []int     `json:"modes"` // the low and the high mode (the same twice when unimodal)
	// DrainS is the exact expected time from a full queue and an empty
	// orbit until the queue is empty (1e300 when beyond float64).
	DrainS float64 `json:"drain_s"`
	// The simulation: mean drain time of sim_runs runs, its standard
	// error and 99% band (±2.576 standard errors); runs cut at the event budget are censored.
	SimDrainS   *float64 `json:"sim_drain_s"`
	SimSES      *float64 `json:"sim_se_s"`
	SimLowS     *float64 `json:"sim_low_s"`
	SimHighS    *float64 `json:"sim_high_s"`
	SimCensored int      `json:"sim_censored"`
	ExactInBand bool     `json:"exact_in_band"`
	// The sweep over arrival rates, and the metastable region: the
	// arrival rates whose stationary queue is bimodal (null when none).
	SweepLambda    []float64 `json:"sweep_lambda"`
	SweepMeanQueue []float64 `json:"sweep_mean_queue"`
	SweepPFull     []float64 `json:"sweep_p_full"`
	SweepDrainS    []float64 `json:"sweep_drain_s"`
	SweepBistable  []bool    `json:"sweep_bistable"`
	RegionFrom     *float64  `json:"region_from"`
	RegionTo       *float64  `json:"region_to"`
}

// metastableEventWork is the work of one simulated transition, in the
// multiply-adds of the exact solves; metastableSimEvents is the events
// all the runs of one request may take together.
const (
	metastableEventWork = 50
	metastableSimEvents = 300_000
	metastableMaxWork   = 2_000_000_000
)

// finiteOr returns v, or big when v is not finite (a drain time beyond
// float64: JSON has no infinity).
func finiteOr(v, big float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) || v > big {
		return big
	}
	return v
}

func metastableParams(a Args) metastable.Params {
	return metastable.Params{Lambda: a.Float("lambda"), Mu: a.Float("mu"), Queue: a.Int("queue"), Orbit: a.Int("orbit"),
		TimeoutS: a.Float("timeout_s"), Retries: a.Float("retries"), WaitS: a.Float("wait_s")}
}

func metastableWork(a Args) float64 {
	p := metastableParams(a)
	w := 2 * p.Work() * float64(a.Int("points")+1)
	if a.Int("sim_runs") > 0 {
		w += metastableEventWork * metastableSimEvents
	}
	return w
}

// metastableCalc declares the metastable calculator.
//
//retrylab:calculator article=4 order=40
func metastableCalc() *Calculator {
	const name = "metastable"
	return &Calculator{
		Name:        name,
		Examples:    []string{"queue=5&orbit=3&sim_runs=10", "lambda=20&sweep_from=1&sweep_to=1&points=1&sim_runs=0"},
		Help:        "a queue with retrying clients as a Markov chain solved exactly: stationary queue, time to drain, the bistable range of arrival rates",
		Essential:   []string{"lambda", "timeout_s", "retries", "queue"},
		StoryFields: []string{"lambda", "utilization", "bimodal", "mean_queue", "p_full", "drain_s", "sim_drain_s", "exact_in_band", "region_from", "region_to"},
		Work:        metastableWork, ServerWork: 55_000_000, WorkParam: "queue",
		Params: []Param{
			{Name: "lambda", Kind: Float, Default: "8.5", Min: Excl(0), Max: Incl(1e6), Unit: "1/s", SliderMin: 1, SliderMax: 12, Step: 0.1,
				Help: "new requests per second (Poisson)"},
			{Name: "mu", Kind: Float, Default: "10", Min: Excl(0), Max: Incl(1e6), Unit: "1/s", SliderMin: 1, SliderMax: 20, Step: 0.5,
				Help: "requests per second the server completes when busy (exponential)"},
			{Name: "queue", Kind: Int, Default: "40", Min: Incl(1), Max: Incl(2000), SliderMin: 5, SliderMax: 80,
				Help: "the queue bound, the request in service included"},
			{Name: "orbit", Kind: Int, Default: "20", Min: Incl(0), Max: Incl(2000), SliderMax: 80,
				Help: "the most clients waiting to retry at once"},
			{Name: "timeout_s", Kind: Float, Default: "2.5", Min: Excl(0), Max: Incl(1e6), Unit: "s", SliderMin: 0.1, SliderMax: 10, Step: 0.1,
				Help: "the client's timeout; a request queued too long is served anyway"},
			{Name: "retries", Kind: Float, Default: "3", Min: Incl(0), Max: Incl(100), SliderMax: 10, Step: 0.5,
				Help: "mean retries of a client that keeps failing (geometric)"},
			{Name: "wait_s", Kind: Float, Default: "5", Min: Excl(0), Max: Incl(1e6), Unit: "s", SliderMin: 0.1, SliderMax: 30, Step: 0.1,
				Help: "mean (exponential) wait in the orbit before a retry or giving up"},
			{Name: "sweep_from", Kind: Float, Default: "7", Min: Excl(0), Max: Incl(1e6), Unit: "1/s", SliderMin: 1, SliderMax: 12, Step: 0.5,
				Help: "the sweep's lowest arrival rate"},
			{Name: "sweep_to", Kind: Float, Default: "10", Min: Excl(0), Max: Incl(1e6), Unit: "1/s", SliderMin: 1, SliderMax: 20, Step: 0.5,
				Help: "the sweep's highest arrival rate (at least sweep_from)"},
			{Name: "points", Kind: Int, Default: "10", Min: Incl(1), Max: Incl(200), SliderMax: 40,
				Help: "the sweep solves the chain at points+1 arrival rates"},
			{Name: "sim_runs", Kind: Int, Default: "30", Min: Incl(0), Max: Incl(100000), SliderMax: 1000, Step: 10,
				Help: "simulated drains from a full queue (0: none); all share a budget of 300,000 events"},
			{Name: "seed", Kind: Int, Default: "20261017", Min: Incl(0), Max: Incl(1 << 53),
				Help: "seed of the simulation (math/rand/v2 PCG)"},
		},
		Run: func(a Args) (any, error) {
			p := metastableParams(a)
			from, to, n := a.Float("sweep_from"), a.Float("sweep_to"), a.Int("points")
			if to < from {
				return nil, Refuse(name, "sweep_to", CodeConstraint, "detail.metastable.sweep", "must be at least sweep_from")
			}
			if w := metastableWork(a); w > metastableMaxWork {
				return nil, Refuse(name, "queue", CodeWork, "detail.metastable.work",
					"the chain has {states} states and the solves would take about {got} multiply-adds; at most {max}",
					"states", FormatFloat(float64(p.States())), "got", FormatFloat(w), "max", FormatFloat(metastableMaxWork))
			}
			out := MetastableResult{Lambda: p.Lambda, Utilization: p.Lambda / p.Mu, States: p.States()}
			var sv metastable.Solver // one matrix and its vectors for every solve
			summary := func(p metastable.Params) (mean, pfull float64, bi bool, lo, hi int, dist []float64, orbit float64) {
				pi := sv.Stationary(p)
				dist = metastable.QueueMarginal(p, pi)
				for q, v := range dist {
					mean += float64(q) * v
				}
				for i, v := range pi {
					_, o := p.State(i)
					orbit += float64(o) * v
				}
				bi, lo, hi = metastable.Bimodal(dist)
				return mean, dist[p.Queue], bi, lo, hi, dist, orbit
			}
			var lo, hi int
			out.MeanQueue, out.PFull, out.Bimodal, lo, hi, out.QueueDist, out.MeanOrbit = summary(p)
			out.Modes = []int{lo, hi}
			out.DrainS = finiteOr(sv.DrainTime(p, p.Queue, 0), 1e300)
			if runs := a.Int("sim_runs"); runs > 0 {
				// rand.New(rand.NewPCG(seed, 0x6d657461))'s stream, drawn without an interface call
				r := pcgrand.New(uint64(a.Int("seed")), 0x6d657461)
				mean, se, censored := sv.SimDrain(p, p.Queue, 0, runs, metastableSimEvents, &r)
				out.SimCensored = censored
				if !math.IsNaN(mean) {
					lo, hi := mean-2.576*se, mean+2.576*se
					out.SimDrainS, out.SimSES, out.SimLowS, out.SimHighS = &mean, &se, &lo, &hi
					out.ExactInBand = censored == 0 && lo <= out.DrainS && out.DrainS <= hi
				}
			}
			out.SweepLambda = make([]float64, 0, n+1)
			out.SweepMeanQueue = make([]float64, 0, n+1)
			out.SweepPFull = make([]float64, 0, n+1)
			out.SweepDrainS = make([]float64, 0, n+1)
			out.SweepBistable = make([]bool, 0, n+1)
			for k := 0; k <= n; k++ {
				q := p
				q.Lambda = from
				if n > 0 {
					q.Lambda = from + (to-from)*float64(k)/float64(n)
				}
				// a point at lambda itself (the defaults' 8.5) is the
				// chain solved above: the same solves, the same bits
				mean, pfull, bi, drain := out.MeanQueue, out.PFull, out.Bimodal, out.DrainS
				if q != p {
					mean, pfull, bi, _, _, _, _ = summary(q)
					drain = finiteOr(sv.DrainTime(q, q.Queue, 0), 1e300)
				}
				out.SweepLambda = append(out.SweepLambda, q.Lambda)
				out.SweepMeanQueue = append(out.SweepMeanQueue, mean)
				out.SweepPFull = append(out.SweepPFull, pfull)
				out.SweepDrainS = append(out.SweepDrainS, drain)
				out.SweepBistable = append(out.SweepBistable, bi)
				if bi {
					l := q.Lambda
					if out.RegionFrom == nil {
						out.RegionFrom = &l
					}
					out.RegionTo = &l
				}
			}
			return out, nil
		},
	}
}
