package configure_test

import (
	"fmt"

	"retrylab/core/configure"
)

func ExampleCompute() {
	r, err := configure.Compute(configure.Default(), 20261017)
	if err != nil {
		panic(err)
	}
	p := r.Plans[0]
	fmt.Println(p.System, p.Settings[1].Name, p.Settings[1].Value, p.Settings[2].Value)
	fmt.Printf("outage bound %.4f, simulated %.4f\n", p.OutageBound, p.SimOutage)
	// Output:
	// grpc retryThrottling.maxTokens 151 0.049
	// outage bound 1.0500, simulated 1.0500
}
