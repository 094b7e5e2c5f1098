# The local run of the Cloudflare Worker on workerd (the binary pinned in
# package-lock.json), laid out as Cloudflare lays out a Worker with static
# assets: the "site" assets service serves build/worker/public as Workers
# static assets and hands every other request to the Go Worker "app", whose
# ASSETS binding reads the same files (its 404 page).
#
# Run from the repository root, after `make worker`:
#
#   $(node -p "require('workerd').default") serve --experimental wasm/worker/workerd.capnp
#
# (--experimental enables the assets service; --socket-addr http=HOST:PORT
# or --socket-fd http=FD to listen elsewhere). wasm/worker/local starts it this
# way for the tests and `make bench`.
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "site", assets = (
      # Relative to the current directory: run from the repository root.
      path = "build/worker/public",
      # html_handling and not_found_handling from wrangler.toml's [assets],
      # and the text of public/_headers: written by `make worker`.
      config = embed "../../build/worker/assets.json",
      userWorker = "app",
    )),
    (name = "app", worker = .app),
  ],
  sockets = [(name = "http", address = "127.0.0.1:8787", http = (), service = "site")],
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
    (name = "edge-data.mjs", esModule = embed "../../build/worker/edge-data.mjs"),
  ],
  compatibilityDate = "2026-11-01",
  bindings = [(name = "ASSETS", service = (name = "site", entrypoint = "AssetWorker"))],
);
