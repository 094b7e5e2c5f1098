package policies_test

import (
	"fmt"

	"retrylab/core/policies"
)

// The default outage: service times three times longer for 5 s after two
// minutes of healthy traffic, at about 70% utilization. Naive retries do
// not recover; a retry budget does.
func Example() {
	s := policies.Default()
	for _, p := range []policies.Policy{policies.None, policies.Naive, policies.Finagle} {
		r, err := policies.Run(s, p, 20261017)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s: recovered %v, %.2f attempts per request\n", p, r.Recovered, float64(r.Attempts)/float64(r.Requests))
	}
	// Output:
	// none: recovered true, 1.00 attempts per request
	// naive: recovered false, 2.20 attempts per request
	// finagle: recovered true, 1.02 attempts per request
}
