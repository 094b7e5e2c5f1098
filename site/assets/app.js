// app.js: the page loader. It wires the theme toggle, then, on pages with
// widgets, loads the WebAssembly playground once: the page's own content
// first, then, once the page is parsed and has been painted (or as soon as
// a widget nears the viewport), it fetches the module at low priority and
// compiles its bytes in a worker (WebAssembly.compile there, the module
// sent back) in parallel with loading wasm_exec.js, and instantiates and
// runs it. Widgets show a
// loading state until the Go program signals that it is ready, by calling
// retrylabReady() or by setting data-ready on <html> itself (see
// wasm/playground/DOM.md). Without WebAssembly, or when loading fails, the page stays
// the static page the build wrote: every result is already in it.
(function () {
  'use strict';
  if (window.retrylabLoader) { return; }
  window.retrylabLoader = true;
  // performance marks of the loading steps, read by `make bench`
  // (site/e2e/cmd/wasmbench); they cost nothing and print nothing.
  function mark(name) {
    if (window.performance && performance.mark) { performance.mark('retrylab:' + name); }
  }
  mark('app');
  var root = document.documentElement;

  function pageData() {
    var el = document.getElementById('retrylab-data');
    if (!el) { return {}; }
    try { return JSON.parse(el.textContent) || {}; } catch (e) { return {}; }
  }

  // Theme toggle: light <-> dark, remembered in localStorage.
  function effectiveTheme() {
    var t = root.getAttribute('data-theme');
    if (t === 'light' || t === 'dark') { return t; }
    return window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  }
  function setupToggle() {
    var buttons = document.querySelectorAll('[data-theme-toggle]');
    function sync() {
      var dark = effectiveTheme() === 'dark';
      for (var i = 0; i < buttons.length; i++) {
        buttons[i].setAttribute('aria-pressed', dark ? 'true' : 'false');
      }
    }
    for (var i = 0; i < buttons.length; i++) {
      buttons[i].hidden = false;
      buttons[i].addEventListener('click', function () {
        var next = effectiveTheme() === 'dark' ? 'light' : 'dark';
        root.setAttribute('data-theme', next);
        try { window.localStorage.setItem('retrylab-theme', next); } catch (e) { /* not remembered */ }
        sync();
      });
    }
    sync();
  }

  // goEnv is the environment the Go runtime reads at start (wasm_exec.js
  // passes go.env to it), the page's and the worker's alike. GOGC=400: the
  // heap may grow to five times what is live before a collection, which
  // would otherwise stop the page for milliseconds every few recomputes
  // (the measurements are in wasm/playground/app.go). Only with ?bench=1,
  // ?gogc=N (or off) sets another, for make bench -gc.
  // It is read once, before the playground rewrites the query.
  var goEnv = (function () {
    var env = { GOGC: '400' };
    var m = /[?&]bench=1(&|$)/.test(location.search) && /[?&]gogc=(\d+|off)(&|$)/.exec(location.search);
    if (m) { env.GOGC = m[1]; }
    return env;
  })();

  var widgets = [];
  // setLoading(false) clears the loading state of the widgets the Go
  // program has hydrated (data-hydrated); the others keep it until it
  // hydrates them, as they near the viewport (wasm/playground/lazy.go).
  function setLoading(on) {
    for (var i = 0; i < widgets.length; i++) {
      if (!on && root.getAttribute('data-ready') !== 'error' && !widgets[i].hasAttribute('data-hydrated')) { continue; }
      if (on) {
        widgets[i].setAttribute('data-loading', '');
        widgets[i].setAttribute('aria-busy', 'true');
      } else {
        widgets[i].removeAttribute('data-loading');
        widgets[i].removeAttribute('aria-busy');
      }
    }
  }
  function ready() {
    if (root.getAttribute('data-ready') !== 'true') { root.setAttribute('data-ready', 'true'); }
    setLoading(false);
    if (warmOpen === 0 && warmWaits) {
      warmWaits = false;
      root.setAttribute('data-warm', 'done');
    }
  }
  function fail(err) {
    root.setAttribute('data-ready', 'error');
    setLoading(false);
    if (window.console) { window.console.error('retrylab: the playground did not load; the page stays static.', err); }
  }
  // The Go program calls this once its widgets are live (run sets it to
  // the module's own on a page of several).
  window.retrylabReady = ready;

  function loadScript(src) {
    return new Promise(function (resolve, reject) {
      var s = document.createElement('script');
      s.src = src;
      s.fetchPriority = 'low';
      s.onload = function () { mark('wasm_exec'); resolve(); };
      s.onerror = function () { reject(new Error('cannot load ' + src)); };
      document.head.appendChild(s);
    });
  }
  // The module is fetched at low priority: the page's own requests (style
  // sheets, fonts, images of the article) go first on a slow network.
  function fetchLow(url) {
    try { return fetch(url, { priority: 'low' }); } catch (e) { return fetch(url); }
  }
  function compileBytes(url) {
    return fetchLow(url).then(function (r) {
      if (!r.ok) { throw new Error('cannot load ' + url + ': ' + r.status); }
      return r.arrayBuffer();
    }).then(function (b) { return WebAssembly.compile(b); });
  }
  // compileAside has a worker of its own (playground-worker.js, message
  // compile) fetch and compile the module and start the Go program on it,
  // and resolves to {module, worker} once the program runs there: the
  // compiled WebAssembly.Module (it is structured-cloneable: the code is
  // shared, not compiled again) and the worker, kept for the page's
  // computations (makeBridge adopt), or null where the program could not
  // start there. Off the page's main thread: even WebAssembly.compile of an
  // array of bytes leaves tasks of 200-340 ms on a phone's main thread
  // (Chromium 156, 4x slower CPU: site/e2e/cmd/longtasks), and
  // compileStreaming more; and V8 compiles each function at its first call,
  // for every thread that runs the module: the runtime's start and the
  // packages' init, compiled in the worker first, are 40-60 ms on the
  // page's main thread instead of 250-430 ms (wasm/playground/DOM.md). It
  // resolves to null where no worker can do it (no Worker, a failed start,
  // a module that cannot be sent back): the caller compiles here then.
  function compileAside(url, workerURL) {
    if (!workerURL || typeof Worker !== 'function') { return Promise.resolve(null); }
    return new Promise(function (resolve) {
      var w, out = null;
      var done = function (r) {
        if (out) { return; }
        out = r || {};
        if (w && !out.worker) { w.terminate(); }
        resolve(r);
      };
      // after the answer, until the bridge adopts the worker: a program
      // that stopped leaves no worker to adopt
      var gone = function () {
        if (out && out.worker) { out.worker.terminate(); out.worker = null; }
      };
      try {
        w = new Worker(workerURL);
      } catch (e) {
        done(null);
        return;
      }
      w.onmessage = function (ev) {
        var m = ev.data || {};
        if (out) {
          if (m.type === 'exit') { gone(); }
          return;
        }
        done(m.type === 'compiled' && m.module instanceof WebAssembly.Module ? { module: m.module, worker: m.running ? w : null } : null);
      };
      w.onerror = function (ev) {
        if (ev && ev.preventDefault) { ev.preventDefault(); }
        if (out) { gone(); } else { done(null); }
      };
      w.onmessageerror = function () { if (out) { gone(); } else { done(null); } };
      w.postMessage({ type: 'compile', url: new URL(url, location.href).href, exec: workerSrc.exec, env: goEnv, data: workerSrc.data });
    });
  }
  // compile fetches the module's bytes and compiles them, in a worker
  // (compileAside) or else here (WebAssembly.compile), not by streaming:
  // Chromium decodes a streamed module on the page's main thread as the
  // bytes arrive. Functions are compiled lazily, at their first call, so
  // nothing is lost by waiting for the last byte. It resolves to {module,
  // worker}: worker, compileAside's, or null.
  function compile(url) {
    return compileAside(url, workerSrc && workerSrc.url).then(function (r) {
      return r || compileBytes(url).then(function (m) { return { module: m, worker: null }; });
    }).then(function (r) { mark('compiled'); return r; });
  }
  function hasWasm() {
    return typeof WebAssembly === 'object' && typeof WebAssembly.instantiate === 'function' &&
      typeof Promise !== 'undefined' && typeof fetch === 'function';
  }
  // load returns the promises of the compiled module at url and of
  // wasm_exec.js (loaded once for every module), started when due.
  var execLoading = null;
  function load(url, exec) {
    if (!execLoading) {
      execLoading = loadScript(exec);
      execLoading.catch(function () {}); // awaited later; not unhandled meanwhile
    }
    var module = compile(url);
    module.catch(function () {});
    return { module: module, exec: execLoading };
  }
  // On pages with widgets the build writes the module's address on this
  // script's own tag (async, in <head>); the page data (below) says it
  // too, for other loaders.
  var script = document.currentScript;
  var early = null;
  if (script && script.getAttribute('data-wasm') && script.getAttribute('data-wasm-exec')) {
    early = { wasm: script.getAttribute('data-wasm'), wasm_exec: script.getAttribute('data-wasm-exec'),
      worker: script.getAttribute('data-worker'), several: script.hasAttribute('data-modules') };
  }

  // due calls start once, when the module should load: after the page's
  // first paint (two frames after it is parsed: the page's own content is
  // on the screen and its requests have gone first), or earlier when a
  // widget is within a screen of the viewport (an embed, a link to a
  // widget's anchor). Measured with Lighthouse 12 on the article pages
  // (docs/dom.md): fetching the module while the page loads delays the
  // page's content on a slow network; after the first paint it does not,
  // and the reader who scrolls to a widget finds it live.
  function due(start) {
    var done = false, io = null;
    function once() {
      if (done) { return; }
      done = true;
      if (io) { io.disconnect(); }
      start();
    }
    if (window.IntersectionObserver) {
      io = new IntersectionObserver(function (entries) {
        for (var i = 0; i < entries.length; i++) { if (entries[i].isIntersecting) { once(); return; } }
      }, { rootMargin: '100% 0px' });
      for (var i = 0; i < widgets.length; i++) { io.observe(widgets[i]); }
    }
    if (window.requestAnimationFrame) {
      requestAnimationFrame(function () { requestAnimationFrame(function () { setTimeout(once, 0); }); });
    } else {
      setTimeout(once, 0);
    }
  }

  // The worker (playground-worker.js) in which the Go program computes its
  // heavy widgets: started for the warm-up once the page is idle
  // (retrylabWarm, below) or when first needed, with the module compiled
  // here. retrylabCompute(request, callback) posts a request and returns
  // true, or returns false when this browser cannot run the worker (the
  // widget then computes on the main thread). callback receives the
  // worker's answer, {unavailable: true} if the worker could not start, or
  // {panic} if it stopped.
  // A page that loads several modules (the playground: one per article)
  // has a worker per module, each started from its own module: a bridge
  // per module (makeBridge), chosen by the request's calculator.
  var workerSrc = null;  // {url, exec, data}
  var warmOpen = 0;      // warm-ups under way, of every module
  var warmWaits = false; // they are over, but a module is not ready yet
  var bridges = {};      // module name -> bridge
  var calcModule = {};   // calculator -> module name (pages of several modules)
  var firstBridge = null;
  // warmEnded counts a warm-up over: <html data-warm="done"> once every
  // module is ready and no warm-up runs.
  function warmEnded() {
    warmOpen--;
    if (warmOpen !== 0) { return; }
    if (root.getAttribute('data-ready') === 'true') {
      root.setAttribute('data-warm', 'done');
    } else {
      warmWaits = true;
    }
  }
  function makeBridge() {
    var compiled = null;   // the WebAssembly.Module
    var worker = null, workerReady = false, workerDead = false;
    // spare: compileAside's answer, whose worker (when not null) compiled
    // the module and runs the Go program: the bridge's first worker, once
    // one is needed (takeSpare), instead of starting another
    var spare = null;
    var pending = {}, nextID = 1;
    var warmStop = null;   // ends the warm-up (warm) while it runs
    function settle(ans) {
      var p = pending;
      pending = {};
      for (var id in p) { if (Object.prototype.hasOwnProperty.call(p, id)) { p[id](ans); } }
    }
    function workerStopped(why) {
      var wasReady = workerReady;
      if (worker) { worker.terminate(); }
      worker = null;
      workerReady = false;
      if (wasReady) {
        settle({ panic: 'the worker stopped' + (why ? ': ' + why : '') });
      } else {
        workerDead = true;
        settle({ unavailable: true });
      }
    }
    // attach makes w the bridge's worker, counted in <html
    // data-worker-starts="N">: how many workers the page started (ahead,
    // on demand, or replacing one), for tests and the curious.
    function attach(w) {
      worker = w;
      root.setAttribute('data-worker-starts', String((parseInt(root.getAttribute('data-worker-starts'), 10) || 0) + 1));
      worker.onmessage = function (ev) {
        var m = ev.data || {};
        if (m.type === 'ready') { workerReady = true; return; }
        if (m.type === 'exit') { workerStopped(m.error); return; }
        var cb = pending[m.id];
        delete pending[m.id];
        if (cb) { cb(m); }
      };
      worker.onerror = function (ev) {
        if (ev && ev.preventDefault) { ev.preventDefault(); }
        workerStopped(ev && ev.message);
      };
      worker.onmessageerror = null;
    }
    function startWorker() {
      attach(new Worker(workerSrc.url));
      worker.postMessage({ type: 'init', module: compiled, exec: workerSrc.exec, data: workerSrc.data, env: goEnv });
    }
    // takeSpare makes the spare worker, if its program still runs, the
    // bridge's, ready at once; it reports whether it did.
    function takeSpare() {
      var w = spare && spare.worker;
      spare = null;
      if (!w) { return false; }
      attach(w);
      workerReady = true;
      return true;
    }
    // dropSpare ends the spare worker: a frame without heavy widgets keeps
    // none, nor a one-core browser.
    function dropSpare() {
      if (spare && spare.worker) { spare.worker.terminate(); }
      spare = null;
    }
    function canWork() {
      return !workerDead && compiled && workerSrc && workerSrc.url;
    }
    // tryStartWorker starts a worker and reports whether it could.
    function tryStartWorker() {
      try { startWorker(); return true; } catch (e) { workerDead = true; worker = null; return false; }
    }
    function pendingCount() {
      var n = 0;
      for (var id in pending) { if (Object.prototype.hasOwnProperty.call(pending, id)) { n++; } }
      return n;
    }
    function compute(req, cb) {
      if (!canWork()) { return false; }
      if (!worker && !takeSpare() && !tryStartWorker()) { return false; }
      var id = nextID++;
      req.id = id;
      pending[id] = cb;
      worker.postMessage(req);
      return true;
    }
    // A newer input supersedes a long request: when that request is the
    // only one pending, the worker is terminated (its answer would be
    // dropped anyway) and a new one started from the same module. Returns
    // whether it did; the caller then sends the newer request at once.
    function restart() {
      if (!worker || !workerReady || pendingCount() !== 1) { return false; }
      worker.terminate();
      worker = null;
      workerReady = false;
      pending = {};
      if (warmStop) { warmStop(); } // its request in flight is gone too
      tryStartWorker();
      return true;
    }
    // The Go program hands over, once its widgets are live, one request per
    // widget at the page's values: once the page is idle, the worker starts
    // (ahead of the first heavy recompute) and computes them again and again
    // for a while (below), one at a time and only while no real request waits.
    // The worker runs the same compiled module, whose code the engine
    // compiles on first use and optimizes once it is hot for every thread
    // that runs it; so the reader's first edits, in the worker or on the
    // main thread, run optimized code (measured in wasm/playground/DOM.md). The
    // answers are dropped. <html data-warm="done"> when every module's is over.
    // In a frame (an embed: a host page may hold several) there are no
    // rounds: the worker only starts ahead when heavy says a widget needs it.
    function warm(reqs, heavy) {
      // at most 40 rounds, and 2 s from the first answer (the worker's start
      // is not counted): some 0.5 s on a laptop, 2 s on a slow two-core box
      var budgetMS = 2000, rounds = 40;
      var framed = true;
      try { framed = window.self !== window.top; } catch (e) { /* cross-origin parent: framed */ }
      var t0 = 0, i = 0, ended = false;
      var done = function () {
        if (ended) { return; } // counted once
        ended = true;
        warmStop = null;
        warmEnded();
      };
      // a warm-up already running on this bridge (another module's
      // widgets on a page of several, or a second call) ends first, counted
      if (warmStop) { warmStop(); }
      warmOpen++;
      warmStop = done;
      var step = function () {
        if (warmStop !== done) { return; }
        if (!reqs || !reqs.length || i >= rounds * reqs.length || (t0 && performance.now() - t0 > budgetMS)) { done(); return; }
        if (i > 0 && !t0) { t0 = performance.now(); } // the first answer is in: the worker runs
        if (pendingCount() > 0) { setTimeout(step, 50); return; }
        // (compute sets the request's id and posts a copy of it; fresh:
        // computed whole every round, not taken from the worker's memo;
        // warm: answered without its HTML, playground-worker.js)
        var r = reqs[i++ % reqs.length];
        r.fresh = true;
        r.warm = true;
        var sent = compute(r, function (ans) {
          if (warmStop !== done) { return; } // ended meanwhile
          if (ans && (ans.unavailable || ans.panic)) { done(); return; }
          step();
        });
        if (!sent) { done(); }
      };
      var go = function () {
        // one core only: the worker would take it from the page
        if (!canWork() || (navigator.hardwareConcurrency && navigator.hardwareConcurrency < 2)) { dropSpare(); done(); return; }
        if (framed) {
          if (heavy && !worker && !takeSpare()) { tryStartWorker(); }
          if (!heavy) { dropSpare(); }
          done();
          return;
        }
        step();
      };
      if (window.requestIdleCallback) { window.requestIdleCallback(go, { timeout: 2000 }); } else { setTimeout(go, 500); }
    }
    // adopt takes compile's answer: the module, and its worker as the spare
    function adopt(r) {
      compiled = r.module;
      if (r.worker) { spare = r; }
    }
    return { compute: compute, restart: restart, warm: warm, adopt: adopt };
  }
  // bridge returns the bridge of module name, made at its first use.
  function bridge(name) {
    if (!bridges[name]) {
      bridges[name] = makeBridge();
      if (!firstBridge) { firstBridge = bridges[name]; }
    }
    return bridges[name];
  }
  // bridgeFor returns the bridge of the module that draws calculator calc
  // (the page's only module on a page of one).
  function bridgeFor(calc) {
    var name = calc && calcModule[calc];
    return (name && bridges[name]) || firstBridge;
  }
  // The worker's answers to the page's latest requests, by what a request
  // asks (calculator, query, views, citations): a request asked again (a
  // reader who drags a slider back, flips a choice back, turns a policy
  // off and on again) is answered from here at once, without the worker.
  // The module is a pure function of the request (the seed is a
  // parameter; core/ reads no clock), so the same request has the same
  // answer. The least recently used go first: at most answersMax answers
  // and answersChars characters of their HTML (some 10 MB of strings).
  // Results and refusals are kept, a panic or an unavailable worker never,
  // nor a request that forces a panic. <html data-answers-reused="N">
  // counts the answers given again, for tests and the curious. With
  // ?bench=1 nothing is kept: make bench times the computation.
  var bench = /[?&]bench=1(&|$)/.test(location.search);
  var answers = typeof Map === 'function' && !bench ? new Map() : null;
  var answersMax = 32, answersChars = 5e6, answersSize = 0;
  function answerKey(req) {
    if (!answers || !req || req.panic) { return ''; }
    return [req.calc, req.query, req.views, JSON.stringify(req.cites || [])].join('\u0000');
  }
  function answerSize(ans) { return (ans.html || '').length + (ans.message || '').length + 1; }
  function remember(key, ans) {
    if (!ans || ans.panic || ans.unavailable || answerSize(ans) > answersChars) { return; }
    if (answers.has(key)) { answersSize -= answerSize(answers.get(key)); answers.delete(key); }
    answers.set(key, ans);
    answersSize += answerSize(ans);
    var it = answers.keys();
    while (answers.size > answersMax || answersSize > answersChars) {
      var old = it.next().value;
      answersSize -= answerSize(answers.get(old));
      answers.delete(old);
    }
  }
  if (typeof Worker === 'function') {
    window.retrylabCompute = function (req, cb) {
      var b = bridgeFor(req && req.calc);
      if (!b) { return false; }
      if (bench && req) { req.fresh = true; } // nor the worker's memo (calc.Memo)
      var key = answerKey(req);
      var ans = key && answers.get(key);
      if (ans) {
        // the most recent now; answered after this call returns, as the
        // worker's answers are (the caller counts the request in flight
        // when this returns true)
        answers.delete(key);
        answers.set(key, ans);
        root.setAttribute('data-answers-reused', String((parseInt(root.getAttribute('data-answers-reused'), 10) || 0) + 1));
        Promise.resolve().then(function () { cb(ans); });
        return true;
      }
      return b.compute(req, key ? function (a) { remember(key, a); cb(a); } : cb);
    };
    // retrylabRestartWorker(calc): the worker of calc's module
    window.retrylabRestartWorker = function (calc) {
      var b = bridgeFor(calc);
      return b ? b.restart() : false;
    };
    window.retrylabWarm = function (reqs, heavy) {
      var b = bridgeFor(reqs && reqs.length ? reqs[0].calc : '');
      // no request (no widget hydrated yet: wasm/playground/lazy.go) and
      // no heavy widget: nothing to warm, and a module's warm-up must not
      // replace another's on the same bridge
      if (b && ((reqs && reqs.length) || heavy)) { b.warm(reqs, heavy); } else { warmOpen++; warmEnded(); }
    };
  }

  function startPlayground() {
    widgets = Array.prototype.slice.call(document.querySelectorAll('[data-widget]'));
    var src = early || pageData(); // read once the page is parsed
    if (!widgets.length || !src.wasm || !src.wasm_exec) { return; }
    if (!hasWasm()) {
      root.setAttribute('data-wasm', 'missing');
      return;
    }
    if (window.MutationObserver) {
      new MutationObserver(function () {
        if (root.getAttribute('data-ready') === 'true') { setLoading(false); }
      }).observe(root, { attributes: true, attributeFilter: ['data-ready'] });
    }
    var el = document.getElementById('retrylab-data');
    // the page data is parsed only when the tag does not say it all (it
    // holds the page's strings: a long parse on a phone)
    var data = early && !early.several ? early : (early ? pageData() : src);
    workerSrc = { url: src.worker || data.worker, exec: src.wasm_exec, data: el ? el.textContent : '' };
    var mods = data.modules && data.modules.length > 1 ? order(data.modules) : [{ name: '', wasm: src.wasm }];
    setLoading(true);
    due(function () { runAll(mods, src.wasm_exec); });
  }

  // order marks each widget with the module that draws it (data-module:
  // the Go program of every other module leaves it alone) and returns the
  // modules in the order they load, one after the other, each when the one
  // before is ready: the module of the widget the address points to
  // (#ID, or an element inside it) first, then in the order of the page.
  // (Not by measuring where the widgets are: that forces a layout of the
  // whole page, a long task on a phone.)
  function order(mods) {
    for (var i = 0; i < mods.length; i++) {
      for (var j = 0; j < (mods[i].calcs || []).length; j++) { calcModule[mods[i].calcs[j]] = mods[i].name; }
    }
    for (var k = 0; k < widgets.length; k++) {
      var name = calcModule[widgets[k].getAttribute('data-widget')];
      if (name) { widgets[k].setAttribute('data-module', name); }
    }
    var first = null;
    try {
      var target = location.hash.length > 1 && document.getElementById(decodeURIComponent(location.hash.slice(1)));
      var w = target && target.closest && target.closest('[data-module]');
      first = w ? w.getAttribute('data-module') : null;
    } catch (e) { /* a malformed fragment: the page's order */ }
    var out = mods.slice();
    out.sort(function (a, b) { return (b.name === first) - (a.name === first) || mods.indexOf(a) - mods.indexOf(b); });
    return out;
  }

  // nextTask resolves in a new task of the event loop, after what waits
  // (input, rendering).
  function nextTask() {
    return new Promise(function (resolve) { setTimeout(resolve, 0); });
  }

  // runAll runs the modules one after the other: each is fetched and
  // compiled while the one before starts, and started once it is ready
  // (the Go program calls retrylabReady), so that two never hydrate at
  // once. The page is ready (data-ready="true") when the last one is.
  function runAll(mods, exec) {
    var loads = [load(mods[0].wasm, exec)];
    var next = function (i) {
      if (i + 1 < mods.length) { loads[i + 1] = load(mods[i + 1].wasm, exec); }
      var own = [];
      for (var k = 0; k < widgets.length; k++) {
        if (!mods[i].name || widgets[k].getAttribute('data-module') === mods[i].name) { own.push(widgets[k]); }
      }
      window.retrylabReady = i + 1 < mods.length ? function () {
        for (var k = 0; k < own.length; k++) {
          if (!own[k].hasAttribute('data-hydrated')) { continue; } // later, by the Go program
          own[k].removeAttribute('data-loading');
          own[k].removeAttribute('aria-busy');
        }
        nextTask().then(function () { next(i + 1); });
      } : ready;
      run(mods[i].name, loads[i], i + 1 === mods.length);
    };
    next(0);
  }

  function run(name, l, last) {
    Promise.all([l.module, l.exec]).then(function (r) {
      bridge(name).adopt(r[0]);
      var go = new window.Go();
      go.env = goEnv;
      // instantiating and starting the runtime each in a task of their
      // own (nextTask): no long task blocks the page (the Go program
      // then hydrates one widget per task)
      return nextTask().then(function () {
        return WebAssembly.instantiate(r[0].module, go.importObject);
      }).then(function (instance) {
        if (last) { mark('instantiated'); }
        return nextTask().then(function () {
          go.run(instance).then(function () {
            // The Go program returned: widgets are no longer live.
            if (root.getAttribute('data-ready') !== 'true') { fail(new Error('exited before ready')); }
          });
        });
      });
    }).catch(fail);
  }

  // Copy buttons of code blocks (the configure widget's snippets): a
  // [data-copy] button copies the text of the <pre data-snippet> of the
  // same name. Delegated, since the playground redraws the widgets; the
  // buttons are shown (widget.css) only where the Clipboard API exists.
  function setupCopy() {
    if (!(navigator.clipboard && navigator.clipboard.writeText)) { return; }
    root.setAttribute('data-clipboard', 'true');
    document.addEventListener('click', function (ev) {
      var t = ev.target;
      var btn = t && t.closest ? t.closest('[data-copy]') : null;
      if (!btn) { return; }
      var pre = document.querySelector('pre[data-snippet="' + btn.getAttribute('data-copy') + '"]');
      if (!pre) { return; }
      navigator.clipboard.writeText(pre.textContent).then(function () {
        var label = btn.textContent;
        btn.textContent = btn.getAttribute('data-copied') || label;
        setTimeout(function () { btn.textContent = label; }, 1500);
      }, function () { /* not copied: the text stays selectable */ });
    });
  }

  // A widget's picture sticks to the bottom of a phone's screen only while
  // the widget is on the screen (data-in-view on [data-widget], read by
  // widget.css). Stuck, a picture whose widget is still below the screen
  // is lifted to the widget's top, over its controls: out of sight, but
  // a control half under it is a touch target the browser cannot reach
  // (axe's target-size, which Lighthouse scores). Without an observer,
  // or without JavaScript, no picture sticks: nothing would change it.
  function setupInView() {
    var ws = document.querySelectorAll('[data-widget]');
    if (!ws.length || !window.IntersectionObserver) { return; }
    var io = new IntersectionObserver(function (entries) {
      for (var i = 0; i < entries.length; i++) {
        var e = entries[i];
        if (e.isIntersecting) { e.target.setAttribute('data-in-view', ''); } else { e.target.removeAttribute('data-in-view'); }
      }
    });
    for (var i = 0; i < ws.length; i++) { io.observe(ws[i]); }
  }

  function start() {
    setupToggle();
    setupCopy();
    setupInView();
    startPlayground();
  }
  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', start);
  } else {
    start();
  }
})();
