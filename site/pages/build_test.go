package pages

import (
	"bytes"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"golang.org/x/tools/txtar"

	"retrylab/core/calc"
	"retrylab/site/locale"
	"retrylab/site/markdown"
)

// tree reads a txtar content tree: content/… files become the content FS,
// repo/… files the repository FS.
func tree(t testing.TB, file string) Config {
	t.Helper()
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	content, repo := fstest.MapFS{}, fstest.MapFS{}
	for _, f := range ar.Files {
		if name, ok := strings.CutPrefix(f.Name, "content/"); ok {
			content[name] = &fstest.MapFile{Data: f.Data}
		} else if name, ok := strings.CutPrefix(f.Name, "repo/"); ok {
			repo[name] = &fstest.MapFile{Data: f.Data}
		}
	}
	return Config{Content: content, ContentDir: "content", Repo: repo}
}

func TestBuildTree(t *testing.T) {
	cfg := tree(t, "testdata/site.txtar")
	cfg.Wasm = map[string][]byte{"retries": []byte("\x00asm retries"), "rate-limits": []byte("\x00asm rate-limits"), "policies": []byte("\x00asm policies"), "backoff-work": []byte("\x00asm backoff-work")}
	cfg.WasmExec = []byte("// wasm_exec")
	s, err := Build(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"index.html", "404.html", "sitemap.xml", "robots.txt",
		"it/index.html", "es/index.html", "zh/index.html", "it/demo/index.html", "zh/second/index.html"} {
		if _, ok := s.Files[f]; !ok {
			t.Errorf("missing %s", f)
		}
	}
	page := string(s.Files["it/demo/index.html"])
	for _, want := range []string{
		`<html lang="it" dir="ltr" data-decimal="," data-group="." data-group-min="4">`,
		`<meta http-equiv="Content-Security-Policy" content="default-src &#39;self&#39;; script-src &#39;self&#39; &#39;wasm-unsafe-eval&#39;; worker-src &#39;self&#39;; style-src &#39;self&#39;; img-src &#39;self&#39; data:; object-src &#39;none&#39;; base-uri &#39;self&#39;; form-action &#39;self&#39;">`,
		`<link rel="alternate" hreflang="es" href="/es/demo/">`,
		`<link rel="alternate" hreflang="zh" href="/zh/demo/">`,
		`<link rel="alternate" hreflang="x-default" href="/">`,
		`<meta property="og:title" content="Una pagina di prova">`,
		`<meta property="og:locale" content="it_IT">`,
		`<meta property="og:locale:alternate" content="zh_CN">`,
		`<meta name="description" content="Una pagina con un esperimento.">`,
		`<a class="skip-link" href="#main">Vai al contenuto</a>`,
		`<main id="main"`,
		`aria-current="page">Italiano</a>`,
		`<script type="application/json" id="retrylab-data">{"lang":"it"`,
		`data-widget="attempts" id="a"`,
		`<output data-cite="a.expected_attempts" data-format="2" data-value="2.71" aria-live="off">2,71</output>`,
		`<output data-cite="low.success_probability" data-format="%1" data-value="0.999" aria-live="off">99,9`,
		`<math display="block" tabindex="0">`,
		`<span class="k">for</span>`,
		`<noscript>`,
		`<time datetime="2026-11-29">29 novembre 2026</time>`,
		`data-theme-toggle`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("it/demo lacks %s", want)
		}
	}
	if strings.Contains(page, "<script>") || regexp.MustCompile(`<script(?: [^>]*)?>[^<]`).MatchString(strings.ReplaceAll(page, `id="retrylab-data">`, `>`)) && !strings.Contains(page, `type="application/json"`) {
		t.Error("inline script in the page")
	}
	if regexp.MustCompile(` style="`).MatchString(page) {
		t.Error("inline style attribute (the CSP forbids it)")
	}
	if !strings.Contains(string(s.Files["zh/demo/index.html"]), `<time datetime="2026-11-29">2026年11月29日</time>`) {
		t.Error("zh date")
	}
	// The language index lists its pages by order: second (0) before demo (1).
	idx := string(s.Files["es/index.html"])
	if i, j := strings.Index(idx, `href="/es/second/"`), strings.Index(idx, `href="/es/demo/"`); i < 0 || j < 0 || i > j {
		t.Errorf("es index order: second at %d, demo at %d", i, j)
	}
	// Hashed assets, referenced by their hashed names, with compressed siblings.
	var css, wasm string
	for name := range s.Files {
		if m, _ := path.Match("assets/style.*.css", name); m {
			css = name
		}
		if m, _ := path.Match("assets/playground-retries.*.wasm", name); m {
			wasm = name
		}
		if m, _ := path.Match("assets/playground-all.*.wasm", name); m {
			t.Errorf("%s: no page needs the module of every calculator", name)
		}
	}
	if css == "" || wasm == "" {
		t.Fatalf("hashed css %q, wasm %q", css, wasm)
	}
	if css != "assets/"+HashedName("style.css", s.Files[css]) {
		t.Errorf("%s: the name does not hash the content", css)
	}
	if !strings.Contains(page, `href="/`+css+`"`) || !strings.Contains(page, `"wasm":"/`+wasm+`"`) || !strings.Contains(page, `data-wasm="/`+wasm+`"`) {
		t.Error("the page does not reference the hashed assets")
	}
	// An embed of a rate-limits calculator loads that article's module.
	if embed := string(s.Files["es/embed/dispatch/index.html"]); !regexp.MustCompile(`data-wasm="/assets/playground-rate-limits\.[0-9a-f]{12}\.wasm"`).MatchString(embed) {
		t.Error("the embed of dispatch does not load the rate-limits module")
	}
	for _, f := range []string{css + ".gz", css + ".br", "it/demo/index.html.br", "sitemap.xml.gz"} {
		if _, ok := s.Files[f]; !ok {
			t.Errorf("missing %s", f)
		}
	}
	if !strings.Contains(string(s.Files["sitemap.xml"]), `<loc>/zh/demo/</loc>`) {
		t.Error("sitemap lacks /zh/demo/")
	}
	root := string(s.Files["index.html"])
	for _, l := range []string{`<html lang="mul"`, `href="#main">Vai al contenuto · Ir al contenido · 跳到正文</a>`, `href="/it/" hreflang="it"`, `href="/es/" hreflang="es"`, `href="/zh/" hreflang="zh"`} {
		if !strings.Contains(root, l) {
			t.Errorf("root page lacks %s", l)
		}
	}
	checkLinks(t, s, "/")
}

func TestBuildDeterministic(t *testing.T) {
	a, err := Build(tree(t, "testdata/site.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Build(tree(t, "testdata/site.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if !a.Equal(b) {
		for k := range a.Files {
			if !bytes.Equal(a.Files[k], b.Files[k]) {
				t.Errorf("%s differs between two builds", k)
			}
		}
		t.Fatal("two builds differ")
	}
}

func TestBuildBaseURL(t *testing.T) {
	for _, base := range []string{"/retrylab/", "https://example.org/retrylab/"} {
		cfg := tree(t, "testdata/site.txtar")
		cfg.BaseURL = base
		s, err := Build(cfg)
		if err != nil {
			t.Fatal(err)
		}
		page := string(s.Files["es/demo/index.html"])
		if !strings.Contains(page, `href="/retrylab/assets/style.`) || !strings.Contains(page, `<a href="/retrylab/it/demo/" hreflang="it"`) {
			t.Errorf("%s: links do not start with the sub-path", base)
		}
		if strings.HasPrefix(base, "https") {
			if !strings.Contains(page, `<link rel="canonical" href="https://example.org/retrylab/es/demo/">`) ||
				!strings.Contains(string(s.Files["robots.txt"]), "Sitemap: https://example.org/retrylab/sitemap.xml") ||
				!strings.Contains(string(s.Files["sitemap.xml"]), "<loc>https://example.org/retrylab/it/</loc>") {
				t.Errorf("%s: absolute URLs missing", base)
			}
		}
		checkLinks(t, s, "/retrylab/")
	}
	if _, err := parseBase("ftp://x/"); err == nil {
		t.Error("ftp base accepted")
	}
}

// TestBuildBadContent checks the errors of the content tree as a whole.
func TestBuildBadContent(t *testing.T) {
	tests := []struct {
		name string
		edit func(c fstest.MapFS)
		want string
	}{
		{"page missing in one language", func(c fstest.MapFS) { delete(c, "zh/second.md") },
			"content/it/second.md:1: the page has no zh translation: content/zh/second.md is missing"},
		{"missing index", func(c fstest.MapFS) {
			for _, l := range locale.Languages() {
				delete(c, l+"/index.md")
			}
		}, "content/it/index.md:0: missing: every language needs an index.md"},
		{"missing strings", func(c fstest.MapFS) { delete(c, "es/strings.toml") }, "content/es/strings.toml:0: missing"},
		{"missing site key", func(c fstest.MapFS) {
			c["zh/strings.toml"].Data = bytes.Replace(c["zh/strings.toml"].Data, []byte("skip ="), []byte("skipped ="), 1)
		}, "content/zh/strings.toml:1: missing strings (the [site] table): site.skip"},
		{"broken toml", func(c fstest.MapFS) { c["it/strings.toml"].Data = []byte("[site\nname = 1\n") }, "content/it/strings.toml:2: expected"},
		{"bad file name", func(c fstest.MapFS) { c["it/Bad Name.md"] = &fstest.MapFile{Data: []byte("x")} }, "content/it/Bad Name.md:1: file name must be"},
		{"broken front matter", func(c fstest.MapFS) {
			c["es/demo.md"].Data = bytes.Replace(c["es/demo.md"].Data, []byte("date: 2026-11-29"), []byte("date: ayer"), 1)
		}, "content/es/demo.md:4: front matter: date must be YYYY-MM-DD"},
		{"unknown widget", func(c fstest.MapFS) {
			c["zh/demo.md"].Data = bytes.Replace(c["zh/demo.md"].Data, []byte("widget attempts"), []byte("widget attempt"), 1)
		}, "content/zh/demo.md:9: unknown widget \"attempt\""},
		{"bad parameter", func(c fstest.MapFS) {
			c["it/demo.md"].Data = bytes.Replace(c["it/demo.md"].Data, []byte("q: 0.9"), []byte("q: 1.5"), 1)
		}, "content/it/demo.md:11: widget a: q must be in [0, 1], got \"1.5\""},
		{"clashing element ids", func(c fstest.MapFS) {
			c["it/demo.md"].Data = append(bytes.Clone(c["it/demo.md"].Data), []byte("\n```widget attempts\nid: a-q\n```\n")...)
		}, "content/it/demo.md:26: the element id \"a-q\" appears twice in the page (made by the widgets a and a-q: a widget's controls are ID-PARAMETER); rename a widget"},
		{"citation to nothing", func(c fstest.MapFS) {
			c["it/demo.md"].Data = bytes.Replace(c["it/demo.md"].Data, []byte("{=a.q}"), []byte("{=b.q}"), 1)
		}, "content/it/demo.md:7: citation {=b.q}: no widget or calc with id \"b\""},
		{"citation to an unknown field", func(c fstest.MapFS) {
			c["it/demo.md"].Data = bytes.Replace(c["it/demo.md"].Data, []byte("{=a.q}"), []byte("{=a.peak}"), 1)
		}, "content/it/demo.md:7: citation {=a.peak}: attempts has no field \"peak\""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := tree(t, "testdata/site.txtar")
			tt.edit(cfg.Content.(fstest.MapFS))
			_, err := Build(cfg)
			if err == nil {
				t.Fatal("the build succeeded")
			}
			var es markdown.Errors
			if !errors.As(err, &es) {
				t.Fatalf("%T %v is not markdown.Errors", err, err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got\n%v\nwant a line containing\n%s", err, tt.want)
			}
		})
	}
}

var (
	attrRE = regexp.MustCompile(`(?:href|src)="([^"]*)"`)
	altRE  = regexp.MustCompile(`<link rel="alternate" hreflang="([a-z-]+)" href="([^"]*)">`)
)

// checkLinks verifies that every internal href and src of every page
// resolves to a file of the site (and its #fragment to an id of that
// page), and that every page of a language links all its translations.
func checkLinks(t *testing.T, s *Site, base string) {
	t.Helper()
	origin := ""
	if i := strings.Index(string(s.Files["index.html"]), `<link rel="canonical" href="http`); i >= 0 {
		u, _ := url.Parse(regexp.MustCompile(`href="([^"]*)"`).FindStringSubmatch(string(s.Files["index.html"])[i:])[1])
		origin = u.Scheme + "://" + u.Host
	}
	resolve := func(pageURL, ref string) (file, frag string, internal bool) {
		u, err := url.Parse(ref)
		if err != nil {
			return "", "", false
		}
		if u.Scheme != "" || u.Host != "" {
			if origin == "" || u.Scheme+"://"+u.Host != origin {
				return "", "", false
			}
		}
		p, _ := url.Parse(pageURL)
		abs := p.ResolveReference(u)
		rel, ok := strings.CutPrefix(abs.Path, base)
		if !ok {
			return "/" + abs.Path, "", true // outside the site: cannot resolve
		}
		if rel == "" || strings.HasSuffix(rel, "/") {
			rel += "index.html"
		}
		return rel, u.Fragment, true
	}
	pages := 0
	for name, data := range s.Files {
		if !strings.HasSuffix(name, ".html") {
			continue
		}
		pages++
		pageURL := base + strings.TrimSuffix(name, "index.html")
		for _, m := range attrRE.FindAllStringSubmatch(string(data), -1) {
			ref := strings.ReplaceAll(m[1], "&amp;", "&")
			file, frag, internal := resolve(pageURL, ref)
			if !internal {
				continue
			}
			target, ok := s.Files[file]
			if !ok {
				t.Errorf("%s: link %q: no file %s", name, m[1], file)
				continue
			}
			if frag != "" && !bytes.Contains(target, []byte(` id="`+frag+`"`)) {
				t.Errorf("%s: link %q: no id %q in %s", name, m[1], frag, file)
			}
		}
		// Translations: a page under <lang>/ links every language's version.
		lang, rest, ok := strings.Cut(name, "/")
		if !ok {
			continue
		}
		alts := map[string]string{}
		for _, m := range altRE.FindAllStringSubmatch(string(data), -1) {
			alts[m[1]] = m[2]
		}
		for _, l := range locale.Languages() {
			want := base + l + "/" + strings.TrimSuffix(rest, "index.html")
			if got := alts[l]; !strings.HasSuffix(got, want) {
				t.Errorf("%s: hreflang %s is %q, want %s", name, l, got, want)
			}
			if !bytes.Contains(data, []byte(fmt.Sprintf(`<a href="%s" hreflang="%s"`, want, l))) {
				t.Errorf("%s: the language switcher lacks %s", name, want)
			}
		}
		if alts["x-default"] == "" {
			t.Errorf("%s (%s): no x-default", name, lang)
		}
	}
	if pages < 5 {
		t.Errorf("only %d pages checked", pages)
	}
}

// realContent returns the configuration of the repository's content/.
func realContent(t testing.TB) Config {
	if _, err := os.Stat("../../content/it/index.md"); err != nil {
		t.Skip("no content/ tree")
	}
	return Config{Content: os.DirFS("../../content"), ContentDir: "content", Repo: os.DirFS("../..")}
}

func TestPageLocale(t *testing.T) {
	s, err := Build(tree(t, "testdata/site.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	b := &builder{cfg: Config{Registry: calc.New()}}
	loc := locale.Locale{Lang: "it", Strings: map[string]string{
		"param.attempts.q": "q", "param.jitter.clients": "client", "widget.static": "statica",
		"err.range": "r", "detail.jitter.total": "d", "widget.unit.ms": "ms", "site.skip": "salta", "other.x": "x",
	}}
	got := b.pageLocale(loc, []string{"attempts"}).Strings
	for _, k := range []string{"param.attempts.q", "widget.static", "err.range", "widget.unit.ms", "site.skip"} {
		if _, ok := got[k]; !ok {
			t.Errorf("%s dropped", k)
		}
	}
	for _, k := range []string{"param.jitter.clients", "detail.jitter.total", "other.x"} {
		if _, ok := got[k]; ok {
			t.Errorf("%s kept", k)
		}
	}
	if !strings.Contains(string(s.Files["it/demo/index.html"]), `"site.skip":"Vai al contenuto"`) {
		t.Error("the demo page lacks its strings")
	}
}

// TestModuleChoice checks which playground module a page gets: its
// article's, else a build error naming the page and the module it needs;
// no module, static pages. (A page that mixes the articles' experiments
// loads one module per article: TestRealPlayground.)
func TestModuleChoice(t *testing.T) {
	fake := func(names ...string) map[string][]byte {
		m := map[string][]byte{}
		for _, n := range names {
			m[n] = []byte("\x00asm " + n)
		}
		return m
	}
	for _, tc := range []struct {
		name    string
		modules map[string][]byte
		want    string // the module of it/demo ("" none), or the error's text
		wantErr bool
	}{
		{"article", fake("retries", "rate-limits", "policies", "backoff-work"), "playground-retries", false},
		{"missing", fake("rate-limits"), "content/it/demo.md: the widgets (attempts) need the playground module retries (wasm/playground/retries), which the build was not given", true},
		{"static", nil, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := tree(t, "testdata/site.txtar")
			cfg.Wasm, cfg.WasmExec = tc.modules, []byte("// wasm_exec")
			s, err := Build(cfg)
			if tc.wantErr {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("error %v, want %q", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			page := string(s.Files["it/demo/index.html"])
			got := regexp.MustCompile(`data-wasm="/assets/(playground-[a-z-]+)\.`).FindStringSubmatch(page)
			switch {
			case tc.want == "" && got != nil:
				t.Errorf("a static build loads %s", got[1])
			case tc.want != "" && (got == nil || got[1] != tc.want):
				t.Errorf("it/demo loads %v, want %s", got, tc.want)
			}
			if tc.want == "" && strings.Contains(page, "preload") && strings.Contains(page, "application/wasm") {
				t.Error("a static page preloads a module")
			}
		})
	}
}
