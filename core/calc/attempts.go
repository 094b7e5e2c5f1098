package calc

import "retrylab/core/retry"

// AttemptsResult is the result of the attempts calculator.
type AttemptsResult struct {
	Q                  float64 `json:"q"`
	N                  int     `json:"n"`
	ExpectedAttempts   float64 `json:"expected_attempts"`
	SuccessProbability float64 `json:"success_probability"`
}

// attemptsCalc declares the attempts calculator.
//
//retrylab:calculator article=1 order=10
func attemptsCalc() *Calculator {
	return &Calculator{
		Name:     "attempts",
		Examples: []string{"q=1&n=1000", "q=0&n=1", "q=0.9&n=3", "q=0.123456789&n=17"},
		Help:     "expected attempts and success probability for independent failures",
		Work:     attemptsWork, ServerWork: microWork * 1000, WorkParam: "n",
		Params: []Param{
			{Name: "q", Kind: Float, Default: "0.5", Min: Incl(0), Max: Incl(1), Step: 0.01,
				Help: "probability that one attempt fails"},
			{Name: "n", Kind: Int, Default: "3", Min: Incl(1), Max: Incl(1000), SliderMax: 20,
				Help: "attempts in total (1 first + n-1 retries)"},
		},
		Run: func(a Args) (any, error) {
			q, n := a.Float("q"), a.Int("n")
			e, s := retry.ExpectedAttempts(q, n)
			return AttemptsResult{Q: q, N: n, ExpectedAttempts: e, SuccessProbability: s}, nil
		},
	}
}
