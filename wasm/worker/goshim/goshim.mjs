// goshim.mjs: runs the Worker's Go program once per isolate, serving every
// request of the isolate through syumai/workers' handleRequest binding
// (wasm/worker/goshim; Go side: goshim.Serve). syumai/workers v0.27.0's
// own shim starts a fresh Go instance for each request, which cost our
// program about 8 ms of CPU before it computed anything.
//
// Lifetime. The first request instantiates the module and runs Go's main,
// which calls workers.ServeNonBlock and workers.Ready before it blocks:
// the instance is ready when go.run returns to us (no waiting on a
// promise). Every later request calls binding.handleRequest on the same
// instance. When the program exits (a panic, the runtime out of memory, a
// call of os.Exit), wasm_exec.js calls go.exit: the instance is dropped,
// the requests in it fail (they would otherwise wait forever for a
// response), and the next request starts a fresh instance. A call into
// the instance that throws (a trap, or wasm_exec.js failing on an
// instance that exited under it) drops it too.
//
// Requests are not queued: while one request's Go code waits for
// JavaScript (a fetch through env.ASSETS), another may enter. Go runs its
// goroutines only when JavaScript calls into it, and a request's
// goroutines wake only on that request's own promises, so each request's
// Go code runs inside its own request. Responses come back whole (Serve
// buffers them), so nothing of a request streams from Go after its
// handleRequest promise has resolved. (A queue would have to release
// itself when a request is cancelled mid-way, which a Worker cannot
// observe.)
//
// Timers. Go's runtime waits for its timers with setTimeout, made in the
// request that is running when Go goes idle; workerd may drop a timer that
// outlives its request, and then a Go timer fires only when a later
// request enters Go. The Go handler sets none that outlive its request.
//
// Per request. syumai/workers reads the runtime context (env, ctx,
// connect, binding) from one object that its Go packages capture at
// start. This shim sets that object's env and ctx to the calling request's
// before each handleRequest, so whatever the Go code reads from them
// before it first waits on JavaScript is that request's; after a wait it
// may see a later request's. env is the same bindings for every request
// of an isolate; ctx (waitUntil, passThroughOnException) is per request,
// and the Go handler does not use it (the edge layer, edge.mjs, calls
// waitUntil itself).

/**
 * goShim returns the Worker's {fetch, scheduled} for the compiled module
 * mod of a Go program that serves with goshim.Serve.
 *
 * @param {WebAssembly.Module} mod
 * @param {{Go?: any, connect?: Function, instantiate?: (mod: any, imports: object) => any}} [opts]
 *   Go: wasm_exec.js's class (default globalThis.Go); connect: the
 *   runtime context's connect (cloudflare:sockets); instantiate: how to
 *   make an instance (default new WebAssembly.Instance), for tests.
 */
export function goShim(mod, opts = {}) {
  const instantiate = opts.instantiate ?? ((m, imports) => new WebAssembly.Instance(m, imports));
  /** the live instance, or null */
  let live = null;
  const stats = { starts: 0, exits: 0 };

  // kill drops instance g and fails the requests in it.
  function kill(g, err) {
    if (g.dead) return;
    g.dead = true;
    for (const reject of g.pending) reject(err);
    g.pending.clear();
  }

  // start instantiates the module and runs Go's main until it blocks.
  function start() {
    const Go = opts.Go ?? globalThis.Go;
    const go = new Go();
    const rc = { env: undefined, ctx: undefined, connect: opts.connect, binding: {} };
    const g = { go, rc, instance: null, dead: false, ready: false, exit: null, pending: new Set() };
    go.exit = (code) => {
      stats.exits++;
      g.exit = new Error(`the Go program exited with code ${code}`);
      kill(g, g.exit);
    };
    g.instance = instantiate(mod, {
      ...go.importObject,
      workers: { ready: () => { g.ready = true; } },
    });
    stats.starts++;
    // go.run returns a promise settled when the program exits; the exit
    // is learned from go.exit instead, synchronously, in the request
    // that caused it. That promise is made now, in this request; resolved
    // at the exit, in a later one, workerd would warn of a promise
    // resolved from another request's context, so it is never resolved.
    go.run(g.instance, rc).catch(() => { g.dead = true; });
    go._resolveExitPromise = () => {};
    if (!g.ready) {
      g.dead = true;
      throw g.exit ?? new Error("the Go program did not call workers.Ready while starting");
    }
    return g;
  }

  // call runs binding[method](arg) on the live instance (started if
  // needed) with env and ctx as the runtime context.
  async function call(method, arg, env, ctx) {
    if (live === null || live.dead) {
      live = null;
      live = start();
    }
    const g = live;
    const fn = g.rc.binding[method];
    if (typeof fn !== "function") {
      throw new TypeError(`the Go program has no ${method} (syumai/workers binding)`);
    }
    let reject;
    const exited = new Promise((_, r) => { reject = r; });
    exited.catch(() => {}); // settled after the race, or never raced
    g.pending.add(reject);
    g.rc.env = env;
    g.rc.ctx = ctx;
    try {
      let res;
      try {
        res = fn(arg);
      } catch (e) {
        // A call into Go throws only when the instance broke under it: it
        // exited (wasm_exec.js then fails on its deleted state) or trapped.
        kill(g, e);
        throw g.exit ?? e;
      }
      return await Promise.race([res, exited]);
    } finally {
      g.pending.delete(reject);
    }
  }

  return {
    fetch: (req, env, ctx) => call("handleRequest", req, env, ctx),
    scheduled: (event, env, ctx) => call("runScheduler", event, env, ctx),
    /** state reports the starts and exits so far and the live instance's memory in bytes (0: none). */
    state: () => ({
      starts: stats.starts,
      exits: stats.exits,
      memory: live && !live.dead ? live.instance.exports.mem.buffer.byteLength : 0,
    }),
  };
}

// tryCatch is what syumai/workers' Go code (internal/jsutil) calls to catch
// a JavaScript exception; its own shim defines it.
globalThis.tryCatch ??= (fn) => {
  try {
    return { result: fn() };
  } catch (e) {
    return { error: e };
  }
};
