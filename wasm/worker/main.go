//go:build js && wasm

// Command worker is retrylab on Cloudflare Workers: the site's handler
// (site/server, the same http.Handler that `retrylab serve` runs) served by
// github.com/syumai/workers, one Go instance per isolate
// (wasm/worker/goshim). Cloudflare serves the files of dist/ as static
// assets before the Worker runs; the Worker answers the rest: the API
// /api/v1/NAME, the charts /api/v1/NAME.svg, and the misses. The handler
// reads what it needs of dist/ (the 404 page, the charts' strings) through
// the ASSETS binding. `make worker` builds it into build/worker with the
// wasm_exec.js of workers-assets-gen and goshim's JavaScript; see
// wasm/worker/wrangler.toml and wasm/worker/workerd.capnp.
package main

import (
	"syscall/js"

	"retrylab/site/server"
	"retrylab/wasm/worker/goshim"
)

// workScale is the fraction of the calculators' work bounds for the shared
// server that the Worker computes: the whole of them, as natively, so that
// both answer the same questions (worker/e2e's parity tests) and the
// articles' defaults. Its Go compiled to wasm computes the largest
// requests some two to four times slower than natively (core/bench/
// serverwork.sh prints V8's figures: at most 63 ms at half the bounds),
// well within [limits] cpu_ms = 1000 in wrangler.toml.
const workScale = 1

func main() {
	// goshim.Serve: syumai/workers' ServeNonBlock and Ready, then the
	// instance lives on and serves every request of its isolate
	// (wasm/worker/goshim).
	goshim.Serve(server.New(server.Config{Dist: assetsFS{}, WorkScale: workScale, Version: version()}))
}

// version returns the bundle's version that the edge layer sets before it
// starts Go (wasm/worker/cmd/workerassets/entry.mjs), so that the
// handler's ETags and the edge's cache keys name the same deployment; ""
// (the build's VCS revision) without it.
func version() string {
	if v := js.Global().Get("RETRYLAB_VERSION"); v.Type() == js.TypeString {
		return v.String()
	}
	return ""
}
