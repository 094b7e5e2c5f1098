package calc

import (
	"retrylab/core/limits"
	"retrylab/core/standin"
)

// ConcurrencyResult is the result of the concurrency calculator.
type ConcurrencyResult struct {
	_                standin.NoEqual // not comparable
	InFlight         float64         `json:"in_flight"`          // rpm/60 × latency, with no cap
	InFlightCapped   float64         `json:"in_flight_capped"`   // min(in_flight, max_concurrency) when a cap is set
	ThroughputPerMin float64         `json:"throughput_per_min"` // min(rpm, max_concurrency × 60 / latency)
	// CapThroughputPerMin is max_concurrency × 60 / latency; null without a cap.
	CapThroughputPerMin *float64 `json:"cap_throughput_per_min"`
	LimitedBy           string   `json:"limited_by"` // rate or concurrency
}

// concurrencyCalc declares the concurrency calculator.
//
//retrylab:calculator article=2 order=30
func concurrencyCalc() *Calculator {
	return &Calculator{
		Name:     "concurrency",
		Examples: []string{"max_concurrency=3", "rpm=0", "latency_s=0.001&rpm=1000000000"},
		Help:     "calls in flight at a request rate and a latency, and what a concurrency cap does to throughput",
		Work:     fixedWork, ServerWork: microWork * fixedWorkBound,
		Params: []Param{
			{Name: "rpm", Kind: Float, Default: "60", Min: Incl(0), Max: Incl(1e9), Unit: "1/min",
				SliderMax: 600, Step: 1, Help: "requests started per minute"},
			{Name: "latency_s", Kind: Float, Default: "20", Min: Incl(0.001), Max: Incl(86400), Unit: "s",
				SliderMin: 0.5, SliderMax: 120, Step: 0.5, Help: "how long one call lasts"},
			{Name: "max_concurrency", Kind: Int, Default: "0", Min: Incl(0), Max: Incl(1000000),
				SliderMax: 100, Help: "calls allowed in flight at once (0: no cap)"},
		},
		Run: func(a Args) (any, error) {
			f := limits.InFlight(a.Float("rpm"), a.Float("latency_s"), a.Int("max_concurrency"))
			r := ConcurrencyResult{InFlight: f.InFlight, InFlightCapped: f.InFlightCapped,
				ThroughputPerMin: f.ThroughputPerMin, LimitedBy: f.LimitedBy}
			if a.Int("max_concurrency") > 0 {
				v := f.CapThroughput
				r.CapThroughputPerMin = &v
			}
			return r, nil
		},
	}
}
