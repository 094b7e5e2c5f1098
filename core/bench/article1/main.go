// Command article1 times the two computations that core/bench/article1.sh
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
	"strings"
	"time"

	"retrylab/core/calc"
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

	// Every calculator at (among) its largest accepted parameters: each
	// must answer well within a second.
	reg := calc.New()
	for _, c := range largest {
		calcr, ok := reg.Lookup(c.calc)
		if !ok {
			fmt.Fprintln(os.Stderr, "article1: no calculator", c.calc)
			os.Exit(1)
		}
		var failed error
		s, _ := best(3, func() any {
			a, err := calcr.ParsePairs(strings.Fields(c.args))
			if err == nil {
				_, err = calcr.Run(a)
			}
			failed = err
			return nil
		})
		if failed != nil {
			fmt.Fprintf(os.Stderr, "article1: %s %s refused: %v\n", c.calc, c.args, failed)
			os.Exit(1)
		}
		enc.Encode(line{Name: "largest", Seconds: s, Runs: 3, Result: c.calc + " " + c.args})
	}
}

// largest lists, per article-1 calculator, accepted parameters at or near
// its work bound.
var largest = []struct{ calc, args string }{
	{"attempts", "q=0.999 n=1000"},
	{"amplification", "attempts=100,100,100,100,100,100,100,100,100,100"},
	{"budget", "requests=1000000 attempts=100 tokens=1000000000 processes=1000"},
	{"budget", "requests=1000000 attempts=100 tokens=1000000000 processes=1000 order=depth"},
	{"jitter", "clients=1000000 width_ms=0.001"},
	{"jitter", "clients=1000000 waves=5 strategy=decorrelated width_ms=0.0601"},
	{"jitter", "clients=166666 waves=30 strategy=equal cap_ms=1000 width_ms=0.3"},
	{"deadline", "attempts=100 deadline_ms=100000000000"},
	{"peak", "clients=2000 bins=100 threshold=40"},
	{"peak", "clients=100000 bins=10000 threshold=30"},
	{"peak", "clients=30000 bins=30 threshold=1050"},
	{"peak", "clients=5000 bins=5 threshold=1030"},
	{"peak", "clients=100000 bins=10 threshold=10330"},
}
