package goshim

import (
	"bytes"
	"net/http"
)

// recorder is the http.ResponseWriter Serve gives the handler: it keeps
// the whole response, so that it can be handed over at once. As
// net/http's, it takes the status of the first WriteHeader (200 when the
// handler writes without one, or writes nothing) and the headers as they
// were then.
type recorder struct {
	header http.Header
	sent   http.Header // header when the status was set; nil before
	code   int
	body   bytes.Buffer
}

func newRecorder() *recorder { return &recorder{header: http.Header{}} }

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(code int) {
	if r.sent != nil {
		return
	}
	r.code = code
	r.sent = r.header.Clone()
}

func (r *recorder) Write(b []byte) (int, error) {
	r.WriteHeader(http.StatusOK)
	return r.body.Write(b)
}

// result returns the status, the headers and the body of the response.
func (r *recorder) result() (int, http.Header, []byte) {
	r.WriteHeader(http.StatusOK)
	return r.code, r.sent, r.body.Bytes()
}
