package server

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
)

func testDist() fstest.MapFS {
	return fstest.MapFS{
		"index.html":                       {Data: []byte("<!DOCTYPE html>root")},
		"404.html":                         {Data: []byte("<!DOCTYPE html>not found")},
		"it/index.html":                    {Data: []byte("<!DOCTYPE html>it")},
		"it/index.html.gz":                 {Data: []byte("GZ-it")},
		"it/index.html.br":                 {Data: []byte("BR-it")},
		"assets/app.0123456789ab.js":       {Data: []byte("js")},
		"assets/app.0123456789ab.js.gz":    {Data: []byte("GZ-js")},
		"assets/play.0123456789ab.wasm":    {Data: []byte("\x00asm")},
		"assets/play.0123456789ab.wasm.br": {Data: []byte("BR-wasm")},
		"robots.txt":                       {Data: []byte("User-agent: *\n")},
		".hidden":                          {Data: []byte("secret")},
	}
}

func do(t *testing.T, h http.Handler, method, target string, hdr ...string) *httptest.ResponseRecorder {
	t.Helper()
	r := httptest.NewRequest(method, target, nil)
	for i := 0; i+1 < len(hdr); i += 2 {
		r.Header.Set(hdr[i], hdr[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func checkSecurity(t *testing.T, w *httptest.ResponseRecorder, what string) {
	t.Helper()
	want := map[string]string{
		"Content-Security-Policy": PageCSP,
		"X-Content-Type-Options":  "nosniff",
		"Referrer-Policy":         "strict-origin-when-cross-origin",
	}
	for k, v := range want {
		if got := w.Header().Get(k); got != v {
			t.Errorf("%s: %s = %q, want %q", what, k, got, v)
		}
	}
	if !strings.Contains(w.Header().Get("Content-Security-Policy"), "frame-ancestors 'none'") {
		t.Errorf("%s: CSP lacks frame-ancestors", what)
	}
}

func TestStatic(t *testing.T) {
	h := New(Config{Dist: testDist()})
	tests := []struct {
		name, method, target, ae string
		status                   int
		body, ctype, enc, cache  string
		location                 string
	}{
		{"root", "GET", "/", "", 200, "<!DOCTYPE html>root", "text/html; charset=utf-8", "", cacheShort, ""},
		{"page br", "GET", "/it/", "gzip, deflate, br", 200, "BR-it", "text/html; charset=utf-8", "br", cacheShort, ""},
		{"page gzip", "GET", "/it/", "gzip", 200, "GZ-it", "text/html; charset=utf-8", "gzip", cacheShort, ""},
		{"page br refused", "GET", "/it/", "br;q=0, gzip", 200, "GZ-it", "text/html; charset=utf-8", "gzip", cacheShort, ""},
		{"page identity", "GET", "/it/", "", 200, "<!DOCTYPE html>it", "text/html; charset=utf-8", "", cacheShort, ""},
		{"dir redirect", "GET", "/it?x=1", "", 301, "", "", "", "", "/it/?x=1"},
		{"hashed js", "GET", "/assets/app.0123456789ab.js", "gzip", 200, "GZ-js", "text/javascript; charset=utf-8", "gzip", cacheImmutable, ""},
		{"wasm", "GET", "/assets/play.0123456789ab.wasm", "gzip", 200, "\x00asm", "application/wasm", "", cacheImmutable, ""},
		{"wasm br", "GET", "/assets/play.0123456789ab.wasm", "br", 200, "BR-wasm", "application/wasm", "br", cacheImmutable, ""},
		{"head", "HEAD", "/robots.txt", "", 200, "", "text/plain; charset=utf-8", "", cacheShort, ""},
		{"missing", "GET", "/nope/", "", 404, "<!DOCTYPE html>not found", "text/html; charset=utf-8", "", "no-store", ""},
		{"dotfile", "GET", "/.hidden", "", 404, "<!DOCTYPE html>not found", "text/html; charset=utf-8", "", "no-store", ""},
		{"compressed sibling", "GET", "/it/index.html.gz", "", 404, "<!DOCTYPE html>not found", "text/html; charset=utf-8", "", "no-store", ""},
		{"traversal", "GET", "/../etc/passwd", "", 404, "<!DOCTYPE html>not found", "text/html; charset=utf-8", "", "no-store", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := do(t, h, tt.method, tt.target, "Accept-Encoding", tt.ae)
			if w.Code != tt.status {
				t.Fatalf("status %d, want %d", w.Code, tt.status)
			}
			checkSecurity(t, w, tt.name)
			if tt.location != "" {
				if got := w.Header().Get("Location"); got != tt.location {
					t.Errorf("Location %q, want %q", got, tt.location)
				}
				return
			}
			if got := w.Body.String(); got != tt.body {
				t.Errorf("body %q, want %q", got, tt.body)
			}
			if got := w.Header().Get("Content-Type"); got != tt.ctype {
				t.Errorf("Content-Type %q, want %q", got, tt.ctype)
			}
			if got := w.Header().Get("Content-Encoding"); got != tt.enc {
				t.Errorf("Content-Encoding %q, want %q", got, tt.enc)
			}
			if got := w.Header().Get("Cache-Control"); got != tt.cache {
				t.Errorf("Cache-Control %q, want %q", got, tt.cache)
			}
		})
	}
	// Vary on every file with a compressed sibling, and conditional GET.
	w := do(t, h, "GET", "/it/", "Accept-Encoding", "br")
	if w.Header().Get("Vary") != "Accept-Encoding" {
		t.Errorf("Vary = %q", w.Header().Get("Vary"))
	}
	etag := w.Header().Get("ETag")
	if w2 := do(t, h, "GET", "/it/", "Accept-Encoding", "br", "If-None-Match", etag); w2.Code != http.StatusNotModified {
		t.Errorf("If-None-Match: status %d, want 304", w2.Code)
	}
	if w3 := do(t, h, "GET", "/it/", "Accept-Encoding", "gzip", "If-None-Match", etag); w3.Code != http.StatusOK {
		t.Errorf("If-None-Match of the br variant on a gzip request: status %d, want 200", w3.Code)
	}
}

func TestBasePath(t *testing.T) {
	h := New(Config{Dist: testDist(), Base: "/sub/"})
	if w := do(t, h, "GET", "/sub/it/"); w.Code != 200 || w.Body.String() != "<!DOCTYPE html>it" {
		t.Errorf("/sub/it/: %d %q", w.Code, w.Body.String())
	}
	if w := do(t, h, "GET", "/sub"); w.Code != 301 || w.Header().Get("Location") != "/sub/" {
		t.Errorf("/sub: %d %q", w.Code, w.Header().Get("Location"))
	}
	if w := do(t, h, "GET", "/it/"); w.Code != 404 {
		t.Errorf("/it/ outside the base: %d", w.Code)
	}
	if w := do(t, h, "GET", "/sub/api/v1/attempts"); w.Code != 200 {
		t.Errorf("API under the base: %d", w.Code)
	}
}

func TestAPI(t *testing.T) {
	h := New(Config{Dist: testDist()})
	type errBody struct {
		Error struct{ Param, Code, Message string } `json:"error"`
	}
	tests := []struct {
		name, method, target string
		status               int
		body                 string // exact body, or "" to check errParam/errMsg
		errParam, errMsg     string
	}{
		{"defaults", "GET", "/api/v1/attempts", 200, `{"q":0.5,"n":3,"expected_attempts":1.75,"success_probability":0.875}` + "\n", "", ""},
		{"params", "GET", "/api/v1/attempts?q=0.9&n=3", 200, `{"q":0.9,"n":3,"expected_attempts":2.71,"success_probability":0.271}` + "\n", "", ""},
		{"head", "HEAD", "/api/v1/attempts", 200, "", "", ""},
		{"out of range", "GET", "/api/v1/attempts?q=2", 400, "", "q", `q must be in [0, 1], got "2"`},
		{"not a number", "GET", "/api/v1/attempts?n=x", 400, "", "n", `n must be a number`},
		{"unknown param", "GET", "/api/v1/attempts?z=1", 400, "", "z", "unknown parameter z"},
		{"repeated", "GET", "/api/v1/attempts?q=0.1&q=0.2", 400, "", "q", "more than once"},
		{"bad escape", "GET", "/api/v1/attempts?q=%zz", 400, "", "q", "bad escape in the value of q"},
		{"bad escape in a name", "GET", "/api/v1/attempts?n=3&q%zz=1", 400, "", "q%zz", "bad escape"},
		{"inexact", "GET", "/api/v1/attempts?q=1e-400", 400, "", "q", "cannot be held exactly"},
		{"unknown calc", "GET", "/api/v1/nosuch", 404, "", "", `unknown calculator "nosuch"`},
		{"no api version", "GET", "/api/v2/attempts", 404, "", "", "no such API"},
		{"post", "POST", "/api/v1/attempts", 405, "", "", "method POST is not allowed"},
		{"delete page", "DELETE", "/it/", 405, "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := do(t, h, tt.method, tt.target)
			if w.Code != tt.status {
				t.Fatalf("status %d, want %d: %s", w.Code, tt.status, w.Body.String())
			}
			checkSecurity(t, w, tt.name)
			if tt.status == 405 {
				if w.Header().Get("Allow") != "GET, HEAD" {
					t.Errorf("Allow = %q", w.Header().Get("Allow"))
				}
			}
			if tt.method == "DELETE" {
				return
			}
			if ct := w.Header().Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type %q", ct)
			}
			if tt.method == "HEAD" {
				if w.Body.Len() != 0 || w.Header().Get("Content-Length") == "0" {
					t.Errorf("HEAD: body %d bytes, Content-Length %s", w.Body.Len(), w.Header().Get("Content-Length"))
				}
				return
			}
			if tt.status == 200 {
				if w.Body.String() != tt.body {
					t.Errorf("body %q, want %q", w.Body.String(), tt.body)
				}
				return
			}
			var e errBody
			if err := json.Unmarshal(w.Body.Bytes(), &e); err != nil {
				t.Fatalf("error body %q: %v", w.Body.String(), err)
			}
			if e.Error.Param != tt.errParam || !strings.Contains(e.Error.Message, tt.errMsg) {
				t.Errorf("error %+v, want param %q and message containing %q", e.Error, tt.errParam, tt.errMsg)
			}
			if !strings.HasSuffix(w.Body.String(), "}\n") {
				t.Errorf("error body does not end with a newline")
			}
		})
	}
}

func TestAcceptedEncodings(t *testing.T) {
	tests := map[string]string{
		"":                     "",
		"gzip":                 "gzip",
		"br, gzip":             "br,gzip",
		"gzip;q=1.0, br;q=0.5": "br,gzip",
		"br;q=0":               "",
		"*":                    "br,gzip",
		"*, br;q=0":            "gzip",
		"identity":             "",
		"GZIP":                 "gzip",
	}
	for in, want := range tests {
		if got := strings.Join(acceptedEncodings(in), ","); got != want {
			t.Errorf("acceptedEncodings(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzServe(f *testing.F) {
	for _, s := range []string{"/", "/it/", "/api/v1/attempts?q=0.5", "/api/v1/%zz", "/assets/../x", "/it", "/api/v1/attempts?n=99999999999999999999"} {
		f.Add(s)
	}
	h := New(Config{Dist: testDist()})
	f.Fuzz(func(t *testing.T, target string) {
		r, err := http.NewRequest("GET", "http://x"+target, nil)
		if err != nil {
			return
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code >= 500 {
			t.Fatalf("%s: status %d", target, w.Code)
		}
		if w.Header().Get("X-Content-Type-Options") != "nosniff" {
			t.Fatalf("%s: no security headers", target)
		}
	})
}
