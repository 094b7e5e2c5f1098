// Command article1 times the two computations that scripts/bench.d/10-article1.sh
// compares with CPython: the jitter histogram of 1,000,000 clients (the jitter
// calculator at its other defaults) and the exact crowded-bin probability for
// n=2000, k=100, t=40. It prints one JSON object per computation: the best
// wall time of several runs, in seconds, and the result to compare.
package main

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"time"

	"retrylab/calc"
	"retrylab/core/crowd"
)

type line struct {
	Name    string  `json:"name"`
	Seconds float64 `json:"seconds"`
	Runs    int     `json:"runs"`
	Result  any     `json:"result"`
}

func best(runs int, f func() any) (float64, any) {
	var bestD time.Duration
	var res any
	for i := 0; i < runs; i++ {
		start := time.Now()
		res = f()
		if d := time.Since(start); i == 0 || d < bestD {
			bestD = d
		}
	}
	return bestD.Seconds(), res
}

func main() {
	jit, ok := calc.New().Lookup("jitter")
	if !ok {
		fmt.Fprintln(os.Stderr, "article1: no jitter calculator")
		os.Exit(1)
	}
	enc := json.NewEncoder(os.Stdout)
	const jitterRuns = 30
	s, res := best(jitterRuns, func() any {
		r, err := jit.Compute(url.Values{"clients": {"1000000"}})
		if err != nil {
			fmt.Fprintln(os.Stderr, "article1:", err)
			os.Exit(1)
		}
		j := r.(calc.JitterResult)
		return map[string]any{"peak": j.Peak, "counts": j.Counts, "max": j.MaxArrivalMS}
	})
	enc.Encode(line{"jitter", s, jitterRuns, res})

	const crowdRuns = 20
	s, res = best(crowdRuns, func() any {
		p, err := crowd.ExactAnyBin(2000, 100, 40, crowd.DefaultMaxWork)
		if err != nil {
			fmt.Fprintln(os.Stderr, "article1:", err)
			os.Exit(1)
		}
		return p
	})
	enc.Encode(line{"crowd", s, crowdRuns, res})
}
