package calc

import (
	"math"
	"strconv"

	"retrylab/core/jitter"
	"retrylab/core/pyrand"
)

// Work bounds of the jitter calculator: arrivals drawn and bins counted.
const (
	maxJitterTotal    = 5_000_000
	maxJitterBins     = 100_000
	maxJitterArrivals = 10_000 // arrivals_ms is listed up to this total
)

// JitterResult is the result of the jitter calculator.
type JitterResult struct {
	Total          int       `json:"total"`
	Counts         []int     `json:"counts"`
	BinStartsMS    []float64 `json:"bin_starts_ms"`
	Peak           int       `json:"peak"`
	PeakBinStartMS float64   `json:"peak_bin_start_ms"`
	MeanArrivalMS  float64   `json:"mean_arrival_ms"`
	MaxArrivalMS   float64   `json:"max_arrival_ms"`
	// ArrivalsMS lists every arrival in draw order when total <= 10000.
	ArrivalsMS []float64 `json:"arrivals_ms,omitempty"`
	// CapMS is the cap used (base_ms × 2^(waves-1) when not given);
	// CeilingsMS[k] = min(cap, base·2^k) is the ceiling of wave k.
	CapMS      float64   `json:"cap_ms"`
	CeilingsMS []float64 `json:"ceilings_ms"`
}

// jitterCalc declares the jitter calculator.
//
//retrylab:calculator article=1 order=40
func jitterCalc() *Calculator {
	const name = "jitter"
	return &Calculator{
		Name:      name,
		Examples:  []string{"width_ms=0.5&strategy=fixed", "waves=5&strategy=decorrelated", "clients=20000", "seed=12345678901234567890", "cap_ms=100"},
		Help:      "one or more waves of retries spread by jitter (CPython's random.Random), counted in bins",
		Essential: []string{"clients", "strategy", "waves", "base_ms"},
		Params: []Param{
			{Name: "clients", Kind: Int, Default: "100", Min: Incl(1), Max: Incl(1000000), SliderMax: 1000,
				Help: "clients that fail together at time 0 and retry"},
			{Name: "base_ms", Kind: Float, Default: "100", Min: Excl(0), Max: Incl(10000000), Step: 1, Unit: "ms", SliderMin: 1, SliderMax: 1000,
				Help: "ceiling of the first wait (wave 0); doubles each wave up to cap_ms"},
			{Name: "width_ms", Kind: Float, Default: "10", Min: Excl(0), Max: Incl(10000000), Step: 1, Unit: "ms", SliderMin: 1, SliderMax: 100,
				Help: "width of the bins in which arrivals are counted (at most 100000 bins)"},
			{Name: "seed", Kind: BigInt, Default: "20261017",
				Help: "seed of CPython's random.Random(seed): an integer of any size and sign"},
			{Name: "strategy", Kind: Choice, Default: "full", Choices: []string{"fixed", "full", "equal", "decorrelated"},
				Help: "fixed: the ceiling; full: uniform(0, c); equal: c/2 + uniform(0, c/2); decorrelated: min(cap, uniform(base, 3·previous))"},
			{Name: "waves", Kind: Int, Default: "1", Min: Incl(1), Max: Incl(30), SliderMax: 10,
				Help: "retries per client; wave k has ceiling min(cap_ms, base_ms·2^k)"},
			{Name: "cap_ms", Kind: Float, Optional: true, DefaultNote: "base_ms × 2^(waves-1)", Min: Excl(0), Max: Incl(1e15),
				Step: 1, Unit: "ms",
				Help: "largest ceiling, at least base_ms"},
		},
		Work: jitterWork, ServerWork: 1_800_000, WorkParam: "clients",
		Run: func(a Args) (any, error) {
			c := jitterConfig(a)
			if a.Has("cap_ms") {
				if c.CapMS < c.BaseMS {
					return nil, Refuse(name, "cap_ms", CodeConstraint, "detail.jitter.cap",
						"must be at least base_ms ({base}), got {cap}", "base", FormatFloat(c.BaseMS), "cap", FormatFloat(c.CapMS))
				}
			}
			if total := c.Clients * c.Waves; total > maxJitterTotal {
				return nil, Refuse(name, "clients", CodeWork, "detail.jitter.total",
					"clients × waves must be at most {max}, got {total}", "max", strconv.Itoa(maxJitterTotal), "total", strconv.Itoa(total))
			}
			bins, err := c.Bins()
			if err != nil {
				return nil, Refuse(name, "", CodeConstraint, "detail.jitter.config", "{reason}", "reason", err.Error())
			}
			if bins > maxJitterBins {
				sup, _ := c.Horizon()
				return nil, Refuse(name, "width_ms", CodeWork, "detail.jitter.bins",
					"arrivals reach {horizon} ms: {bins} bins of {width} ms, at most {max}; widen the bins",
					"horizon", FormatFloat(sup), "bins", binsText(bins), "width", FormatFloat(c.WidthMS), "max", strconv.Itoa(maxJitterBins))
			}
			c.KeepArrivals = c.Clients*c.Waves <= maxJitterArrivals
			r, err := jitter.RunMeter(c, pyrand.New(a.BigInt("seed")), a.meter())
			if err != nil {
				if stopped(err) {
					return nil, err
				}
				return nil, Refuse(name, "", CodeConstraint, "detail.jitter.config", "{reason}", "reason", err.Error())
			}
			res := JitterResult{
				Total:          r.Total,
				Counts:         r.Counts,
				BinStartsMS:    make([]float64, len(r.Counts)),
				Peak:           r.Peak,
				PeakBinStartMS: jitter.BinStart(r.PeakBin, c.WidthMS),
				MeanArrivalMS:  r.MeanArrivalMS,
				MaxArrivalMS:   r.MaxArrivalMS,
				ArrivalsMS:     r.Arrivals,
				CapMS:          c.CapMS,
			}
			if res.CapMS == 0 {
				res.CapMS = math.Ldexp(c.BaseMS, c.Waves-1)
			}
			for j := range res.BinStartsMS {
				res.BinStartsMS[j] = jitter.BinStart(j, c.WidthMS)
			}
			for k := 0; k < c.Waves; k++ {
				res.CeilingsMS = append(res.CeilingsMS, math.Min(res.CapMS, math.Ldexp(c.BaseMS, k)))
			}
			return res, nil
		},
	}
}

// jitterConfig is the core/jitter configuration of a's values.
func jitterConfig(a Args) jitter.Config {
	s, _ := jitter.ParseStrategy(a.String("strategy"))
	c := jitter.Config{
		Clients:  a.Int("clients"),
		Waves:    a.Int("waves"),
		BaseMS:   a.Float("base_ms"),
		WidthMS:  a.Float("width_ms"),
		Strategy: s,
	}
	if a.Has("cap_ms") {
		c.CapMS = a.Float("cap_ms")
	}
	return c
}

// jitterWork is the jitter calculator's work: a random draw per arrival
// and, for the answer's two lists, itemWork per bin; 0 where the
// calculator refuses the values itself.
func jitterWork(a Args) float64 {
	c := jitterConfig(a)
	if c.CapMS != 0 && c.CapMS < c.BaseMS || c.Clients*c.Waves > maxJitterTotal {
		return 0
	}
	bins, err := c.Bins()
	if err != nil || bins > maxJitterBins {
		return 0
	}
	return float64(c.Clients*c.Waves) + itemWork*float64(bins)
}

func binsText(n int) string {
	if n == math.MaxInt {
		return "more than 2^40"
	}
	return strconv.Itoa(n)
}
