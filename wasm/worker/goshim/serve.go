//go:build js && wasm

package goshim

import (
	"net/http"
	"syscall/js"

	"github.com/syumai/workers"
)

// Serve serves h through syumai/workers for the life of the Go instance
// (it never returns): workers.ServeNonBlock, workers.Ready, then it blocks
// while goshim.mjs calls the binding's handleRequest for each request.
// The program must call it from main without awaiting JavaScript first:
// goshim.mjs expects Ready during the instance's start.
//
// Each response is buffered whole (see recorder) and given to
// syumai/workers as a raw JavaScript body (a Uint8Array, or null when
// empty), so that:
//
//   - the library's appCloser is never closed: it closes workers.Done()'s
//     channel, which a second response would close again and panic; here
//     Done() stays open for the life of the instance;
//   - the response is complete when its request's handleRequest promise
//     resolves: nothing of one request streams from Go while another
//     request's code runs (workerd ties streams to the request that made
//     them).
//
// HEAD is answered as GET: the runtime drops the body, as HTTP requires of
// HEAD, and the headers (Content-Length) are GET's.
func Serve(h http.Handler) {
	workers.ServeNonBlock(buffered(h))
	workers.Ready()
	select {}
}

// rawBodyWriter is the method of syumai/workers' ResponseWriter
// (internal/jshttp) that sets the response's body to a JavaScript value.
type rawBodyWriter interface {
	WriteRawJSBody(body js.Value)
}

func buffered(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, ok := w.(rawBodyWriter)
		if !ok {
			// Not syumai/workers' writer (a version that lacks the
			// method): the library's streaming would end the program.
			panic("goshim: the ResponseWriter of syumai/workers has no WriteRawJSBody")
		}
		if r.Method == http.MethodHead {
			r = r.Clone(r.Context())
			r.Method = http.MethodGet
		}
		rec := newRecorder()
		h.ServeHTTP(rec, r)
		code, header, body := rec.result()
		for k, v := range header {
			w.Header()[k] = v
		}
		w.WriteHeader(code)
		b := js.Null()
		if len(body) > 0 {
			b = js.Global().Get("Uint8Array").New(len(body))
			js.CopyBytesToJS(b, body)
		}
		raw.WriteRawJSBody(b)
	})
}
