//go:build js && wasm

// Command worker is retrylab on Cloudflare Workers: the site's handler
// (site/server, the same http.Handler that `retrylab serve` runs) served by
// github.com/syumai/workers. Cloudflare serves the files of dist/ as static
// assets before the Worker runs; the Worker answers the rest: the API
// /api/v1/NAME, the charts /api/v1/NAME.svg, and the misses. The handler
// reads what it needs of dist/ (the 404 page, the charts' strings) through
// the ASSETS binding. `make worker` builds it into
// build/worker with the JavaScript shim of workers-assets-gen; see
// wasm/worker/wrangler.toml and wasm/worker/workerd.capnp.
package main

import (
	"net/http"
	"syscall/js"

	"github.com/syumai/workers"

	"retrylab/site/server"
)

// workScale is the fraction of the calculators' work bounds for the shared
// server that the Worker computes: its Go compiled to wasm computes the
// largest requests several times slower than natively (worker/e2e's
// TestAbuse), and [limits] cpu_ms in wrangler.toml must hold them.
const workScale = 0.5

func main() {
	workers.Serve(adapt(server.New(server.Config{Dist: assetsFS{}, WorkScale: workScale, Version: version()})))
}

// version returns the bundle's version that the edge layer sets before it
// starts Go (wasm/worker/cmd/workerassets/entry.mjs), so that the handler's ETags and the
// edge's cache keys name the same deployment; "" (the build's VCS
// revision) without it.
func version() string {
	if v := js.Global().Get("RETRYLAB_VERSION"); v.Type() == js.TypeString {
		return v.String()
	}
	return ""
}

// adapt fits the handler to syumai/workers v0.27.0, which runs one Go
// instance per request and exits it when the response body is closed:
//
//   - It first waits for a JavaScript microtask. The library starts the
//     handler inside the executor of the Promise it returns; a handler that
//     answers without waiting (the API) would otherwise finish the body,
//     and exit the Go program, while that executor is still running, and
//     the shim then fails ("Cannot read properties of undefined (reading
//     'exports')").
//   - It answers HEAD as GET and lets the runtime drop the body, as HTTP
//     requires of HEAD: the library streams exactly Content-Length bytes,
//     and a HEAD answer that sets the length and writes nothing fails in
//     workerd ("FixedLengthStream did not see all expected bytes").
func adapt(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		await(js.Global().Get("Promise").Call("resolve"))
		if r.Method == http.MethodHead {
			r = r.Clone(r.Context())
			r.Method = http.MethodGet
		}
		h.ServeHTTP(w, r)
	})
}
