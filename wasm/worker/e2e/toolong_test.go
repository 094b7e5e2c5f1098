//go:build e2e

package e2e

import (
	"strings"
	"testing"

	"retrylab/site/server"
)

// TestTooLongPaths: a path of 4,000 segments, or of more bytes or
// segments than site/server's MaxPathBytes and MaxPathSegments, is a 414
// with the API's JSON error and the native handler's headers, on the
// Worker as natively, the same bytes. The Worker's entry.mjs answers it
// before anything else reads the path (the edge layer, the Go program,
// the assets binding, which took time quadratic in the path's length: 3
// lookups per miss, about 0.6 s of workerd's CPU at 4,000 segments on a
// development machine). A path the assets layer sees first (no
// percent-escape, no empty segment: not in run_worker_first) costs that
// layer its own lookup before the Worker refuses it; that layer is
// Cloudflare's, not ours to change (TestTooLongPaths logs its CPU).
func TestTooLongPaths(t *testing.T) {
	long := strings.Repeat("a/", 4000)
	for _, p := range []string{
		"/" + long,
		"/it/" + long,
		"/api/v1/" + long,
		"/api/v1/jitter.svg/" + long,
		"/x%41/" + long, // run_worker_first: a percent-escape
		"/a//" + long,   // run_worker_first: an empty segment
		"/it/" + strings.Repeat("a/", server.MaxPathSegments-1),
		"/" + strings.Repeat("a", server.MaxPathBytes),
	} {
		before, _ := worker.CPU()
		w, n := rawDo(t, "GET", worker.URL, p), rawDo(t, "GET", native.URL, p)
		after, _ := worker.CPU()
		t.Logf("GET %.20s… (%d bytes): Worker %d, workerd CPU %v", p, len(p), w.Status, after-before)
		if w.Status != 414 {
			t.Errorf("GET %.40s… (%d bytes): Worker %d, want 414", p, len(p), w.Status)
		}
		same(t, p, w, n)
		if !strings.Contains(string(w.Body), `"code":"uri_too_long"`) {
			t.Errorf("GET %.40s…: body %q", p, w.Body)
		}
	}
	at := "/it/" + strings.Repeat("a/", server.MaxPathSegments-2) // at the bound: the 404 page
	w, n := rawDo(t, "GET", worker.URL, at), rawDo(t, "GET", native.URL, at)
	if w.Status != 404 {
		t.Errorf("GET %s: Worker %d, want 404", at, w.Status)
	}
	same(t, at, w, n)
}
