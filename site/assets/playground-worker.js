// playground-worker.js: the dedicated Web Worker in which the playground
// computes its heavy widgets, so that the page keeps reacting meanwhile.
// The Go program, in its worker mode (wasm/playground/worker.go), registers
// self.retrylabCompute(request), which runs the calculator and renders the
// widget's output and citations in the page's language. A panic is
// recovered there and answered as {panic}; if the Go program itself stops,
// the page is told ({type: "exit"}) and starts a new worker when needed.
//
// Two ways to start (app.js):
//   - message compile {url, exec, env, data}: the page's first worker
//     fetches the module, compiles it, starts the Go program on it, and
//     only then sends the WebAssembly.Module back ({type: "compiled",
//     module, running}). A module is structured-cloneable and its code is
//     shared, not compiled again; V8 compiles a function at its first
//     call, for every thread that runs the module: the Go runtime's start
//     and its packages' init, compiled here, cost the page's main thread
//     nothing when it starts the same module (wasm/playground/DOM.md, "Long
//     tasks, attributed"). The page then keeps this worker for its
//     computations (running: true), or ends it.
//   - message init {module, exec, env, data}: a worker started from the
//     module the page holds (a replacement, or where the first could not
//     run the program).
'use strict';
var ready = false;
var queue = [];

function answer(m) {
  var r;
  try {
    r = self.retrylabCompute(m);
  } catch (e) {
    r = { panic: String(e && e.message || e) };
  }
  // a warm-up's answer is dropped by the page: only whether it ran goes
  // back, not the output's HTML, which the page's main thread would
  // otherwise copy out of the message, again and again
  if (m.warm && !r.panic) { r = { ms: r.ms }; }
  r.id = m.id;
  r.type = 'result';
  self.postMessage(r);
}

// start runs the Go program on module in its worker mode, with the page's
// data and environment (m.data, m.env); onReady once it serves requests,
// onExit(error) if it stops (error: a text, or undefined once it returned).
function start(m, module, onReady, onExit) {
  self.retrylabPageData = m.data;
  self.retrylabWorkerReady = function () {
    ready = true;
    onReady();
    var q = queue;
    queue = [];
    for (var i = 0; i < q.length; i++) { answer(q[i]); }
  };
  var text = function (e) { return String(e && e.message || e); };
  try {
    importScripts(m.exec);
    var go = new self.Go();
    go.env = m.env || {}; // the page's (app.js goEnv): GOGC
    WebAssembly.instantiate(module, go.importObject).then(function (instance) {
      return go.run(instance);
    }).then(function () { onExit(undefined); }, function (e) { onExit(text(e)); });
  } catch (e) {
    onExit(text(e));
  }
}

self.onmessage = function (ev) {
  var m = ev.data;
  // compile: app.js's compileAside (above); a failure to compile is
  // {type: "compile-error"}, and the worker ends
  if (m.type === 'compile') {
    fetch(m.url, { priority: 'low' }).then(function (r) {
      if (!r.ok) { throw new Error('cannot load ' + m.url + ': ' + r.status); }
      return r.arrayBuffer();
    }).then(function (b) { return WebAssembly.compile(b); }).then(function (module) {
      var sent = false;
      var send = function (running) {
        if (sent) { return; }
        sent = true;
        self.postMessage({ type: 'compiled', module: module, running: running });
        if (!running) { self.close(); }
      };
      if (!m.exec) { send(false); return; }
      start(m, module, function () { send(true); }, function (err) {
        if (sent) { self.postMessage({ type: 'exit', error: err }); } else { send(false); }
      });
    }).catch(function (e) {
      self.postMessage({ type: 'compile-error', error: String(e && e.message || e) });
      self.close();
    });
    return;
  }
  if (m.type === 'init') {
    start(m, m.module, function () { self.postMessage({ type: 'ready' }); }, function (err) {
      self.postMessage({ type: 'exit', error: err });
    });
    return;
  }
  if (ready) { answer(m); } else { queue.push(m); }
};
