package server

import (
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
)

func embedDist() fstest.MapFS {
	d := testDist()
	d["it/embed/attempts/index.html"] = &fstest.MapFile{Data: []byte("<!DOCTYPE html>embed")}
	d["it/retries/index.html"] = &fstest.MapFile{Data: []byte("<!DOCTYPE html>article")}
	d["it/charts/jitter.svg"] = &fstest.MapFile{Data: []byte("<svg/>")}
	d["it/embed/strings.json"] = &fstest.MapFile{Data: []byte(`{"Lang":"it","Strings":{"param.attempts.q":"probabilità di fallire","err.range":"{param} deve stare in {range}: «{value}» no"}}` + "\n")}
	return d
}

// wellFormed parses b as XML to its end.
func wellFormed(t *testing.T, b []byte) {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(string(b)))
	for {
		_, err := d.Token()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v\n%.400s", err, b)
		}
	}
}

func TestFramePolicy(t *testing.T) {
	h := New(Config{Dist: embedDist()})
	w := do(t, h, "GET", "/it/embed/attempts/")
	if w.Code != 200 || !strings.HasSuffix(w.Header().Get("Content-Security-Policy"), "frame-ancestors *") || w.Header().Get("X-Frame-Options") != "" {
		t.Errorf("embed: %d CSP %q XFO %q", w.Code, w.Header().Get("Content-Security-Policy"), w.Header().Get("X-Frame-Options"))
	}
	for _, p := range []string{"/it/retries/", "/", "/it/", "/nosuch/embed/x/"} {
		w := do(t, h, "GET", p)
		if !strings.Contains(w.Header().Get("Content-Security-Policy"), "frame-ancestors 'none'") || w.Header().Get("X-Frame-Options") != "DENY" {
			t.Errorf("%s: CSP %q XFO %q", p, w.Header().Get("Content-Security-Policy"), w.Header().Get("X-Frame-Options"))
		}
	}
	w = do(t, h, "GET", "/it/charts/jitter.svg")
	if w.Code != 200 || w.Header().Get("Content-Type") != "image/svg+xml" || w.Header().Get("Content-Security-Policy") != SVGCSP {
		t.Errorf("chart: %d %q %q", w.Code, w.Header().Get("Content-Type"), w.Header().Get("Content-Security-Policy"))
	}
}

func TestSVGEndpoint(t *testing.T) {
	h := New(Config{Dist: embedDist()})
	for _, target := range []string{"/api/v1/jitter.svg", "/api/v1/attempts.svg?lang=it&q=0.9", "/api/v1/peak.svg?lang=zh&clients=200", "/api/v1/deadline.svg?lang=es"} {
		w := do(t, h, "GET", target)
		if w.Code != 200 || w.Header().Get("Content-Type") != "image/svg+xml" {
			t.Errorf("%s: %d %s", target, w.Code, w.Body.String())
			continue
		}
		body := w.Body.Bytes()
		wellFormed(t, body)
		for _, want := range []string{`xmlns="http://www.w3.org/2000/svg"`, "<title>", "<desc>", "<style>"} {
			if !strings.Contains(string(body), want) {
				t.Errorf("%s: no %s", target, want)
			}
		}
		if w.Header().Get("Access-Control-Allow-Origin") != "*" || w.Header().Get("X-Frame-Options") != "" {
			t.Errorf("%s: headers %v", target, w.Header())
		}
	}
	// The language's strings reach the message.
	for _, c := range []struct {
		target, param, want string
		status              int
	}{
		{"/api/v1/attempts.svg?lang=it&q=2", "q", "probabilità di fallire deve stare in", 400},
		{"/api/v1/attempts.svg?q=x", "q", "", 400},
		{"/api/v1/attempts.svg?nosuch=1", "nosuch", "", 400},
		{"/api/v1/attempts.svg?lang=fr", "lang", "lang must be one of it, es, zh", 400},
		{"/api/v1/attempts.svg?lang=it&lang=es", "lang", "", 400},
		{"/api/v1/idempotency-key.svg", "", "draws no chart", 400},
		{"/api/v1/nosuch.svg", "", "", 404},
		{"/api/v1/attempts.svg?q=%zz", "q", "bad escape", 400},
	} {
		w := do(t, h, "GET", c.target)
		var e apiError
		if w.Code != c.status || json.Unmarshal(w.Body.Bytes(), &e) != nil || e.Error.Message == "" || e.Error.Param != c.param || !strings.Contains(e.Error.Message, c.want) {
			t.Errorf("%s: %d %s", c.target, w.Code, w.Body.String())
		}
	}
	if w := do(t, h, "POST", "/api/v1/jitter.svg"); w.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST: %d", w.Code)
	}
	if w := do(t, h, "HEAD", "/api/v1/jitter.svg"); w.Code != 200 || w.Body.Len() != 0 {
		t.Errorf("HEAD: %d, %d bytes", w.Code, w.Body.Len())
	}
}

// failOnce is a dist whose first read of each file fails (as a fetch
// through the Worker's ASSETS binding may), then succeeds.
type failOnce struct {
	dist   fstest.MapFS
	failed map[string]bool
}

func (f *failOnce) Open(name string) (fs.File, error) {
	if !f.failed[name] {
		f.failed[name] = true
		return nil, &fs.PathError{Op: "open", Path: name, Err: errors.New("the assets answer 503")}
	}
	return f.dist.Open(name)
}

// TestSVGLocaleRetried: a chart's strings that could not be read (not a
// missing file) are read again by the next request, not kept as absent
// for the life of the handler (on the Worker, one Go instance serves many
// requests).
func TestSVGLocaleRetried(t *testing.T) {
	const words = "probabilità di fallire deve stare in"
	for _, tc := range []struct {
		name, target string
		check        func(t *testing.T, first, second *httptest.ResponseRecorder)
	}{
		{"the words of a refusal", "/api/v1/attempts.svg?lang=it&q=2", func(t *testing.T, first, second *httptest.ResponseRecorder) {
			if strings.Contains(first.Body.String(), words) || !strings.Contains(second.Body.String(), words) {
				t.Errorf("first %q, second %q: want the Italian words in the second only", first.Body.String(), second.Body.String())
			}
		}},
		{"the ETag of a chart", "/api/v1/attempts.svg?lang=it", func(t *testing.T, first, second *httptest.ResponseRecorder) {
			if first.Code != 200 || first.Header().Get("ETag") == second.Header().Get("ETag") {
				t.Errorf("status %d, ETags %q and %q: want the second to cover the strings", first.Code, first.Header().Get("ETag"), second.Header().Get("ETag"))
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := New(Config{Dist: &failOnce{dist: embedDist(), failed: map[string]bool{}}, Version: "v1"})
			first := do(t, h, "GET", tc.target)
			second := do(t, h, "GET", tc.target)
			tc.check(t, first, second)
		})
	}
}
