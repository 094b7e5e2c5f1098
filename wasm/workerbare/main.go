//go:build js && wasm

// Command workerbare is the floor of the Worker's benchmark (worker/cmd/workerbench):
// a syumai/workers handler that answers a constant, so that its rate is
// what starting a Go instance per request costs on workerd, without our
// code. Like wasm/worker, it first waits for a JavaScript microtask (see
// adapt there: syumai/workers v0.27.0 fails a handler that answers inside
// the executor of its Promise).
package main

import (
	"net/http"
	"syscall/js"

	"github.com/syumai/workers"
)

func main() {
	workers.Serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		done := make(chan struct{})
		then := js.FuncOf(func(js.Value, []js.Value) any { close(done); return nil })
		js.Global().Get("Promise").Call("resolve").Call("then", then)
		<-done
		then.Release()
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Content-Length", "3")
		w.Write([]byte("ok\n"))
	}))
}
