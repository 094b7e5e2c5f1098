// The Worker's main module (wrangler.toml's main, the first module of
// worker/workerd.capnp): the edge layer (edge.mjs) in front of the shim
// that workers-assets-gen writes (worker.mjs). edge-data.mjs is written by
// `make worker` (worker/edge/data.go): the bundle's version and the
// calculators' parameters. The Go handler reads the version from
// globalThis.RETRYLAB_VERSION (wasm/worker), so its ETags and the edge's
// cache keys name the same deployment.
import app from "./worker.mjs";
import data from "./edge-data.mjs";
import { edge } from "./edge.mjs";

globalThis.RETRYLAB_VERSION = data.version;
const handler = edge({ app, data });

export default {
  fetch: (req, env, ctx) => handler.fetch(req, env, ctx),
};
