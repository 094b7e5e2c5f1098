// Command rulesgen writes wasm/worker/edge/edge-rules.mjs (edge.Rules):
// run by `go generate ./wasm/worker/edge`.
package main

import (
	"fmt"
	"os"

	"retrylab/wasm/worker/edge"
)

func main() {
	if err := os.WriteFile(edge.RulesFile, edge.Rules(), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "rulesgen:", err)
		os.Exit(1)
	}
}
