// Package playground is the browser side of retrylab's widgets: the
// program of the WebAssembly modules wasm/playground/NAME, one per
// calculator set of site/widget (Sets), each loaded once per page by
// site/assets/app.js. Main runs it on a set. It hydrates
// every [data-widget] the build rendered (wasm/playground/DOM.md): it reads the
// widget's parameters from the page and the URL query, listens to its
// controls, recomputes through the calculator registry on each animation
// frame that follows an input, re-renders the output and the prose
// citations with the renderer the build used (site/widget), and keeps the
// state in the URL (?ID.NAME=VALUE) so that a link shares what the reader
// sees. Every recompute runs under recover: a panic is reported in its
// widget and the others keep working. It writes nothing to the console.
//
// Test hooks, present only when the URL asks for them:
//   - ?debug-panic=ID: every recompute of widget ID panics (the e2e test
//     of panic isolation); window.__retrylabPanic(id) arms it for another.
//   - ?bench=1: window.__retrylabBench(id, query, n) recomputes widget id
//     n times with the parameters of query and returns the durations in
//     milliseconds (performance.now), for `make bench`. With ?bench=1, the
//     loader also starts the module with GOGC=N from ?gogc=N (see Main).
package playground
