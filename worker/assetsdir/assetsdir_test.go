package assetsdir

import (
	"encoding/json"
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
	want := "/*\n  Content-Security-Policy: default-src 'self'\n  X-Content-Type-Options: nosniff\n  X-Frame-Options: DENY\n\n" +
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
// build and worker/workerd.capnp assume.
func TestWranglerConfig(t *testing.T) {
	w, err := ReadWrangler("../wrangler.toml")
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs("../../build/worker/public")
	if w.AbsDirectory != abs {
		t.Errorf("[assets] directory resolves to %s, want %s", w.AbsDirectory, abs)
	}
	if w.Main != "../build/worker/entry.mjs" {
		t.Errorf("main = %q, want the entry.mjs of worker/edge in build/worker", w.Main)
	}
	if w.Assets.Binding != "ASSETS" {
		t.Errorf("[assets] binding = %q; wasm/worker reads ASSETS", w.Assets.Binding)
	}
	capnp, err := os.ReadFile("../workerd.capnp")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(capnp), `compatibilityDate = "`+w.CompatibilityDate+`"`) {
		t.Errorf("worker/workerd.capnp does not use wrangler.toml's compatibility_date %s", w.CompatibilityDate)
	}
	if !strings.Contains(string(capnp), `(name = "ASSETS", service = (name = "site", entrypoint = "AssetWorker"))`) {
		t.Errorf("worker/workerd.capnp does not bind ASSETS to the assets service")
	}
	bad := filepath.Join(t.TempDir(), "wrangler.toml")
	os.WriteFile(bad, []byte("name = \"x\"\ncompatibility_date = \"2026-01-01\"\n"), 0o644)
	if _, err := ReadWrangler(bad); err == nil || !strings.Contains(err.Error(), "directory") {
		t.Errorf("a wrangler.toml without [assets]: error %v", err)
	}
}
