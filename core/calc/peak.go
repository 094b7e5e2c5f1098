package calc

import (
	"errors"
	"math"
	"strconv"

	"retrylab/core/crowd"
	"retrylab/core/standin/fmath"
)

// PeakResult is the result of the peak calculator.
type PeakResult struct {
	PBin           float64 `json:"p_bin"`
	ExpectedPerBin float64 `json:"expected_per_bin"`
	SingleBinTail  float64 `json:"single_bin_tail"`
	// SingleBinTailLog10 is log10 of single_bin_tail, finite where the
	// tail itself is below the smallest float64 (and printed as 0).
	SingleBinTailLog10 float64 `json:"single_bin_tail_log10"`
	UnionBound         float64 `json:"union_bound"`
	// ExactAnyBin is null, with Note, when n and k are too large.
	ExactAnyBin *float64 `json:"exact_any_bin"`
	Note        string   `json:"note,omitempty"`
	// MaxAtLeast[m] = P(the fullest bin holds >= m clients) for m = 0, 1,
	// …, up to the first m where it is below 1e-15; MaxMostLikely is the
	// most likely value of the fullest bin. Absent, with MaxNote, when too
	// large to compute.
	MaxAtLeast    []float64 `json:"max_at_least,omitempty"`
	MaxMostLikely *int      `json:"max_most_likely,omitempty"`
	MaxNote       string    `json:"max_note,omitempty"`
}

// peakCalc declares the peak calculator.
//
//retrylab:calculator article=1 order=60
func peakCalc() *Calculator {
	const name = "peak"
	return &Calculator{
		Name:     name,
		Examples: []string{"clients=1&bins=1&threshold=0", "clients=2000&bins=100&threshold=40", "threshold=14", "clients=100000&bins=7&threshold=20000"},
		Help:     "how likely a crowded bin is when n clients each pick one of k bins at random",
		Params: []Param{
			{Name: "clients", Kind: Int, Default: "100", Min: Incl(1), Max: Incl(100000), SliderMax: 1000,
				Help: "clients n, each picking a bin uniformly and independently"},
			{Name: "bins", Kind: Int, Default: "10", Min: Incl(1), Max: Incl(10000), SliderMax: 100,
				Help: "bins k (time windows)"},
			{Name: "threshold", Kind: Int, Default: "25", Min: Incl(0), Max: Incl(100000), SliderMax: 100,
				Help: "threshold t, at most clients: a bin with t or more clients is crowded"},
		},
		Work: peakWork, ServerWork: 5e7, WorkParam: "clients",
		Run: func(a Args) (any, error) {
			n, k, t := a.Int("clients"), a.Int("bins"), a.Int("threshold")
			if t > n {
				return nil, Refuse(name, "threshold", CodeConstraint, "detail.peak.threshold",
					"must be in [0, {n}] (at most clients), got {t}", "n", strconv.Itoa(n), "t", strconv.Itoa(t))
			}
			p := 1 / float64(k)
			lt := crowd.LogBinomialTail(n, p, t)
			res := PeakResult{
				PBin:               p,
				ExpectedPerBin:     float64(n) / float64(k),
				SingleBinTail:      fmath.Exp(lt),
				SingleBinTailLog10: lt / math.Ln10,
				UnionBound:         crowd.UnionBound(n, k, t),
			}
			ex, err := crowd.ExactAnyBin(n, k, t, crowd.DefaultMaxWork)
			switch {
			case errors.Is(err, crowd.ErrTooLarge):
				res.Note = "exact value not computed: clients and bins too large for the work bound (" + err.Error() + ")"
			case err != nil:
				return nil, Refuse(name, "", CodeConstraint, "detail.peak.config", "{reason}", "reason", err.Error())
			default:
				ex = math.Min(ex, res.UnionBound) // equal when the events are disjoint; never above by rounding
				res.ExactAnyBin = &ex
			}
			d, err := crowd.MaxDistribution(n, k, crowd.DefaultMaxWork)
			switch {
			case errors.Is(err, crowd.ErrTooLarge):
				res.MaxNote = "distribution of the fullest bin not computed: clients and bins too large for the work bound"
			case err != nil:
				return nil, Refuse(name, "", CodeConstraint, "detail.peak.config", "{reason}", "reason", err.Error())
			default:
				res.MaxAtLeast = d
				best, bestP := 0, -1.0
				for m := range d {
					pm := d[m]
					if m+1 < len(d) {
						pm -= d[m+1]
					}
					if pm > bestP {
						best, bestP = m, pm
					}
				}
				res.MaxMostLikely = &best
			}
			return res, nil
		},
	}
}

// peakWork is the peak calculator's work in multiply-adds: the exact
// probability and the distribution of the fullest bin, each counted only
// when it is within crowd.DefaultMaxWork (beyond, the calculator answers
// null with a note and does not compute it), plus one pass over the
// clients for the binomial tail.
func peakWork(a Args) float64 {
	n, k, t := a.Int("clients"), a.Int("bins"), a.Int("threshold")
	w := float64(n)
	if e := crowd.Work(n, k, t); e <= crowd.DefaultMaxWork {
		w += e
	}
	if d := crowd.MaxDistributionWork(n, k, crowd.DefaultMaxWork); d <= crowd.DefaultMaxWork {
		w += d
	}
	return w
}
