//go:build !(js && wasm)

package playground

import (
	"fmt"
	"os"

	render "retrylab/site/widget"
)

// Main outside the browser says how to build the playground: its state
// handling (state.go) is plain Go, tested natively, but the program itself
// needs the DOM. This file keeps `go build ./...` working on any platform.
func Main(*render.Set) {
	fmt.Fprintln(os.Stderr, "playground: this program runs in the browser; build it with GOOS=js GOARCH=wasm (./build.sh does)")
	os.Exit(2)
}
