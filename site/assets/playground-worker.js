// playground-worker.js: the dedicated Web Worker in which the playground
// computes its heavy widgets, so that the page keeps reacting meanwhile.
// app.js starts it with the module it has already compiled (a
// WebAssembly.Module is structured-cloneable: nothing is fetched or
// compiled twice; app.js has a worker of this script compile it, message
// compile, so that the page's main thread does not) and the Go runtime's environment (GOGC), and then sends
// it requests; the Go program, in its
// worker mode (wasm/playground/worker.go), registers
// self.retrylabCompute(request), which runs the calculator and renders the
// widget's output and citations in the page's language. A panic is
// recovered there and answered as {panic}; if the Go program itself stops,
// the page is told ({type: "exit"}) and starts a new worker when needed.
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
  r.id = m.id;
  r.type = 'result';
  self.postMessage(r);
}

self.onmessage = function (ev) {
  var m = ev.data;
  // compile: app.js's compileAside, a worker of its own that fetches and
  // compiles the module off the page's main thread, sends it back
  // ({type: "compiled", module}, or {type: "compile-error"}) and ends
  if (m.type === 'compile') {
    fetch(m.url, { priority: 'low' }).then(function (r) {
      if (!r.ok) { throw new Error('cannot load ' + m.url + ': ' + r.status); }
      return r.arrayBuffer();
    }).then(function (b) { return WebAssembly.compile(b); }).then(function (module) {
      self.postMessage({ type: 'compiled', module: module });
    }, function (e) {
      self.postMessage({ type: 'compile-error', error: String(e && e.message || e) });
    }).then(function () { self.close(); });
    return;
  }
  if (m.type === 'init') {
    self.retrylabPageData = m.data;
    self.retrylabWorkerReady = function () {
      ready = true;
      self.postMessage({ type: 'ready' });
      var q = queue;
      queue = [];
      for (var i = 0; i < q.length; i++) { answer(q[i]); }
    };
    try {
      importScripts(m.exec);
      var go = new self.Go();
      go.env = m.env || {}; // the page's (app.js goEnv): GOGC
      WebAssembly.instantiate(m.module, go.importObject).then(function (instance) {
        return go.run(instance);
      }).then(function () {
        self.postMessage({ type: 'exit' });
      }, function (e) {
        self.postMessage({ type: 'exit', error: String(e && e.message || e) });
      });
    } catch (e) {
      self.postMessage({ type: 'exit', error: String(e && e.message || e) });
    }
    return;
  }
  if (ready) { answer(m); } else { queue.push(m); }
};
