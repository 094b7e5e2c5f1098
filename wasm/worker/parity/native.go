package parity

import (
	"fmt"
	"net/http"
	"os"

	"retrylab/site/server"
)

// Native returns the handler of `retrylab serve` over the folder dist.
func Native(dist string) (http.Handler, error) {
	if fi, err := os.Stat(dist); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("%s: no built site (run `make build`)", dist)
	}
	// No compute deadline: it is a bound in wall time, and on a loaded
	// machine (TestLoad's 16 concurrent requests on two busy cores) it
	// turned slow answers into 503s, so that the comparison failed on the
	// machine's load rather than on a difference (issue 27). The deadline
	// itself is site/server's to test (TestStopWhenNobodyWaits); the
	// answers compared here do not depend on it.
	return server.New(server.Config{Dist: os.DirFS(dist), ComputeDeadline: -1}), nil
}
