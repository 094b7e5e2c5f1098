package calc

import "retrylab/core/retry"

// maxPerRequest bounds the per-request list of the budget result.
const maxPerRequest = 200

// BudgetResult is the result of the budget calculator.
type BudgetResult struct {
	FirstAttempts int64 `json:"first_attempts"`
	Retries       int64 `json:"retries"`
	TotalAttempts int64 `json:"total_attempts"`
	// UnbudgetedTotal is requests × attempts: every call fails and nothing
	// limits the retries.
	UnbudgetedTotal int64 `json:"unbudgeted_total"`
	// AttemptsHistogram[i] is the number of requests that made i+1 attempts.
	AttemptsHistogram []int64 `json:"attempts_histogram"`
	// TokensLeft counts the tokens no retry used, over all counters.
	TokensLeft int64 `json:"tokens_left"`
	// AttemptsPerRequest[i] is the attempts of request i, when there are
	// at most 200 requests (for drawing them one by one).
	AttemptsPerRequest []int `json:"attempts_per_request,omitempty"`
}

// budgetCalc declares the budget calculator.
//
//retrylab:calculator article=1 order=30
func budgetCalc() *Calculator {
	const name = "budget"
	return &Calculator{
		Name:      name,
		Examples:  []string{"tokens=0&order=depth", "processes=10", "requests=1000000&attempts=100", "requests=150"},
		Help:      "a shared retry budget without refill: attempts admitted when every call fails",
		Essential: []string{"requests", "attempts", "tokens", "processes"},
		Work:      budgetWork, ServerWork: microWork * (1000*100 + itemWork*(100+maxPerRequest)), WorkParam: "requests",
		Params: []Param{
			{Name: "requests", Kind: Int, Default: "100", Min: Incl(1), Max: Incl(1000000), SliderMax: 1000,
				Help: "original requests; each makes a first attempt"},
			{Name: "attempts", Kind: Int, Default: "3", Min: Incl(1), Max: Incl(100), SliderMax: 10,
				Help: "attempts allowed per request (1 first + attempts-1 retries)"},
			{Name: "tokens", Kind: Int, Default: "20", Min: Incl(0), Max: Incl(1000000000), SliderMax: 300, Unit: "tokens",
				Help: "retry tokens in each counter; each retry takes one, first attempts take none, no refill"},
			{Name: "processes", Kind: Int, Default: "1", Min: Incl(1), Max: Incl(1000), SliderMax: 20,
				Help: "processes, each with its own counter of tokens; request i goes to process i mod processes"},
			{Name: "order", Kind: Choice, Default: "rounds", Choices: []string{"rounds", "depth"},
				Help: "rounds: every request gets its next retry before any gets a later one; depth: request by request, each retries all it can"},
			{Name: "budget", Kind: Bool, Default: "true",
				Help: "false: no budget, every request makes all its attempts and no token is taken"},
		},
		Run: func(a Args) (any, error) {
			b := retry.Budget{
				Requests:  a.Int("requests"),
				Attempts:  a.Int("attempts"),
				Tokens:    int64(a.Int("tokens")),
				Processes: a.Int("processes"),
				Order:     retry.Rounds,
			}
			if a.String("order") == "depth" {
				b.Order = retry.Depth
			}
			noBudget := !a.Bool("budget")
			if noBudget { // enough tokens for every retry (at most 1e6 × 99)
				b.Tokens = int64(b.Requests) * int64(b.Attempts-1)
			}
			r, err := b.Run()
			if err != nil { // the declared ranges make this unreachable
				return nil, Refuse(name, "", CodeConstraint, "detail.budget.config", "{reason}", "reason", err.Error())
			}
			res := BudgetResult{
				FirstAttempts:     r.FirstAttempts,
				Retries:           r.Retries,
				TotalAttempts:     r.TotalAttempts,
				UnbudgetedTotal:   r.Unbudgeted,
				AttemptsHistogram: r.Histogram,
				TokensLeft:        r.TokensLeft,
			}
			if noBudget { // no retry takes a token: every counter keeps its own
				res.TokensLeft = int64(a.Int("tokens")) * int64(b.Processes)
			}
			if b.Requests <= maxPerRequest {
				res.AttemptsPerRequest = make([]int, b.Requests)
				for i := range res.AttemptsPerRequest {
					res.AttemptsPerRequest[i] = b.AttemptsOf(i)
				}
			}
			return res, nil
		},
	}
}
