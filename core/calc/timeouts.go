package calc

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"

	"retrylab/core/standin/heapsort"
	"retrylab/core/timeouts"
)

// TimeoutsResult is the result of the timeouts calculator (see
// core/timeouts).
type TimeoutsResult struct {
	Calls     int `json:"calls"`
	Completed int `json:"completed"`
	// The calls each timeout cut: the first one the call's timeline crossed.
	CutConnect    int `json:"cut_connect"`
	CutFirstToken int `json:"cut_first_token"`
	CutIdle       int `json:"cut_idle"`
	CutTotal      int `json:"cut_total"`
	// RetriesCaused counts the cuts before the first token, retried
	// transparently; HandedToUser those after it (the first-token rule:
	// no transparent retry once tokens have been shown).
	RetriesCaused int `json:"retries_caused"`
	HandedToUser  int `json:"handed_to_user"`
	// TokensThrownAway are tokens billed for calls cut after their first
	// token (prompt and output received), OutputTokensThrownAway the
	// output part; PromptTokensMaybeBilled the prompts of the calls cut
	// waiting for the first token.
	TokensThrownAway        int64 `json:"tokens_thrown_away"`
	OutputTokensThrownAway  int64 `json:"output_tokens_thrown_away"`
	PromptTokensMaybeBilled int64 `json:"prompt_tokens_maybe_billed"`
	// FirstTokenTail is P(first token later than first_token_timeout_s)
	// for one connected call, from the distribution (0 without the
	// timeout): the share of cuts the simulation approaches.
	FirstTokenTail float64 `json:"first_token_tail"`
	// Percentiles (nearest rank), s: the time to the first token of the
	// connected calls, the duration of the completed ones (0 when none).
	FirstTokenP50S float64 `json:"first_token_p50_s"`
	FirstTokenP95S float64 `json:"first_token_p95_s"`
	DurationP50S   float64 `json:"duration_p50_s"`
	DurationP95S   float64 `json:"duration_p95_s"`
	// The histogram of the time to the first token: FirstTokenCounts[j]
	// counts the connected calls in bin j of width width_s (starting at
	// FirstTokenBinStartsS[j]); the last bin holds every later one.
	WidthS               float64   `json:"width_s"`
	FirstTokenCounts     []int     `json:"first_token_counts"`
	FirstTokenBinStartsS []float64 `json:"first_token_bin_starts_s"`
}

const timeoutsMaxBins = 200

// timeoutsCalc declares the timeouts calculator.
//
//retrylab:calculator article=2 order=80
func timeoutsCalc() *Calculator {
	const name = "timeouts"
	d := timeouts.Default()
	f := FormatFloat
	i := strconv.Itoa
	timeout := func(p, def, help string) Param {
		return Param{Name: p, Kind: Float, Default: def, Min: Incl(0), Max: Incl(3600), Unit: "s", SliderMax: 60, Step: 0.5,
			Help: help + " (0: none)"}
	}
	return &Calculator{
		Name:     name,
		Examples: []string{"first_token_timeout_s=0&calls=50", "calls=1&max_output_tokens=1", "width_s=0.01&first_token_timeout_s=3600&calls=20"},
		Help:     "streamed calls against connect, first-token, idle and total timeouts: what each cuts, the tokens billed and thrown away, the retries caused",
		Work:     timeoutsWork, ServerWork: timeoutsServerWork, WorkParam: "calls",
		Params: []Param{
			{Name: "calls", Kind: Int, Default: i(d.Calls), Min: Incl(1), Max: Incl(100000), SliderMax: 5000, Step: 100,
				Help: "streamed calls (calls × max_output_tokens at most 4,000,000)"},
			{Name: "prompt_tokens", Kind: Int, Default: i(d.PromptTokens), Min: Incl(0), Max: Incl(1000000), Unit: "tokens",
				SliderMax: 20000, Step: 100, Help: "each call's prompt"},
			{Name: "max_output_tokens", Kind: Int, Default: i(d.OutputTokens), Min: Incl(1), Max: Incl(100000), Unit: "tokens",
				SliderMax: 4000, Step: 50, Help: "each call's output is uniform between a fifth of it and all of it"},
			{Name: "output_tokens_per_s", Kind: Float, Default: f(d.Rate), Min: Excl(0), Max: Incl(100000), Unit: "tokens/s",
				SliderMin: 5, SliderMax: 200, Step: 5, Help: "mean streaming speed (exponential gaps between tokens)"},
			{Name: "connect_median_s", Kind: Float, Default: f(d.Connect.Median), Min: Excl(0), Max: Incl(600), Unit: "s",
				SliderMin: 0.01, SliderMax: 2, Step: 0.01, Help: "median time to connect (log-logistic, shape 2)"},
			{Name: "first_token_median_s", Kind: Float, Default: f(d.FirstToken.Median), Min: Excl(0), Max: Incl(600), Unit: "s",
				SliderMin: 0.1, SliderMax: 20, Step: 0.1, Help: "median time from connection to the first token (log-logistic)"},
			{Name: "first_token_shape", Kind: Float, Default: f(d.FirstToken.Shape), Min: Incl(0.5), Max: Incl(20), SliderMax: 10, Step: 0.1,
				Help: "shape of the first-token distribution: larger is narrower, smaller has a longer tail"},
			{Name: "p_stall", Kind: Float, Default: f(d.PStall), Min: Incl(0), Max: Incl(1), SliderMax: 0.2, Step: 0.01,
				Help: "probability that a call stalls once mid-stream"},
			{Name: "stall_median_s", Kind: Float, Default: f(d.Stall.Median), Min: Excl(0), Max: Incl(3600), Unit: "s",
				SliderMin: 0.5, SliderMax: 60, Step: 0.5, Help: "median length of a stall (log-logistic, shape 2)"},
			timeout("connect_timeout_s", f(d.ConnectTimeout), "the connection must be made within it"),
			timeout("first_token_timeout_s", f(d.FirstTokenTimeout), "the first token must arrive within it after connecting"),
			timeout("idle_timeout_s", f(d.IdleTimeout), "no gap between two tokens may exceed it"),
			timeout("total_timeout_s", f(d.TotalTimeout), "the whole call must end within it"),
			{Name: "seed", Kind: Int, Default: "20261017", Min: Incl(0), Max: Incl(1 << 53),
				Help: "seed of the simulation (math/rand/v2 PCG)"},
			{Name: "width_s", Kind: Float, Default: "0.5", Min: Incl(0.01), Max: Incl(600), Unit: "s", SliderMin: 0.1, SliderMax: 5, Step: 0.1,
				Help: "bin width of the first-token histogram"},
		},
		Run: func(a Args) (any, error) {
			c := timeouts.Config{
				Calls: a.Int("calls"), PromptTokens: a.Int("prompt_tokens"), OutputTokens: a.Int("max_output_tokens"),
				Rate:       a.Float("output_tokens_per_s"),
				Connect:    timeouts.Dist{Median: a.Float("connect_median_s"), Shape: 2},
				FirstToken: timeouts.Dist{Median: a.Float("first_token_median_s"), Shape: a.Float("first_token_shape")},
				PStall:     a.Float("p_stall"), Stall: timeouts.Dist{Median: a.Float("stall_median_s"), Shape: 2},
				ConnectTimeout: a.Float("connect_timeout_s"), FirstTokenTimeout: a.Float("first_token_timeout_s"),
				IdleTimeout: a.Float("idle_timeout_s"), TotalTimeout: a.Float("total_timeout_s"),
			}
			if w := float64(c.Calls) * float64(c.OutputTokens); w > timeouts.MaxWork {
				return nil, Refuse(name, "calls", CodeWork, "detail.timeouts.work",
					"calls × max_output_tokens must be at most {max}, got {got}", "max", "4000000", "got", FormatFloat(w))
			}
			res, err := timeouts.RunMeter(c, rand.NewPCG(uint64(a.Int("seed")), 0x9e3779b97f4a7c15), a.meter())
			if err != nil {
				if stopped(err) {
					return nil, err
				}
				return nil, Refuse(name, "", CodeConstraint, "detail.timeouts.config", "{reason}", "reason", err.Error())
			}
			out := TimeoutsResult{
				Calls: c.Calls, Completed: res.ByCut[timeouts.Completed], CutConnect: res.ByCut[timeouts.CutConnect],
				CutFirstToken: res.ByCut[timeouts.CutFirstToken], CutIdle: res.ByCut[timeouts.CutIdle],
				CutTotal: res.ByCut[timeouts.CutTotal], RetriesCaused: res.RetriesCaused, HandedToUser: res.HandedToUser,
				TokensThrownAway: res.TokensThrownAway, OutputTokensThrownAway: res.OutputThrownAway,
				PromptTokensMaybeBilled: res.PromptMaybeBilled, DurationP50S: res.DurationP50, DurationP95S: res.DurationP95,
				WidthS: a.Float("width_s"),
			}
			if c.FirstTokenTimeout > 0 {
				out.FirstTokenTail = c.FirstToken.Tail(c.FirstTokenTimeout)
			}
			ft := slices.Clone(res.FirstTokenS)
			heapsort.Float64s(ft) // not slices.Sort (core/standin/heapsort)
			if len(ft) > 0 {
				out.FirstTokenP50S = ft[max(0, int(math.Ceil(0.5*float64(len(ft))))-1)]
				out.FirstTokenP95S = ft[max(0, int(math.Ceil(0.95*float64(len(ft))))-1)]
			}
			// Bins up to twice the first-token timeout (or the 99th
			// percentile without one), at most timeoutsMaxBins.
			top := 2 * c.FirstTokenTimeout
			if top == 0 && len(ft) > 0 {
				top = ft[max(0, int(math.Ceil(0.99*float64(len(ft))))-1)]
			}
			bins := min(timeoutsMaxBins, max(1, int(math.Ceil(top/out.WidthS))))
			out.FirstTokenCounts = make([]int, bins)
			out.FirstTokenBinStartsS = make([]float64, bins)
			for j := range out.FirstTokenBinStartsS {
				out.FirstTokenBinStartsS[j] = float64(j) * out.WidthS
			}
			for _, x := range res.FirstTokenS {
				out.FirstTokenCounts[min(bins-1, int(x/out.WidthS))]++
			}
			return out, nil
		},
	}
}
