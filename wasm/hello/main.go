//go:build js && wasm

// Command hello is the bare Go WebAssembly baseline of the playground's
// benchmark: it starts the Go runtime, marks the page ready the way the
// playground does (data-ready="true" on <html>) and exits. `make bench` measures
// the time from navigation to data-ready of this module against the
// playground's, in the same run.
package main

import "syscall/js"

func main() {
	js.Global().Get("document").Get("documentElement").Call("setAttribute", "data-ready", "true")
}
