//go:build !(js && wasm)

package main

import (
	"fmt"
	"os"
)

// main outside the browser says how to build the playground: its state
// handling (state.go) is plain Go, tested natively, but the program itself
// needs the DOM. This file keeps `go build ./...` working on any platform.
func main() {
	fmt.Fprintln(os.Stderr, "playground: this program runs in the browser; build it with GOOS=js GOARCH=wasm (./build.sh does)")
	os.Exit(2)
}
