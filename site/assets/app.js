// app.js: the page loader. It wires the theme toggle, then, on pages with
// widgets, loads the WebAssembly playground once: wasm_exec.js, then the
// module through WebAssembly.instantiateStreaming. Widgets show a loading
// state until the Go program signals that it is ready, by calling
// retrylabReady() or by setting data-ready on <html> itself (see
// docs/dom.md). Without WebAssembly, or when loading fails, the page stays
// the static page the build wrote: every result is already in it.
(function () {
  'use strict';
  if (window.retrylabLoader) { return; }
  window.retrylabLoader = true;
  var root = document.documentElement;

  function pageData() {
    var el = document.getElementById('retrylab-data');
    if (!el) { return {}; }
    try { return JSON.parse(el.textContent) || {}; } catch (e) { return {}; }
  }
  var data = pageData();

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

  var widgets = [];
  function setLoading(on) {
    for (var i = 0; i < widgets.length; i++) {
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
  }
  function fail(err) {
    root.setAttribute('data-ready', 'error');
    setLoading(false);
    if (window.console) { window.console.error('retrylab: the playground did not load; the page stays static.', err); }
  }
  // The Go program calls this once its widgets are live.
  window.retrylabReady = ready;

  function loadScript(src) {
    return new Promise(function (resolve, reject) {
      var s = document.createElement('script');
      s.src = src;
      s.onload = resolve;
      s.onerror = function () { reject(new Error('cannot load ' + src)); };
      document.head.appendChild(s);
    });
  }
  function instantiate(url, imports) {
    if (WebAssembly.instantiateStreaming) {
      return WebAssembly.instantiateStreaming(fetch(url), imports).catch(function () {
        // A static host that does not send application/wasm: compile from bytes.
        return fetch(url).then(function (r) { return r.arrayBuffer(); })
          .then(function (b) { return WebAssembly.instantiate(b, imports); });
      });
    }
    return fetch(url).then(function (r) { return r.arrayBuffer(); })
      .then(function (b) { return WebAssembly.instantiate(b, imports); });
  }
  function startPlayground() {
    widgets = Array.prototype.slice.call(document.querySelectorAll('[data-widget]'));
    if (!widgets.length || !data.wasm || !data.wasm_exec) { return; }
    if (typeof WebAssembly !== 'object' || typeof WebAssembly.instantiate !== 'function' ||
        typeof Promise === 'undefined' || typeof fetch !== 'function') {
      root.setAttribute('data-wasm', 'missing');
      return;
    }
    if (window.MutationObserver) {
      new MutationObserver(function () {
        if (root.getAttribute('data-ready') === 'true') { setLoading(false); }
      }).observe(root, { attributes: true, attributeFilter: ['data-ready'] });
    }
    setLoading(true);
    loadScript(data.wasm_exec).then(function () {
      var go = new window.Go();
      return instantiate(data.wasm, go.importObject).then(function (result) {
        go.run(result.instance).then(function () {
          // The Go program returned: widgets are no longer live.
          if (root.getAttribute('data-ready') !== 'true') { fail(new Error('exited before ready')); }
        });
      });
    }).catch(fail);
  }

  function start() {
    setupToggle();
    startPlayground();
  }
  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', start);
  } else {
    start();
  }
})();
