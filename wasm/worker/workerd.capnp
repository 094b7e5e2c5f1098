# The local run of the Cloudflare Worker on workerd (the binary pinned in
# package-lock.json), laid out as Cloudflare lays out a Worker with static
# assets: the assets layer (the "site" service) serves build/worker/public
# as Workers static assets and hands the requests that wrangler.toml's
# [assets] run_worker_first lists, and the misses, to the user Worker
# "app", whose ASSETS binding reads the same files (its 404 page, the
# charts' strings).
#
# Two processes, two configurations of this file. workerd runs all of its
# isolates on one thread, so a Go computation (which does not yield) would
# hold every request of the process, pages included; on Cloudflare the
# assets layer does not run in the user Worker's isolate. Locally the
# same separation is two workerd processes joined by HTTP:
#
#   - `config`, the assets layer: socket "http" (the site), socket
#     "assets" (its AssetWorker entrypoint, what the Worker's ASSETS
#     binding reaches), and the user Worker as the external service "app";
#   - `worker`, the user Worker: socket "http" (what "app" reaches), and
#     the assets layer's AssetWorker as the external service "assets".
#
# Run from the repository root, after `make worker` (W is
# $(node -p "require('workerd').default") in wasm/worker):
#
#   $W serve --experimental wasm/worker/workerd.capnp config
#   $W serve --experimental wasm/worker/workerd.capnp worker
#
# (the fixed ports below; --socket-addr NAME=HOST:PORT or --socket-fd
# NAME=FD listen elsewhere, --external-addr app=HOST:PORT and
# assets=HOST:PORT point the two at each other). wasm/worker/local starts
# both this way for the tests and `make bench`.
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "site", assets = (
      # Relative to the current directory: run from the repository root.
      path = "build/worker/public",
      # html_handling, not_found_handling and run_worker_first from
      # wrangler.toml's [assets], and the text of public/_headers: written
      # by `make worker`.
      config = embed "../../build/worker/assets.json",
      userWorker = "app",
    )),
    (name = "app", external = (address = "127.0.0.1:8788", http = ())),
    # A socket cannot name an entrypoint of an assets service: this
    # Worker passes the requests of socket "assets" to AssetWorker.
    (name = "assets", worker = (
      modules = [(name = "assets.mjs", esModule =
        "export default { fetch(req, env) { return env.ASSETS.fetch(req); } };")],
      compatibilityDate = "2026-11-01",
      bindings = [(name = "ASSETS", service = (name = "site", entrypoint = "AssetWorker"))],
    )),
  ],
  sockets = [
    (name = "http", address = "127.0.0.1:8787", http = (), service = "site"),
    (name = "assets", address = "127.0.0.1:8789", http = (), service = "assets"),
  ],
);

const worker :Workerd.Config = (
  services = [
    (name = "app", worker = .app),
    (name = "assets", external = (address = "127.0.0.1:8789", http = ())),
  ],
  sockets = [(name = "http", address = "127.0.0.1:8788", http = (), service = "app")],
);

# The Go Worker: the edge layer (worker/edge), the shim that runs Go once
# per isolate (worker/goshim: worker.mjs, goshim.mjs), wasm_exec.js of
# workers-assets-gen -mode=go and the wasm that `make worker` builds from
# ./wasm/worker, as wrangler uploads them.
const app :Workerd.Worker = (
  modules = [
    # The first module is the main one: entry.mjs, written by `make worker`;
    # it sends the API and the charts through the edge layer (edge.mjs).
    (name = "entry.mjs", esModule = embed "../../build/worker/entry.mjs"),
    (name = "worker.mjs", esModule = embed "../../build/worker/worker.mjs"),
    (name = "goshim.mjs", esModule = embed "../../build/worker/goshim.mjs"),
    (name = "wasm_exec.js", esModule = embed "../../build/worker/wasm_exec.js"),
    (name = "app.wasm", wasm = embed "../../build/worker/app.wasm"),
    (name = "edge.mjs", esModule = embed "../../build/worker/edge.mjs"),
    (name = "edge-rules.mjs", esModule = embed "../../build/worker/edge-rules.mjs"),
    (name = "edge-data.mjs", esModule = embed "../../build/worker/edge-data.mjs"),
  ],
  compatibilityDate = "2026-11-01",
  bindings = [(name = "ASSETS", service = "assets")],
);
