//go:build e2e

package e2e

import (
	"bytes"
	"net/http"
	"testing"
)

// TestEdgeCache: on workerd, the edge layer (worker/edge) answers a
// repeated question, in any spelling, from its cache with Go's bytes and
// ETag, and If-None-Match with that ETag with 304; a refusal is never kept.
func TestEdgeCache(t *testing.T) {
	get := func(path string, hdr ...string) answer {
		t.Helper()
		req, _ := http.NewRequest("GET", worker.URL+path, nil)
		for i := 0; i+1 < len(hdr); i += 2 {
			req.Header.Set(hdr[i], hdr[i+1])
		}
		res, err := client.Do(req)
		if err != nil {
			t.Fatalf("GET %s: %v", path, err)
		}
		defer res.Body.Close()
		var b bytes.Buffer
		b.ReadFrom(res.Body)
		return answer{res.StatusCode, res.Header, b.Bytes()}
	}
	for _, tc := range []struct{ first, again string }{
		{"/api/v1/attempts?q=0.123&n=7", "/api/v1/attempts?n=7.0&q=.1230"},
		{"/api/v1/jitter.svg?lang=zh&clients=321", "/api/v1/jitter.svg?clients=3.21e2&lang=zh"},
	} {
		a := get(tc.first)
		if a.Status != 200 || a.Header.Get("X-Edge-Cache") != "miss" || a.Header.Get("ETag") == "" {
			t.Fatalf("GET %s: %d, X-Edge-Cache %q, ETag %q; want 200, a miss with an ETag", tc.first, a.Status, a.Header.Get("X-Edge-Cache"), a.Header.Get("ETag"))
		}
		b := get(tc.again)
		if src := b.Header.Get("X-Edge-Cache"); b.Status != 200 || (src != "isolate" && src != "cache") || !bytes.Equal(a.Body, b.Body) || b.Header.Get("ETag") != a.Header.Get("ETag") {
			t.Errorf("GET %s after %s: %d, X-Edge-Cache %q, same body %v; want the kept answer", tc.again, tc.first, b.Status, src, bytes.Equal(a.Body, b.Body))
		}
		n := get(tc.first)
		if n.Status != 200 || !bytes.Equal(n.Body, nativeBody(t, tc.first)) {
			t.Errorf("GET %s: the kept answer differs from the native handler's", tc.first)
		}
		c := get(tc.again, "If-None-Match", a.Header.Get("ETag"))
		if c.Status != http.StatusNotModified || len(c.Body) != 0 || c.Header.Get("ETag") != a.Header.Get("ETag") {
			t.Errorf("GET %s If-None-Match %s: %d with %d bytes, ETag %q; want 304", tc.again, a.Header.Get("ETag"), c.Status, len(c.Body), c.Header.Get("ETag"))
		}
	}
	for i := 0; i < 2; i++ {
		if r := get("/api/v1/attempts?q=2"); r.Status != 400 || r.Header.Get("X-Edge-Cache") != "" {
			t.Errorf("GET /api/v1/attempts?q=2: %d, X-Edge-Cache %q; want Go's 400 every time", r.Status, r.Header.Get("X-Edge-Cache"))
		}
	}
}

// nativeBody returns the native handler's body for path.
func nativeBody(t *testing.T, path string) []byte {
	t.Helper()
	return do(t, "GET", native.URL+path).Body
}
