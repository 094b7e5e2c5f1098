package server

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestTooLong: a path past MaxPathBytes or MaxPathSegments is a 414 with
// the API's JSON error and the site's headers, for the API, the charts and
// the pages alike; a path at the bounds is read as usual (404 here).
func TestTooLong(t *testing.T) {
	h := New(Config{Dist: testDist()})
	seg := func(prefix string, n int) string { // prefix + segments up to n '/' in all
		return prefix + strings.Repeat("a/", n-strings.Count(prefix, "/"))
	}
	for _, tt := range []struct {
		what, target string
		status       int
	}{
		{"4,000 segments", "/" + strings.Repeat("a/", 4000), 414},
		{"4,000 segments of the API", "/api/v1/" + strings.Repeat("a/", 4000), 414},
		{"4,000 segments of a chart", "/api/v1/jitter.svg/" + strings.Repeat("a/", 4000), 414},
		{"segments past the bound", seg("/it/", MaxPathSegments+1), 414},
		{"segments at the bound", seg("/it/", MaxPathSegments), 404},
		{"bytes past the bound", "/" + strings.Repeat("a", MaxPathBytes), 414},
		{"bytes at the bound", "/" + strings.Repeat("a", MaxPathBytes-1), 404},
		{"escaped bytes past the bound", "/" + strings.Repeat("%61", MaxPathBytes/3+1), 414},
		{"a long query is not a long path", "/api/v1/attempts?q=0.5&" + strings.Repeat("n=3&", 1), 200},
	} {
		for _, method := range []string{"GET", "HEAD"} {
			w := do(t, h, method, tt.target)
			if w.Code != tt.status {
				t.Errorf("%s %s: %d, want %d", method, tt.what, w.Code, tt.status)
				continue
			}
			if tt.status != http.StatusRequestURITooLong {
				continue
			}
			checkSecurity(t, w, tt.what)
			var e apiError
			if method == "GET" && (json.Unmarshal(w.Body.Bytes(), &e) != nil || e.Error.Code != "uri_too_long" || !strings.Contains(e.Error.Message, "segments")) {
				t.Errorf("%s: body %q", tt.what, w.Body.String())
			}
			if w.Header().Get("Content-Type") != "application/json" || w.Header().Get("Cache-Control") != "no-store" {
				t.Errorf("%s: headers %v", tt.what, w.Header())
			}
		}
	}
}

// TestTooLongWork: the refusal does no work per segment: a path of
// 4,000 segments costs the handler as many allocations as one just past
// the bound (work counted, not timed).
func TestTooLongWork(t *testing.T) {
	h := New(Config{Dist: testDist()})
	allocs := func(n int) float64 {
		r := httptest.NewRequest("GET", "/"+strings.Repeat("a/", n), nil)
		return testing.AllocsPerRun(20, func() { h.ServeHTTP(discard{http.Header{}}, r) })
	}
	if short, long := allocs(MaxPathSegments+1), allocs(4000); long > short {
		t.Errorf("4,000 segments: %.0f allocations, %d segments: %.0f", long, MaxPathSegments+1, short)
	}
}

type discard struct{ h http.Header }

func (d discard) Header() http.Header         { return d.h }
func (d discard) Write(b []byte) (int, error) { return len(b), nil }
func (d discard) WriteHeader(int)             {}
