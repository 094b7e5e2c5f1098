package calc

import (
	"retrylab/core/backoff"
	"retrylab/core/pyrand"
)

// BackoffResult is the result of the backoff calculator.
type BackoffResult struct {
	Policy      string    `json:"policy"`
	MaxAttempts int       `json:"max_attempts"`  // effective: the preset's when policy is not custom
	MaxElapsedS float64   `json:"max_elapsed_s"` // effective, s
	Workers     int       `json:"workers"`
	Jitter      bool      `json:"jitter"`
	RetryAfterS *float64  `json:"retry_after_s"` // null when the server sent none
	CeilingsS   []float64 `json:"ceilings_s"`    // min(cap, base × 2^a) for each retry a
	Retries     int       `json:"retries"`
	// RetriesByAttempt[a] counts the workers that made retry a.
	RetriesByAttempt []int `json:"retries_by_attempt"`
	GaveUp           int   `json:"gave_up"` // workers that stopped with attempts left, for either reason below
	// GaveUpElapsed counts the workers whose last call failed at
	// max_elapsed_s; GaveUpRetryAfter those that had less time left than
	// retry_after_s and gave up rather than call before it.
	GaveUpElapsed    int       `json:"gave_up_elapsed"`
	GaveUpRetryAfter int       `json:"gave_up_retry_after"`
	MaxElapsedUsedS  float64   `json:"max_elapsed_used_s"`
	HorizonS         float64   `json:"horizon_s"` // the latest time a retry can happen
	WidthS           float64   `json:"width_s"`
	Counts           []int     `json:"counts"` // retries per bin of width_s, from 0
	BinStartsS       []float64 `json:"bin_starts_s"`
	Peak             int       `json:"peak"`
	PeakBinStartS    float64   `json:"peak_bin_start_s"`
	// ArrivalsS lists every retry time in draw order when there are at
	// most 10,000; null otherwise.
	ArrivalsS []float64 `json:"arrivals_s"`
}

const (
	backoffMaxBins     = 100000
	backoffMaxArrivals = 10000
)

// backoffCalc declares the backoff calculator.
//
//retrylab:calculator article=2 order=40
func backoffCalc() *Calculator {
	const name = "backoff"
	return &Calculator{
		Name:        name,
		Examples:    []string{"jitter=false&retry_after_s=3", "workers=10000", "retry_after_s=0.1"},
		Help:        "exponential backoff with full jitter across many workers, Retry-After as a floor, a cap on total retry time",
		Essential:   []string{"policy", "jitter", "workers", "retry_after_s"},
		StoryFields: []string{"retries", "gave_up", "peak", "max_elapsed_used_s"},
		Params: []Param{
			{Name: "policy", Kind: Choice, Default: "custom", Choices: []string{"custom", "interactive", "batch"},
				Help: "custom uses max_attempts and max_elapsed_s; interactive (3 attempts within 8 s) and batch (8 within 300 s) set both"},
			{Name: "base_s", Kind: Float, Default: "0.5", Min: Excl(0), Max: Incl(3600), Unit: "s",
				SliderMin: 0.1, SliderMax: 5, Step: 0.1, Help: "ceiling of the first wait"},
			{Name: "cap_s", Kind: Float, Default: "20", Min: Excl(0), Max: Incl(86400), Unit: "s",
				SliderMin: 1, SliderMax: 120, Step: 1, Help: "no wait ceiling exceeds it"},
			{Name: "max_attempts", Kind: Int, Default: "4", Min: Incl(1), Max: Incl(30), SliderMax: 12,
				Help: "calls per worker, the first included (custom policy)"},
			{Name: "max_elapsed_s", Kind: Float, Default: "20", Min: Excl(0), Max: Incl(86400), Unit: "s",
				SliderMin: 1, SliderMax: 600, Step: 1, Help: "time after the first failure when a worker stops retrying (custom policy)"},
			{Name: "retry_after_s", Kind: Float, Optional: true, Min: Incl(0), Max: Incl(3600), Unit: "s",
				DefaultNote: "none", SliderMax: 30, Step: 0.5, Help: "the server's Retry-After: a floor for every wait, never cut; a worker with less time left gives up"},
			{Name: "jitter", Kind: Bool, Default: "true", Help: "draw each wait uniformly below its ceiling"},
			{Name: "workers", Kind: Int, Default: "100", Min: Incl(1), Max: Incl(100000), SliderMax: 1000,
				Help: "workers whose calls fail together at time 0"},
			{Name: "seed", Kind: BigInt, Default: "20261017", Help: "seed of CPython's random.Random"},
			{Name: "width_s", Kind: Float, Default: "0.1", Min: Excl(0), Max: Incl(3600), Unit: "s",
				SliderMin: 0.05, SliderMax: 5, Step: 0.05, Help: "width of a histogram bin"},
		},
		Work: backoffWork, ServerWork: 850_000, WorkParam: "workers",
		Run: func(a Args) (any, error) {
			policy := a.String("policy")
			if policy != "custom" {
				for _, p := range []string{"max_attempts", "max_elapsed_s"} {
					if a.Given(p) {
						return nil, Refuse(name, p, CodeConstraint, "detail.backoff.preset",
							"the {policy} policy sets {param}; use policy=custom to choose it", "policy", policy)
					}
				}
			}
			c := backoffConfig(a)
			var retryAfter *float64
			if a.Has("retry_after_s") {
				v := c.RetryAfter
				retryAfter = &v
			}
			w := a.Float("width_s")
			if bins, err := c.Bins(w); err != nil || bins > backoffMaxBins {
				return nil, Refuse(name, "width_s", CodeWork, "detail.backoff.bins",
					"{horizon} s in bins of {width} s would be more than {max} bins", "horizon", FormatFloat(c.Horizon()),
					"width", FormatFloat(w), "max", "100000")
			}
			keep := c.Workers*(c.MaxAttempts-1) <= backoffMaxArrivals
			res, err := backoff.RunMeter(c, pyrand.New(a.BigInt("seed")), w, keep, a.meter())
			if err != nil {
				if stopped(err) {
					return nil, err
				}
				return nil, Refuse(name, "", CodeConstraint, "detail.backoff.config", "{reason}", "reason", err.Error())
			}
			out := BackoffResult{
				Policy: policy, MaxAttempts: c.MaxAttempts, MaxElapsedS: c.MaxElapsed, Workers: c.Workers,
				Jitter: c.Jitter, RetryAfterS: retryAfter, CeilingsS: res.Ceilings, Retries: res.Retries,
				RetriesByAttempt: res.RetriesByAttempt, GaveUp: res.GaveUp,
				GaveUpElapsed: res.GaveUp - res.GaveUpRetryAfter, GaveUpRetryAfter: res.GaveUpRetryAfter, MaxElapsedUsedS: res.MaxElapsedUsed,
				HorizonS: c.Horizon(), WidthS: w, Counts: res.Counts, BinStartsS: make([]float64, len(res.Counts)),
				Peak: res.Peak, PeakBinStartS: float64(res.PeakBin) * w, ArrivalsS: res.Arrivals,
			}
			for j := range out.BinStartsS {
				out.BinStartsS[j] = float64(j) * w
			}
			if keep && out.ArrivalsS == nil {
				out.ArrivalsS = []float64{}
			}
			return out, nil
		},
	}
}

// backoffConfig is the core/backoff configuration of a's values, with
// the preset's attempts and elapsed time when policy is not custom.
func backoffConfig(a Args) backoff.Config {
	c := backoff.Config{
		Base: a.Float("base_s"), Cap: a.Float("cap_s"),
		MaxAttempts: a.Int("max_attempts"), MaxElapsed: a.Float("max_elapsed_s"),
		Jitter: a.Bool("jitter"), Workers: a.Int("workers"),
	}
	if policy := a.String("policy"); policy != "custom" {
		pre := backoff.Interactive
		if policy == "batch" {
			pre = backoff.Batch
		}
		c.MaxAttempts, c.MaxElapsed = pre.MaxAttempts, pre.MaxElapsed
	}
	if a.Has("retry_after_s") {
		c.RetryAfter = a.Float("retry_after_s")
	}
	return c
}

// backoffWork is the backoff calculator's work: a random draw per retry
// and, for the answer's two lists, itemWork per bin; 0 where the
// calculator refuses the values itself.
func backoffWork(a Args) float64 {
	c := backoffConfig(a)
	bins, err := c.Bins(a.Float("width_s"))
	if err != nil || bins > backoffMaxBins {
		return 0
	}
	return float64(c.Workers*(c.MaxAttempts-1)) + itemWork*float64(bins)
}
