// worker.mjs: the Go program of retrylab's Worker, with the interface of
// the worker.mjs of syumai/workers' workers-assets-gen ({fetch,
// scheduled}), which it replaces in the bundle: `make worker` runs
// workers-assets-gen, then wasm/worker/cmd/workerassets writes this file
// and goshim.mjs (wasm/worker/goshim) over it. syumai's shim.mjs started a
// Go instance per request; goshim.mjs starts one per isolate.
import "./wasm_exec.js";
import { connect } from "cloudflare:sockets";
import mod from "./app.wasm";
import { goShim } from "./goshim.mjs";

const shim = goShim(mod, { connect });

export default { fetch: shim.fetch, scheduled: shim.scheduled };
