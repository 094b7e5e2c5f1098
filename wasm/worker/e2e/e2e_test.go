//go:build e2e

// Package e2e tests the Cloudflare Worker on the real workerd binary: the
// bundle that `make worker` builds, with the static assets, run as
// Cloudflare runs it (wasm/worker/workerd.capnp), on a loopback port, against
// the native handler of `retrylab serve` over the same dist/.
//
// It needs dist/ (`make build`), build/worker (`make worker`) and
// node_modules (`make deps`); without them it fails saying which to run.
package e2e

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"retrylab/core/calc"
	"retrylab/site/load"
	"retrylab/wasm/worker/assetsdir"
	"retrylab/wasm/worker/local"
	"retrylab/wasm/worker/parity"
)

var (
	root    string
	worker  *local.Server
	native  *httptest.Server
	files   []string    // the static assets, as assetsdir.List returns them
	headers http.Header // the site-wide headers of the native handler (the /* rule)
	secured []string    // every header name of the _headers rules but Cache-Control
)

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	var err error
	if root, err = local.Root("."); err != nil {
		fmt.Fprintln(os.Stderr, "wasm/worker/e2e:", err)
		return 1
	}
	if err := local.Check(root); err != nil {
		fmt.Fprintln(os.Stderr, "wasm/worker/e2e:", err)
		return 1
	}
	h, err := parity.Native(filepath.Join(root, "dist"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "wasm/worker/e2e: the native handler:", err)
		return 1
	}
	if files, _, err = assetsdir.List(filepath.Join(root, "dist")); err != nil {
		fmt.Fprintln(os.Stderr, "wasm/worker/e2e:", err)
		return 1
	}
	rules, err := assetsdir.Headers(h, files)
	if err != nil {
		fmt.Fprintln(os.Stderr, "wasm/worker/e2e:", err)
		return 1
	}
	// Allow is on every file for the assets layer's 405s (assetsdir's
	// Headers), not a security header: the native handler sends it on its
	// 405s only.
	headers = rules[0].Header.Clone()
	headers.Del("Allow")
	seen := map[string]bool{"Cache-Control": true, "Allow": true}
	for _, r := range rules {
		for k := range r.Header {
			if !seen[k] {
				seen[k] = true
				secured = append(secured, k)
			}
		}
	}
	native = httptest.NewServer(h) // 127.0.0.1
	defer native.Close()
	if worker, err = local.Start(context.Background(), root, time.Minute); err != nil {
		fmt.Fprintln(os.Stderr, "wasm/worker/e2e:", err)
		return 1
	}
	defer worker.Stop()
	code := m.Run()
	if code != 0 {
		fmt.Fprintf(os.Stderr, "workerd's log:\n%s\n", worker.Log())
	}
	return code
}

// answer is one response, read whole.
type answer struct {
	Status int
	Header http.Header
	Body   []byte
}

var client = &http.Client{
	Timeout:       30 * time.Second,
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	// No Accept-Encoding: both sides answer with the identity bytes.
	Transport: &http.Transport{DisableCompression: true},
}

func do(t *testing.T, method, url string) answer {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("%s %s: reading the body: %v", method, url, err)
	}
	return answer{res.StatusCode, res.Header, b}
}

// both sends the request to the Worker and to the native server.
func both(t *testing.T, method, path string) (w, n answer) {
	t.Helper()
	return do(t, method, worker.URL+path), do(t, method, native.URL+path)
}

// mediaType returns the media type of a Content-Type, lower case, with the
// JavaScript synonyms made one.
func mediaType(ct string) string {
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return ct
	}
	if mt == "application/javascript" {
		return "text/javascript"
	}
	return mt
}

// checkSecurityHeaders checks that the Worker's answer w carries the
// security headers of the native answer n, with the same values.
func checkSecurityHeaders(t *testing.T, what string, w, n answer) {
	t.Helper()
	for _, k := range secured {
		if got, want := strings.Join(w.Header.Values(k), ", "), strings.Join(n.Header.Values(k), ", "); got != want {
			t.Errorf("%s: %s = %q, native %q", what, k, got, want)
		}
	}
}

// TestSecurityHeadersKnown makes sure the headers compared are the ones the
// issue names: a CSP with script-src 'self' 'wasm-unsafe-eval', nosniff and
// a Referrer-Policy.
func TestSecurityHeadersKnown(t *testing.T) {
	csp := headers.Get("Content-Security-Policy")
	if !strings.Contains(csp, "script-src 'self' 'wasm-unsafe-eval'") {
		t.Errorf("site-wide Content-Security-Policy %q lacks script-src 'self' 'wasm-unsafe-eval'", csp)
	}
	if headers.Get("X-Content-Type-Options") != "nosniff" || headers.Get("Referrer-Policy") == "" {
		t.Errorf("site-wide headers %v: want X-Content-Type-Options nosniff and a Referrer-Policy", headers)
	}
}

// TestBundleSize measures the Worker as wrangler uploads it (the modules,
// gzip-compressed) against the free plan's limit of 3 MB compressed.
func TestBundleSize(t *testing.T) {
	const limit = 3_000_000
	var raw, compressed int
	for _, f := range []string{"entry.mjs", "edge.mjs", "edge-data.mjs", "worker.mjs", "goshim.mjs", "wasm_exec.js", "app.wasm"} {
		b, err := os.ReadFile(filepath.Join(root, local.Bundle, f))
		if err != nil {
			t.Fatal(err)
		}
		var gz bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
		zw.Write(b)
		zw.Close()
		raw += len(b)
		compressed += gz.Len()
	}
	t.Logf("Worker bundle: %d bytes, %d bytes gzip-compressed (limit %d)", raw, compressed, limit)
	if compressed > limit {
		t.Errorf("the Worker bundle is %d bytes compressed, over the free plan's %d", compressed, limit)
	}
}

// TestPagesAndAssets requests every file of dist/ from the Worker (as
// Cloudflare serves static assets) and from the native server: same
// status, same bytes, same media type, and the security headers.
func TestPagesAndAssets(t *testing.T) {
	pages := 0
	for _, f := range files {
		p := assetsdir.URLPath(f)
		if strings.HasSuffix(p, ".html") {
			// html_handling serves x.html at /x (and redirects
			// /x.html there); the native server may not: the 404 page is
			// checked by TestNotFound.
			continue
		}
		w, n := both(t, "GET", p)
		if w.Status != http.StatusOK || n.Status != http.StatusOK {
			t.Errorf("GET %s: Worker %d, native %d; want 200", p, w.Status, n.Status)
			continue
		}
		if !bytes.Equal(w.Body, n.Body) {
			t.Errorf("GET %s: the Worker's %d bytes differ from the native %d", p, len(w.Body), len(n.Body))
		}
		// Pagefind's index files (.pf_index, .pf_meta, .pf_fragment,
		// .pagefind; site/search) have extensions no media type names: the
		// native server says application/octet-stream, the assets layer
		// sends none; Pagefind reads them with fetch, whatever their type.
		if wt, nt := mediaType(w.Header.Get("Content-Type")), mediaType(n.Header.Get("Content-Type")); wt != nt && !(wt == "" && nt == "application/octet-stream" && strings.HasPrefix(p, "/pagefind/")) {
			t.Errorf("GET %s: Content-Type %q, native %q", p, wt, nt)
		}
		checkSecurityHeaders(t, "GET "+p, w, n)
		if cc := n.Header.Get("Cache-Control"); strings.Contains(cc, "immutable") && w.Header.Get("Cache-Control") != cc {
			t.Errorf("GET %s: Cache-Control %q, native %q", p, w.Header.Get("Cache-Control"), cc)
		}
		if strings.HasSuffix(p, "/") {
			pages++
		}
	}
	if pages < 4 { // the root and the three language indexes at least
		t.Errorf("%d pages compared, want at least 4", pages)
	}
	// A folder without its slash is redirected to it, as Cloudflare does.
	w := do(t, "GET", worker.URL+"/it")
	if w.Status != http.StatusTemporaryRedirect || w.Header.Get("Location") != "/it/" {
		t.Errorf("GET /it: %d to %q, want 307 to /it/", w.Status, w.Header.Get("Location"))
	}
}

// TestCalculators compares every calculator's answers, good and bad, byte
// for byte, as JSON and as an SVG chart (/api/v1/NAME.svg).
func TestCalculators(t *testing.T) {
	reg := calc.New()
	charts, ran := 0, 0
	defer func() {
		if charts == 0 && ran == len(reg.List()) {
			t.Error("no calculator answers /api/v1/NAME.svg with a chart")
		}
	}()
	for _, c := range reg.List() {
		t.Run(c.Name, func(t *testing.T) {
			ran++
			ok := 0
			for _, r := range parity.Good(c) {
				w, n := both(t, "GET", r.Path())
				same(t, r.Path(), w, n)
				if w.Status == http.StatusOK {
					ok++
				}
			}
			if ok < 2 {
				t.Errorf("%d good requests answered 200, want at least the defaults and one variant", ok)
			}
			w := do(t, "GET", worker.URL+parity.Request{Calc: c.Name}.Path())
			if w.Status != http.StatusOK || mediaType(w.Header.Get("Content-Type")) != "application/json" || !json.Valid(w.Body) {
				t.Errorf("defaults: %d %q %.200s; want 200 with JSON", w.Status, w.Header.Get("Content-Type"), w.Body)
			}
			// The chart as an image, in each language.
			svg := "/api/v1/" + c.Name + ".svg"
			queries := []string{"", "lang=es", "lang=zh", "lang=xx"}
			if g := parity.Good(c); len(g) > 1 {
				queries = append(queries, g[1].Query.Encode()+"&lang=zh")
			}
			if b := parity.Bad(c); len(b) > 0 {
				queries = append(queries, b[0].Query.Encode())
			}
			for _, q := range queries {
				w, n := both(t, "GET", svg+"?"+q)
				same(t, svg+"?"+q, w, n)
			}
			if w := do(t, "GET", worker.URL+svg); w.Status == http.StatusOK {
				charts++
				if mediaType(w.Header.Get("Content-Type")) != "image/svg+xml" || !bytes.Contains(w.Body, []byte("<svg")) {
					t.Errorf("GET %s: %q %.100s, want an SVG image", svg, w.Header.Get("Content-Type"), w.Body)
				}
			}
			for _, r := range parity.Bad(c) {
				w, n := both(t, "GET", r.Path())
				same(t, r.Path(), w, n)
				var e struct {
					Error struct{ Param, Message string }
				}
				if w.Status != http.StatusBadRequest || json.Unmarshal(w.Body, &e) != nil {
					t.Errorf("GET %.120s: %d %.200s; want 400 with a JSON error", r.Path(), w.Status, w.Body)
					continue
				}
				if e.Error.Param != r.Bad || e.Error.Message == "" {
					t.Errorf("GET %.120s: error %+v, want a message about %s", r.Path(), e.Error, r.Bad)
				}
			}
		})
	}
}

// same checks that the Worker answered as the native server did: status,
// media type, body bytes, security headers.
func same(t *testing.T, path string, w, n answer) {
	t.Helper()
	if len(path) > 120 {
		path = path[:120] + "…"
	}
	if w.Status != n.Status {
		t.Errorf("GET %s: Worker %d, native %d", path, w.Status, n.Status)
	}
	if wt, nt := mediaType(w.Header.Get("Content-Type")), mediaType(n.Header.Get("Content-Type")); wt != nt {
		t.Errorf("GET %s: Content-Type %q, native %q", path, wt, nt)
	}
	if !bytes.Equal(w.Body, n.Body) {
		t.Errorf("GET %s: bodies differ at byte %s", path, diff(w.Body, n.Body))
	}
	checkSecurityHeaders(t, "GET "+path, w, n)
}

// diff describes where a and b first differ, with some context.
func diff(a, b []byte) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	from := max(0, i-60)
	clip := func(s []byte) []byte { return s[from:min(len(s), i+60)] }
	return fmt.Sprintf("%d of %d/%d:\nWorker …%s…\nnative …%s…", i, len(a), len(b), clip(a), clip(b))
}

// TestNotFound: unknown API names and unknown pages are 404 on both sides;
// an unknown page gets the site's 404 page, with the native Cache-Control.
func TestNotFound(t *testing.T) {
	page404, err := os.ReadFile(filepath.Join(root, "dist", "404.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/api/v1/no-such-calculator", "/api/v1/no-such-calculator?q=1", "/api/v2/attempts"} {
		w, n := both(t, "GET", p)
		if w.Status != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", p, w.Status)
		}
		same(t, p, w, n)
	}
	for _, p := range []string{"/no/such/page/", "/it/no-such-article/", "/assets/no-such.css"} {
		w, n := both(t, "GET", p)
		if w.Status != http.StatusNotFound || n.Status != http.StatusNotFound {
			t.Errorf("GET %s: Worker %d, native %d; want 404", p, w.Status, n.Status)
		}
		if !bytes.Equal(w.Body, page404) {
			t.Errorf("GET %s: the Worker's body is not dist/404.html: %.200s", p, w.Body)
		}
		checkSecurityHeaders(t, "GET "+p, w, n)
		// A miss is not cached as the file would be: a 404 under /assets/
		// with the assets' immutable year would outlive the deployment
		// that adds the file (the assets layer's 404 page carries the
		// path's _headers; wrangler.toml's not_found_handling = "none"
		// sends misses to the Worker).
		if wc, nc := w.Header.Get("Cache-Control"), n.Header.Get("Cache-Control"); wc != nc {
			t.Errorf("GET %s: Cache-Control %q, native %q", p, wc, nc)
		}
	}
}

// TestMethods: the API answers only GET (and HEAD); other methods get 405
// with an Allow header, as natively.
func TestMethods(t *testing.T) {
	for _, m := range []string{"POST", "PUT", "DELETE", "PATCH"} {
		w, n := both(t, m, "/api/v1/attempts")
		if w.Status != http.StatusMethodNotAllowed {
			t.Errorf("%s /api/v1/attempts: %d, want 405", m, w.Status)
		}
		if w.Status != n.Status || w.Header.Get("Allow") != n.Header.Get("Allow") || !bytes.Equal(w.Body, n.Body) {
			t.Errorf("%s /api/v1/attempts: Worker %d Allow %q %q, native %d Allow %q %q", m,
				w.Status, w.Header.Get("Allow"), w.Body, n.Status, n.Header.Get("Allow"), n.Body)
		}
		checkSecurityHeaders(t, m+" /api/v1/attempts", w, n)
		// A static page answers only GET and HEAD, on Cloudflare as natively.
		w, n = both(t, m, "/it/")
		if w.Status != http.StatusMethodNotAllowed || n.Status != http.StatusMethodNotAllowed {
			t.Errorf("%s /it/: Worker %d, native %d; want 405", m, w.Status, n.Status)
		}
	}
	w, n := both(t, "HEAD", "/api/v1/attempts")
	if w.Status != http.StatusOK || n.Status != http.StatusOK || len(w.Body) != 0 {
		t.Errorf("HEAD /api/v1/attempts: Worker %d (%d bytes), native %d", w.Status, len(w.Body), n.Status)
	}
}

var loadRequests = flag.Int("load", 1000, "requests of TestLoad per server (`make bench` sends 5000)")

// TestLoad sends -load requests (1,000; 200 with -short), 16 at a time, to
// the Worker and to the native server: no error, and workerd's resident
// memory grows by less than 128 MiB. `make bench` sends 5,000 and reports
// the rates.
func TestLoad(t *testing.T) {
	n := *loadRequests
	if testing.Short() {
		n = min(n, 200)
	}
	var pages []string
	for _, f := range files {
		if p := assetsdir.URLPath(f); strings.HasSuffix(p, "/") || strings.HasSuffix(p, ".css") {
			pages = append(pages, p)
		}
		if len(pages) == 6 {
			break
		}
	}
	mix := parity.Mix(calc.New(), pages)
	before, err := worker.RSS()
	if err != nil {
		t.Fatal(err)
	}
	for _, side := range []struct{ name, url string }{{"worker", worker.URL}, {"native", native.URL}} {
		res, err := load.Run(context.Background(), load.Config{
			BaseURL: side.url, Targets: mix, Requests: n, Concurrency: 16, Timeout: 5 * time.Minute,
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %v", side.name, res)
		if res.Errors > 0 || res.Requests != n {
			t.Errorf("%s: %d of %d answered, %d errors: %q", side.name, res.Requests, n, res.Errors, res.Failures)
		}
	}
	after, err := worker.RSS()
	if err != nil {
		t.Fatal(err)
	}
	const bound = 128 << 20
	t.Logf("workerd RSS: %d MiB before, %d MiB after", before>>20, after>>20)
	if after-before > bound {
		t.Errorf("workerd's RSS grew by %d MiB under load, bound %d MiB", (after-before)>>20, bound>>20)
	}
}

// TestRawQueries compares answers to queries that the table does not
// build: bad escapes, empty names and values, escaped paths.
func TestRawQueries(t *testing.T) {
	for _, p := range []string{
		"/api/v1/attempts?q=%zz",
		"/api/v1/attempts?%zz=1",
		"/api/v1/attempts?q",
		"/api/v1/attempts?=1",
		"/api/v1/attempts?&&q=0.25&&",
		"/api/v1/attempts?q=0.5;n=2",
		"/api/v1/attempts?q=+0.5",
		"/api/v1/att%65mpts?q=0.9",
		"/api/v1/attempts/",
		"/api/v1/",
		"/api/",
	} {
		w, n := both(t, "GET", p)
		same(t, p, w, n)
	}
}

// rawDo sends path exactly as written (Go's URL parser refuses a
// malformed escape before sending it).
func rawDo(t *testing.T, method, base, path string) answer {
	t.Helper()
	req, err := http.NewRequest(method, base, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.URL.Opaque = path
	res, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return answer{res.StatusCode, res.Header, b}
}

// TestMalformedPaths: a path with a malformed percent-escape never reaches
// the Go shim (which cannot parse it and would answer 500 without our
// headers): 400 with the site's headers, the API's JSON error under
// /api/.
func TestMalformedPaths(t *testing.T) {
	for _, tt := range []struct {
		method, path string
		api          bool
	}{
		{"GET", "/%zz", false},
		{"GET", "/it/%zz/", false},
		{"GET", "/%", false},
		{"HEAD", "/%zz", false},
		{"GET", "/api/v1/%zz", true},
		{"GET", "/api/v1/attempts%2?q=0.5", true},
		{"POST", "/api/v1/%zz", true},
	} {
		w := rawDo(t, tt.method, worker.URL, tt.path)
		if w.Status != http.StatusBadRequest {
			t.Errorf("%s %s: %d, want 400: %.200s", tt.method, tt.path, w.Status, w.Body)
			continue
		}
		for k := range headers {
			if got, want := w.Header.Get(k), headers.Get(k); got != want {
				t.Errorf("%s %s: %s = %q, want %q", tt.method, tt.path, k, got, want)
			}
		}
		if tt.method == "HEAD" {
			if len(w.Body) != 0 {
				t.Errorf("HEAD %s: %d bytes of body", tt.path, len(w.Body))
			}
			continue
		}
		if !tt.api {
			if mediaType(w.Header.Get("Content-Type")) != "text/plain" {
				t.Errorf("%s %s: Content-Type %q", tt.method, tt.path, w.Header.Get("Content-Type"))
			}
			continue
		}
		var e struct {
			Error struct{ Code, Message string }
		}
		if err := json.Unmarshal(w.Body, &e); err != nil || e.Error.Code != "syntax" || w.Header.Get("Access-Control-Allow-Origin") != "*" {
			t.Errorf("%s %s: %q (%v), CORS %q", tt.method, tt.path, w.Body, err, w.Header.Get("Access-Control-Allow-Origin"))
		}
	}
}

// TestNormalizedPaths: a path with an empty segment is what it is
// natively, 404 with the 404 page (wrangler.toml's run_worker_first sends
// it to the Worker; the assets layer would redirect it). A dot segment,
// literal or percent-encoded, is resolved by the URL parser before the
// assets layer or a route pattern sees the path (as browsers and
// Cloudflare's URL normalization resolve it before sending): the Worker
// answers as the native server answers the resolved path, with that
// page's own headers, never an embed's frame-ancestors on an article.
func TestNormalizedPaths(t *testing.T) {
	for _, p := range []string{"/it//retries/", "//it/retries/", "/it/retries//", "/it/%2fretries/"} {
		w, n := rawDo(t, "GET", worker.URL, p), rawDo(t, "GET", native.URL, p)
		if w.Status != http.StatusNotFound || n.Status != http.StatusNotFound {
			t.Errorf("GET %s: Worker %d, native %d; want 404", p, w.Status, n.Status)
		}
		same(t, p, w, n)
	}
	for _, tt := range []struct{ path, resolved string }{
		{"/it/embed/%2e%2e/retries/", "/it/retries/"},
		{"/it/embed/%2E%2E/retries/", "/it/retries/"},
		{"/it/embed/../retries/", "/it/retries/"},
		{"/it/%2e/retries/", "/it/retries/"},
		{"/it/embed/attempts/%2e%2e/%2e%2e/retries/", "/it/retries/"},
		{"/assets/%2e%2e/it/retries/", "/it/retries/"},
		{"/it/retries/%2e%2e/embed/attempts/", "/it/embed/attempts/"},
	} {
		w, n := rawDo(t, "GET", worker.URL, tt.path), do(t, "GET", native.URL+tt.resolved)
		if w.Status != http.StatusOK {
			t.Errorf("GET %s: Worker %d, want 200 (%s)", tt.path, w.Status, tt.resolved)
		}
		same(t, tt.path, w, n)
	}
}

// TestMethodsHeaders: a 405 carries Allow and the headers of the page it
// refuses (an embed's own frame-ancestors), on the Worker as natively.
func TestMethodsHeaders(t *testing.T) {
	for _, p := range []string{"/it/embed/attempts/", "/it/", "/assets/", "/api/v1/attempts"} {
		w, n := both(t, "POST", p)
		if w.Status != http.StatusMethodNotAllowed || w.Header.Get("Allow") != "GET, HEAD" {
			t.Errorf("POST %s: %d, Allow %q; want 405, GET, HEAD", p, w.Status, w.Header.Get("Allow"))
		}
		if w.Status != n.Status || w.Header.Get("Allow") != n.Header.Get("Allow") {
			t.Errorf("POST %s: Worker %d %q, native %d %q", p, w.Status, w.Header.Get("Allow"), n.Status, n.Header.Get("Allow"))
		}
		checkSecurityHeaders(t, "POST "+p, w, n)
	}
	w := do(t, "POST", worker.URL+"/it/embed/attempts/")
	if !strings.Contains(w.Header.Get("Content-Security-Policy"), "frame-ancestors *") || w.Header.Get("X-Frame-Options") != "" {
		t.Errorf("POST to an embed: CSP %q, X-Frame-Options %q", w.Header.Get("Content-Security-Policy"), w.Header.Get("X-Frame-Options"))
	}
}

// workerAbuseHeavy are requests at the largest values the Worker accepts
// (half of calc's ServerWork, wasm/worker's workScale), in the shapes of
// site/cmd/retrylab's TestServeUnderAbuse, each asked with 200 seeds (the
// peak with 200 sizes): distinct questions, so that the edge layer's cache
// answers none of them and each is computed.
var workerAbuseHeavy = func() []string {
	var h []string
	for k := range 200 {
		h = append(h,
			"/api/v1/dispatch?jobs=2500&max_attempts=4&headroom=2&max_output_tokens=13&prompt_tokens=0&tpm_limit=18937700&max_concurrency=160&latency_s=14&base_s=3600&cap_s=86400&p_5xx=1&reconcile_s=0&seed="+strconv.Itoa(k),
			"/api/v1/jitter?clients=45000&waves=19&strategy=decorrelated&base_ms=1&cap_ms=1000&width_ms=100&seed="+strconv.Itoa(k),
			"/api/v1/backoff?workers=29000&max_attempts=15&max_elapsed_s=86400&cap_s=86400&width_s=1000&retry_after_s=3600&seed="+strconv.Itoa(k),
			"/api/v1/peak?bins=100&threshold=40&clients="+strconv.Itoa(2000-k),
			"/api/v1/policies?rate_per_s=330&horizon_s=30&trigger_start_s=10&timeout_ms=1&attempts=10&seed="+strconv.Itoa(k),
			"/api/v1/timeouts?calls=850&max_output_tokens=1000&idle_timeout_s=0.001&seed="+strconv.Itoa(k),
		)
	}
	return h
}()

// workerPageBound is how far behind the control a page is counted as
// behind in TestAbuse's log line (make bench): the native 50 ms,
// under the 80-250 ms that one of workerAbuseHeavy takes on workerd (on a
// development machine), so that a page that waited behind a computation
// exceeds it.
const workerPageBound = 50 * time.Millisecond

// workerHangBound is how far behind the control's the page may be before
// TestAbuse calls it a hang.
const workerHangBound = 10 * time.Second

// TestAbuse is site/cmd/retrylab's TestServeUnderAbuse, lighter, against
// workerd: 4 clients (the 4 in flight) sending the largest
// requests the Worker accepts back to back for 3 s while a reader fetches
// a page every 100 ms. Every heavy request gets a 200 within 10 s (the
// Worker's process computes one at a time, a few hundred ms each; workerd
// sheds nothing: on Cloudflare, more isolates take more load), workerd's
// RSS grows by less than 128 MiB, nothing else happens, and the page does
// not wait behind the computations: wrangler.toml's run_worker_first
// sends pages to the assets layer, which the local layout runs in its own
// process (wasm/worker/workerd.capnp), so the page may be more than
// workerPageBound behind the same page fetched at the same moments from a
// second, idle Worker (the control: the machine's own noise); the test
// logs at how many ticks, and make bench prints it (site/bench/abuse.sh).
// With run_worker_first = true every page passes through the Worker's
// process and waits for the computation in it: behind at nearly every
// tick. Only a page workerHangBound behind fails the test (issue 27: no
// time is asserted against a constant). The request (565,001
// simulated calls) is a 422 at once.
func TestAbuse(t *testing.T) {
	if w := do(t, "GET", worker.URL+"/api/v1/dispatch?jobs=100000&max_attempts=4&headroom=2&max_output_tokens=13&prompt_tokens=0&tpm_limit=18937700&max_concurrency=160&latency_s=14&base_s=3600&cap_s=86400&p_5xx=1&reconcile_s=0"); w.Status != http.StatusUnprocessableEntity {
		t.Errorf("the issue's request: %d, want 422: %.200s", w.Status, w.Body)
	}
	control, err := local.Start(context.Background(), root, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	defer control.Stop()
	before, err := worker.RSS()
	if err != nil {
		t.Fatal(err)
	}
	res, err := load.Abuse(context.Background(), load.AbuseConfig{
		BaseURL: worker.URL, Heavy: workerAbuseHeavy, Concurrency: 4, Duration: 3 * time.Second,
		Page: "/it/", PageEvery: 100 * time.Millisecond, Bound: 10 * time.Second, Control: control.URL,
	})
	if err != nil {
		t.Fatal(err)
	}
	after, err := worker.RSS()
	if err != nil {
		t.Fatal(err)
	}
	behind := res.Behind(workerPageBound)
	t.Logf("%v; the page more than %v behind the idle Worker's at %d of %d ticks; workerd RSS %d MiB before, %d MiB after",
		res, workerPageBound, behind, len(res.PageTimes), before>>20, after>>20)
	if res.Errors > 0 || res.OK == 0 || res.Pages < 20 || len(res.ControlTimes) < 20 {
		t.Errorf("want only 200s, and the page every 100 ms from both Workers: %v", res)
	}
	if after-before > 128<<20 {
		t.Errorf("workerd's RSS grew by %d MiB", (after-before)>>20)
	}
	// Only a hang fails: how far behind the idle Worker's the page is,
	// against the 50 ms, is a time (the machine's as much as the
	// code's), which make bench prints (site/bench/abuse.sh greps the
	// line logged above), not a test (issue 27).
	if n := res.Behind(workerHangBound); n > 0 {
		t.Errorf("the page was more than %v behind the idle Worker's at %d of %d ticks (a hang); in order: %v, the idle Worker's: %v",
			workerHangBound, n, len(res.PageTimes), res.PageTimes, res.ControlTimes)
	}
}
