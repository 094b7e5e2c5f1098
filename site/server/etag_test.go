package server

import (
	"fmt"
	"net/http"
	"runtime/debug"
	"strings"
	"testing"
	"testing/fstest"
)

// TestAPIETag: an API or chart answer carries an ETag of the version and
// the canonical question; equivalent spellings share it, a different
// question or version does not, and If-None-Match with it is a 304 with
// the same cache headers and no body.
func TestAPIETag(t *testing.T) {
	h := New(Config{Dist: testDist(), Version: "v1"})
	etag := func(target string) string {
		t.Helper()
		w := do(t, h, "GET", target)
		if w.Code != http.StatusOK {
			t.Fatalf("GET %s: %d %s", target, w.Code, w.Body)
		}
		if cc := w.Header().Get("Cache-Control"); cc != cacheAPI {
			t.Errorf("GET %s: Cache-Control %q, want %q", target, cc, cacheAPI)
		}
		return w.Header().Get("ETag")
	}
	for _, group := range [][]string{
		{"/api/v1/attempts", "/api/v1/attempts?q=0.5", "/api/v1/attempts?n=3&q=.5", "/api/v1/attempts?q=5e-1&n=3.0"},
		{"/api/v1/attempts?q=0.9&n=5", "/api/v1/attempts?n=5&q=0.90", "/api/v1/attempts?n=%205&q=9e-1"},
		{"/api/v1/jitter.svg", "/api/v1/jitter.svg?lang=it", "/api/v1/jitter.svg?clients=100&lang=it"},
		{"/api/v1/jitter.svg?lang=es", "/api/v1/jitter.svg?strategy=full&lang=es"},
	} {
		want := etag(group[0])
		if !strings.HasPrefix(want, `"v1-`) || len(want) != len(`"v1-`)+16+1 {
			t.Errorf("GET %s: ETag %q, want \"v1-\" and 16 hex digits", group[0], want)
		}
		for _, target := range group[1:] {
			if got := etag(target); got != want {
				t.Errorf("GET %s: ETag %q, want %q (as %s)", target, got, want, group[0])
			}
		}
	}
	seen := map[string]string{}
	for _, target := range []string{"/api/v1/attempts", "/api/v1/attempts?q=0.9", "/api/v1/attempts?n=4", "/api/v1/peak", "/api/v1/jitter.svg", "/api/v1/jitter.svg?lang=zh", "/api/v1/jitter"} {
		e := etag(target)
		if prev, ok := seen[e]; ok {
			t.Errorf("GET %s and %s share ETag %s", target, prev, e)
		}
		seen[e] = target
	}
	if other := New(Config{Dist: testDist(), Version: "v2"}); do(t, other, "GET", "/api/v1/attempts").Header().Get("ETag") == etag("/api/v1/attempts") {
		t.Error("versions v1 and v2 give the same ETag")
	}

	for _, tc := range []struct {
		target, inm string
		status      int
	}{
		{"/api/v1/attempts?q=0.90", etag("/api/v1/attempts?q=0.9"), http.StatusNotModified},
		{"/api/v1/attempts?q=0.90", `"x", ` + etag("/api/v1/attempts?q=0.9"), http.StatusNotModified},
		{"/api/v1/attempts?q=0.90", "W/" + etag("/api/v1/attempts?q=0.9"), http.StatusNotModified},
		{"/api/v1/attempts?q=0.8", etag("/api/v1/attempts?q=0.9"), http.StatusOK},
		{"/api/v1/jitter.svg?lang=es", etag("/api/v1/jitter.svg?lang=es"), http.StatusNotModified},
		{"/api/v1/jitter.svg?lang=zh", etag("/api/v1/jitter.svg?lang=es"), http.StatusOK},
	} {
		w := do(t, h, "GET", tc.target, "If-None-Match", tc.inm)
		if w.Code != tc.status {
			t.Errorf("GET %s If-None-Match %s: %d, want %d", tc.target, tc.inm, w.Code, tc.status)
			continue
		}
		if tc.status == http.StatusNotModified {
			if w.Body.Len() != 0 || w.Header().Get("ETag") == "" || w.Header().Get("Cache-Control") != cacheAPI {
				t.Errorf("GET %s: 304 with body %q, ETag %q, Cache-Control %q", tc.target, w.Body, w.Header().Get("ETag"), w.Header().Get("Cache-Control"))
			}
		}
	}
}

// TestAPIErrorNotCached: refusals carry no ETag and say no-store, also
// when the parameters parse but the calculator's rules refuse them; like
// the answers, they carry the CORS header, so that a page on another
// origin can read the message.
func TestAPIErrorNotCached(t *testing.T) {
	h := New(Config{Dist: testDist(), Version: "v1"})
	for _, target := range []string{"/api/v1/attempts?q=2", "/api/v1/attempts?q=%zz", "/api/v1/nope", "/api/v1/jitter.svg?lang=fr", "/api/v1/jitter.svg?clients=0", "/api/v1/deadline?attempts=3&waits_ms=1"} {
		w := do(t, h, "GET", target)
		if w.Code < 400 || w.Header().Get("ETag") != "" || w.Header().Get("Cache-Control") != "no-store" || w.Header().Get("Access-Control-Allow-Origin") != "*" {
			t.Errorf("GET %s: %d, ETag %q, Cache-Control %q, CORS %q; want an error, no ETag, no-store, CORS *", target, w.Code,
				w.Header().Get("ETag"), w.Header().Get("Cache-Control"), w.Header().Get("Access-Control-Allow-Origin"))
		}
	}
}

func TestSanitizeVersion(t *testing.T) {
	for in, want := range map[string]string{"": "dev", `a"b`: "ab", "v1.2.3+dirty": "v1.2.3+dirty", "0123456789abcdef": "0123456789abcdef", "é": "dev"} {
		if got := sanitizeVersion(in); got != want {
			t.Errorf("sanitizeVersion(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestBuildVersion: without Config.Version the ETags name this very
// executable (a test binary stamps no VCS revision).
func TestBuildVersion(t *testing.T) {
	v := buildVersion()
	if bi, ok := debug.ReadBuildInfo(); ok && len(bi.Settings) > 0 && strings.Contains(fmt.Sprint(bi.Settings), "vcs.revision") {
		t.Logf("this test binary carries a VCS revision: buildVersion() = %q", v)
	} else if v != executableHash() || len(v) != 12 {
		t.Errorf("buildVersion() = %q, executableHash() = %q; want the executable's 12 hex digits", v, executableHash())
	}
	w := do(t, New(Config{Dist: testDist()}), "GET", "/api/v1/attempts")
	if got := w.Header().Get("ETag"); !strings.HasPrefix(got, `"`+v+"-") {
		t.Errorf("ETag %q, want the version %s", got, v)
	}
}

// TestSVGETagCoversStrings: a chart's ETag changes with the words of
// LANG/embed/strings.json (which the build writes from the string
// tables), a JSON answer's does not.
func TestSVGETagCoversStrings(t *testing.T) {
	etags := func(words string) (svg, api string) {
		dist := testDist()
		dist["es/embed/strings.json"] = &fstest.MapFile{Data: []byte(`{"lang":"es","strings":{"x":"` + words + `"}}`)}
		h := New(Config{Dist: dist, Version: "v1"})
		return do(t, h, "GET", "/api/v1/jitter.svg?lang=es").Header().Get("ETag"), do(t, h, "GET", "/api/v1/jitter").Header().Get("ETag")
	}
	svg1, api1 := etags("uno")
	svg2, api2 := etags("dos")
	if svg1 == "" || svg1 == svg2 {
		t.Errorf("chart ETags %q and %q: want different ones for different strings", svg1, svg2)
	}
	if api1 == "" || api1 != api2 {
		t.Errorf("JSON ETags %q and %q: want one", api1, api2)
	}
}
