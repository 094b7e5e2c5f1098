// Package goshim starts the Worker's Go program once per isolate instead of
// once per request, still serving through github.com/syumai/workers (its
// ServeNonBlock, Ready, handleRequest binding and request/response
// conversion).
//
// syumai/workers v0.27.0's own JavaScript shim (workers-assets-gen's
// shim.mjs) instantiates the wasm module and runs Go for every request,
// and its Serve returns, ending the program, when the first response body
// is closed (handler_js.go's appCloser closes the package's doneCh, which a
// second close would panic on). Starting our 8 MB program cost about
// 8 ms of CPU per request, more than the computations themselves. This
// package replaces that with:
//
//   - goshim.mjs, the JavaScript side (see its comment): it instantiates the
//     module once, keeps the instance while it lives, and calls the
//     binding's handleRequest for each request with that request's env
//     and ctx; an instance that exits (a panic, the runtime out of
//     memory) is dropped and the next request gets a fresh one;
//   - worker.mjs, the module that wires goshim.mjs to app.wasm,
//     wasm_exec.js and cloudflare:sockets, with the interface of
//     workers-assets-gen's worker.mjs ({fetch, scheduled}), which it
//     replaces in the bundle;
//   - Serve (js/wasm), the Go side: ServeNonBlock, Ready, then block
//     forever. Each response is buffered whole and handed to syumai/workers
//     as a raw JavaScript body, so its appCloser, and with it the close of
//     doneCh, is never reached, and no response streams from Go after its
//     request's call has returned.
//
// Write puts the two modules into the bundle (`make worker`,
// wasm/worker/cmd/workerassets).
package goshim

import (
	"embed"
	"os"
	"path/filepath"
)

//go:embed goshim.mjs worker.mjs
var modules embed.FS

// Modules are the names of the modules Write writes into the bundle.
var Modules = []string{"worker.mjs", "goshim.mjs"}

// Write writes Modules into dir, the bundle folder that holds app.wasm and
// workers-assets-gen's wasm_exec.js; worker.mjs replaces the one
// workers-assets-gen wrote there.
func Write(dir string) error {
	for _, name := range Modules {
		b, err := modules.ReadFile(name)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}
