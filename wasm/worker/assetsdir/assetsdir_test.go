package assetsdir

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestList(t *testing.T) {
	dist := writeTree(t, map[string]string{
		"index.html": "x", "index.html.gz": "gz", "index.html.br": "br",
		"a/app.js": "x", "a/app.js.br": "br", "data.gz": "a gzip file that is an asset of its own",
	})
	files, skipped, err := List(dist)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"a/app.js", "data.gz", "index.html"}
	if !slices.Equal(files, want) || skipped != 3 {
		t.Errorf("List = %v, %d skipped; want %v, 3 skipped", files, skipped, want)
	}
	if _, _, err := List(t.TempDir()); err == nil || !strings.Contains(err.Error(), "make build") {
		t.Errorf("List of an empty folder: error %v, want one naming `make build`", err)
	}
}

func TestURLPath(t *testing.T) {
	for file, want := range map[string]string{
		"index.html": "/", "it/index.html": "/it/", "it/retries/index.html": "/it/retries/",
		"404.html": "/404.html", "assets/app.1234.js": "/assets/app.1234.js",
	} {
		if got := URLPath(file); got != want {
			t.Errorf("URLPath(%q) = %q, want %q", file, got, want)
		}
	}
}

func TestLongLived(t *testing.T) {
	for cc, want := range map[string]bool{
		"": false, "no-cache": false, "public, max-age=0, must-revalidate": false,
		"public, max-age=31536000, immutable": true, "Max-Age=60": true,
	} {
		if got := longLived(cc); got != want {
			t.Errorf("longLived(%q) = %v, want %v", cc, got, want)
		}
	}
}

func TestGroupRules(t *testing.T) {
	const imm = "public, max-age=31536000, immutable"
	cache := func(v string) Rule { return Rule{Header: http.Header{"Cache-Control": {v}}} }
	files := []string{"a/x.1.js", "a/y.2.css", "b/c/z.3.js", "b/p.html", "e/it/index.html", "e/zh/index.html", "index.html", "top.4.js"}
	frame := Rule{Detach: []string{"X-Frame-Options"}, Header: http.Header{"Content-Security-Policy": {"frame-ancestors *"}}}
	ops := map[string]Rule{"a/x.1.js": cache(imm), "a/y.2.css": cache(imm), "b/c/z.3.js": cache(imm), "top.4.js": cache("max-age=60"),
		"e/it/index.html": frame, "e/zh/index.html": frame}
	var got []string
	for _, r := range groupRules(files, ops) {
		got = append(got, strings.ReplaceAll(FormatHeaders([]Rule{r}), "\n", "|"))
	}
	want := []string{
		"/a/*|  Cache-Control: " + imm + "|",
		"/b/c/*|  Cache-Control: " + imm + "|",
		"/e/*|  ! X-Frame-Options|  Content-Security-Policy: frame-ancestors *|",
		"/top.4.js|  Cache-Control: max-age=60|",
	}
	if !slices.Equal(got, want) {
		t.Errorf("groupRules:\n got %q\nwant %q", got, want)
	}
}

// fakeSite answers like the native handler: security headers everywhere,
// long-lived caching under /assets/, the 404 page with 404.
func fakeSite(missingHeaderOn string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != missingHeaderOn {
			w.Header().Set("Content-Security-Policy", "default-src 'self'")
		}
		if strings.HasPrefix(r.URL.Path, "/it/embed/") {
			w.Header().Set("Content-Security-Policy", "default-src 'self'; frame-ancestors *")
		} else {
			w.Header().Set("X-Frame-Options", "DENY")
		}
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if strings.HasPrefix(r.URL.Path, "/assets/") {
			w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
		}
		switch r.URL.Path {
		case "/404.html":
			w.WriteHeader(http.StatusNotFound)
		case "/gone.txt":
			w.WriteHeader(http.StatusGone)
		}
	})
}

func TestHeaders(t *testing.T) {
	files := []string{"404.html", "assets/a.1.js", "assets/b.2.css", "index.html", "it/embed/a/index.html", "it/embed/b/index.html", "it/index.html"}
	rules, err := Headers(fakeSite(""), files)
	if err != nil {
		t.Fatal(err)
	}
	got := FormatHeaders(rules)
	want := "/*\n  Allow: GET, HEAD\n  Content-Security-Policy: default-src 'self'\n  X-Content-Type-Options: nosniff\n  X-Frame-Options: DENY\n\n" +
		"/assets/*\n  Cache-Control: public, max-age=31536000, immutable\n\n" +
		"/it/embed/*\n  ! Content-Security-Policy\n  ! X-Frame-Options\n  Content-Security-Policy: default-src 'self'; frame-ancestors *\n"
	if got != want {
		t.Errorf("_headers:\n%s\nwant:\n%s", got, want)
	}
	// Without a root page the base is what most files share.
	rules, err = Headers(fakeSite(""), []string{"it/embed/a/index.html", "it/embed/b/index.html", "it/embed/c/index.html", "it/index.html"})
	if err != nil {
		t.Fatal(err)
	}
	if rules[0].Header.Get("Content-Security-Policy") != "default-src 'self'; frame-ancestors *" {
		t.Errorf("without index.html: base %v", rules[0].Header)
	}
	// A header that one page lacks is detached there.
	rules, err = Headers(fakeSite("/it/"), files)
	if err != nil {
		t.Fatal(err)
	}
	last := rules[len(rules)-1]
	if rules[0].Header.Get("Content-Security-Policy") == "" || last.Pattern != "/it/" || !slices.Equal(last.Detach, []string{"Content-Security-Policy"}) || last.Header != nil {
		t.Errorf("a page without the CSP: rules %+v", rules)
	}
	if _, err := Headers(fakeSite(""), []string{"index.html", "gone.txt"}); err == nil || !strings.Contains(err.Error(), "/gone.txt") {
		t.Errorf("a file the handler refuses: error %v, want one naming /gone.txt", err)
	}
}

func TestWrite(t *testing.T) {
	dist := writeTree(t, map[string]string{
		"index.html": "<p>root", "index.html.gz": "gz", "404.html": "<p>404", "assets/a.1.js": "js",
	})
	out := t.TempDir()
	public := filepath.Join(out, "public")
	os.MkdirAll(filepath.Join(public, "stale"), 0o755) // replaced, not merged
	var w Wrangler
	w.Assets.HTMLHandling, w.Assets.NotFoundHandling = "auto-trailing-slash", "404-page"
	st, err := Write(dist, public, w, fakeSite(""))
	if err != nil {
		t.Fatal(err)
	}
	if st.Files != 3 || st.Skipped != 1 || st.Rules != 2 || st.Bytes != int64(len("<p>root<p>404js")) {
		t.Errorf("stats %+v", st)
	}
	if _, err := os.Stat(filepath.Join(public, "stale")); !os.IsNotExist(err) {
		t.Errorf("the old public/ survived: %v", err)
	}
	if _, err := os.Stat(filepath.Join(public, "index.html.gz")); !os.IsNotExist(err) {
		t.Errorf("a precompressed variant was copied: %v", err)
	}
	b, err := os.ReadFile(filepath.Join(public, "assets", "a.1.js"))
	if err != nil || string(b) != "js" {
		t.Errorf("assets/a.1.js: %q, %v", b, err)
	}
	hdr, _ := os.ReadFile(filepath.Join(public, "_headers"))
	var conf map[string]string
	b, err = os.ReadFile(filepath.Join(out, "assets.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &conf); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"headers": string(hdr), "html_handling": "auto-trailing-slash", "not_found_handling": "404-page"}
	if len(conf) != len(want) || conf["headers"] == "" {
		t.Errorf("assets.json = %v, want %v", conf, want)
	}
	for k, v := range want {
		if conf[k] != v {
			t.Errorf("assets.json %s = %q, want %q", k, conf[k], v)
		}
	}
	// dist must not hold Cloudflare's control files: they would be served
	// by the native server and overwritten here.
	bad := writeTree(t, map[string]string{"index.html": "x", "_headers": "/*\n  X: y\n"})
	if _, err := Write(bad, filepath.Join(t.TempDir(), "public"), w, fakeSite("")); err == nil || !strings.Contains(err.Error(), "_headers") {
		t.Errorf("dist with _headers: error %v", err)
	}
}

// TestWranglerConfig checks the committed wrangler.toml against what the
// build and wasm/worker/workerd.capnp assume.
func TestWranglerConfig(t *testing.T) {
	w, err := ReadWrangler("../wrangler.toml")
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs("../../../build/worker/public")
	if w.AbsDirectory != abs {
		t.Errorf("[assets] directory resolves to %s, want %s", w.AbsDirectory, abs)
	}
	if w.Main != "../../build/worker/entry.mjs" {
		t.Errorf("main = %q, want the entry.mjs of workerassets in build/worker", w.Main)
	}
	// The Worker runs first where entry.mjs must decide (the API, the
	// charts, percent-escapes, empty segments), never for a page or an
	// asset: those must not wait behind a Go computation.
	for _, p := range []string{"/api/v1/attempts", "/api/v1/jitter.svg", "/%zz", "/it/%zz/", "/it/%2fretries/", "/it//retries/", "//it/"} {
		if !w.Assets.RunWorkerFirst.Match(p) {
			t.Errorf("[assets] run_worker_first does not send %s to the Worker", p)
		}
	}
	for _, p := range []string{"/", "/it/", "/it/retries/", "/zh/embed/attempts/", "/assets/app.3f2a9c1d.js", "/404.html", "/it/no-such-page/"} {
		if w.Assets.RunWorkerFirst.Match(p) {
			t.Errorf("[assets] run_worker_first sends the page %s to the Worker", p)
		}
	}
	if w.Assets.NotFoundHandling != "none" {
		t.Errorf("[assets] not_found_handling = %q, want none: a miss must reach the Worker (the 404 page of the assets layer carries the path's _headers, an immutable year under /assets/)", w.Assets.NotFoundHandling)
	}
	if w.Limits.CPUMS <= 0 {
		t.Errorf("[limits] cpu_ms is not set")
	}
	if !strings.Contains(mustRead(t, "../workerd.capnp"), `(name = "entry.mjs", esModule = embed "../../build/worker/entry.mjs"),
    (name = "worker.mjs"`) {
		t.Errorf("wasm/worker/workerd.capnp's first module (its main) is not entry.mjs")
	}
	if w.Assets.Binding != "ASSETS" {
		t.Errorf("[assets] binding = %q; wasm/worker reads ASSETS", w.Assets.Binding)
	}
	capnp, err := os.ReadFile("../workerd.capnp")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(capnp), `compatibilityDate = "`+w.CompatibilityDate+`"`) {
		t.Errorf("wasm/worker/workerd.capnp does not use wrangler.toml's compatibility_date %s", w.CompatibilityDate)
	}
	for _, want := range []string{
		`(name = "ASSETS", service = "assets")`,                                        // the Worker's binding, in its process
		`(name = "assets", address = "127.0.0.1:8789", http = (), service = "assets")`, // its other end
		`(name = "ASSETS", service = (name = "site", entrypoint = "AssetWorker"))`,     // which serves files only
		`(name = "app", external = (address = "127.0.0.1:8788", http = ()))`,           // the user Worker
	} {
		if !strings.Contains(string(capnp), want) {
			t.Errorf("wasm/worker/workerd.capnp does not bind the Worker and the assets to each other: no %s", want)
		}
	}
	bad := filepath.Join(t.TempDir(), "wrangler.toml")
	os.WriteFile(bad, []byte("name = \"x\"\ncompatibility_date = \"2026-01-01\"\n"), 0o644)
	if _, err := ReadWrangler(bad); err == nil || !strings.Contains(err.Error(), "directory") {
		t.Errorf("a wrangler.toml without [assets]: error %v", err)
	}
}

func mustRead(t *testing.T, file string) string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestRoutes(t *testing.T) {
	read := func(t *testing.T, toml string) (Routes, error) {
		t.Helper()
		f := filepath.Join(t.TempDir(), "wrangler.toml")
		os.WriteFile(f, []byte("compatibility_date = \"2026-01-01\"\n[assets]\ndirectory = \"p\"\n"+toml), 0o644)
		w, err := ReadWrangler(f)
		return w.Assets.RunWorkerFirst, err
	}
	for _, tt := range []struct {
		toml  string
		value any // in assets.json
		in    []string
		out   []string
	}{
		{"", nil, nil, []string{"/", "/api/v1/x"}},
		{"run_worker_first = false", nil, nil, []string{"/"}},
		{"run_worker_first = true", true, []string{"/", "/it/", "/api/v1/x"}, nil},
		{`run_worker_first = ["/api/*"]`, []string{"/api/*"}, []string{"/api/", "/api/v1/x.svg"}, []string{"/", "/api", "/it/api/"}},
		{`run_worker_first = ["/api/*", "!/api/docs/*"]`, []string{"/api/*", "!/api/docs/*"}, []string{"/api/v1/x"}, []string{"/api/docs/", "/api/docs/a/b"}},
		{`run_worker_first = ["/*%*", "/*//*"]`, []string{"/*%*", "/*//*"}, []string{"/%zz", "/it/%2e/", "/it//x", "/a/b//"}, []string{"/it/", "//", "/it/x/"}},
		{`run_worker_first = ["/exact"]`, []string{"/exact"}, []string{"/exact"}, []string{"/exact/", "/exactly"}},
		{`run_worker_first = ["/a*b*c"]`, []string{"/a*b*c"}, []string{"/abc", "/a-b-c", "/abcbc", "/abbc"}, []string{"/ab", "/acb", "/abcd"}},
	} {
		r, err := read(t, tt.toml)
		if err != nil {
			t.Errorf("%s: %v", tt.toml, err)
			continue
		}
		if got, want := fmt.Sprint(r.value()), fmt.Sprint(tt.value); got != want {
			t.Errorf("%s: assets.json value %s, want %s", tt.toml, got, want)
		}
		for _, p := range tt.in {
			if !r.Match(p) {
				t.Errorf("%s: %s does not run the Worker first", tt.toml, p)
			}
		}
		for _, p := range tt.out {
			if r.Match(p) {
				t.Errorf("%s: %s runs the Worker first", tt.toml, p)
			}
		}
	}
	for _, bad := range []string{`run_worker_first = []`, `run_worker_first = ["api/*"]`, `run_worker_first = [1]`, `run_worker_first = "/api/*"`} {
		if _, err := read(t, bad); err == nil || !strings.Contains(err.Error(), "run_worker_first") {
			t.Errorf("%s: error %v, want one naming run_worker_first", bad, err)
		}
	}
}
