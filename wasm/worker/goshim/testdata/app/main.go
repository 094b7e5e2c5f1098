//go:build js && wasm

// Command app is the Go program of goshim's tests (real.test.mjs, run by
// TestNode): a handler served with goshim.Serve whose paths show what the
// shim must do.
package main

import (
	"fmt"
	"net/http"
	"strings"
	"syscall/js"

	"github.com/syumai/workers"
	"github.com/syumai/workers/cloudflare"

	"retrylab/wasm/worker/goshim"
)

func main() {
	served := 0 // requests this instance has served
	goshim.Serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		served++
		w.Header().Set("X-Served", fmt.Sprint(served))
		switch r.URL.Path {
		case "/count":
		case "/env": // this request's env, read before and after waiting on JavaScript
			before := cloudflare.Getenv("NAME")
			if r.URL.Query().Has("wait") {
				wait(r.URL.Query().Get("wait"))
			}
			fmt.Fprintf(w, "%s %s", before, cloudflare.Getenv("NAME"))
		case "/big": // a body larger than syumai/workers' stream chunks
			w.Header().Set("Content-Length", "1000000")
			w.Write([]byte(strings.Repeat("x", 1_000_000)))
		case "/status":
			w.WriteHeader(http.StatusTeapot)
			fmt.Fprint(w, "teapot")
		case "/done": // syumai/workers' Done channel, closed when its appCloser runs
			select {
			case <-workers.Done():
				fmt.Fprint(w, "closed")
			default:
				fmt.Fprint(w, "open")
			}
		case "/panic":
			panic("goshim test: a panic in the handler")
		case "/oom": // wasm32's 4 GiB of memory exhausted: the runtime's fatal "out of memory"
			for {
				hold = append(hold, make([]byte, 256<<20))
			}
		default:
			http.NotFound(w, r)
		}
	}))
}

// hold keeps what /oom allocates (untouched: the pages are never written,
// so the test's process does not use the memory it reserves).
var hold [][]byte

// wait waits for the promise globalThis[name]() returns (a test's gate).
func wait(name string) {
	done := make(chan struct{})
	then := js.FuncOf(func(js.Value, []js.Value) any { close(done); return nil })
	defer then.Release()
	js.Global().Call(name).Call("then", then)
	<-done
}
