package goshim

import (
	"io"
	"net/http"
	"testing"
)

// TestRecorder: the status of the first WriteHeader, 200 by default, the
// headers as they were when the status was set, the body whole.
func TestRecorder(t *testing.T) {
	for _, tc := range []struct {
		name   string
		h      http.HandlerFunc
		code   int
		header string // X-A
		body   string
	}{
		{"nothing written", func(w http.ResponseWriter, r *http.Request) {}, 200, "", ""},
		{"body only", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("X-A", "1")
			io.WriteString(w, "ab")
			io.WriteString(w, "c")
		}, 200, "1", "abc"},
		{"status, then a late header", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("X-A", "1")
			w.WriteHeader(404)
			w.Header().Set("X-A", "2")
			w.WriteHeader(500)
			io.WriteString(w, "gone")
		}, 404, "1", "gone"},
		{"header after the first write", func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, "x")
			w.Header().Set("X-A", "late")
		}, 200, "", "x"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := newRecorder()
			tc.h(rec, nil)
			code, h, body := rec.result()
			if code != tc.code || h.Get("X-A") != tc.header || string(body) != tc.body {
				t.Errorf("got %d, X-A %q, body %q; want %d, %q, %q", code, h.Get("X-A"), body, tc.code, tc.header, tc.body)
			}
		})
	}
}
