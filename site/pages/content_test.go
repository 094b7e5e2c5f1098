package pages

import (
	"encoding/json"
	"fmt"
	"html"
	"os"
	"regexp"
	"strings"
	"testing"

	"retrylab/core/calc"
	"retrylab/site/locale"
	"retrylab/site/widget"
)

// These tests run on the repository's own content/: the real site must
// build, its links resolve, its translations match, and two builds agree
// byte for byte.

func buildReal(t testing.TB) *Site {
	t.Helper()
	s, err := Build(realContent(t))
	if err != nil {
		t.Fatalf("content/ does not build:\n%v", err)
	}
	return s
}

func TestRealContentLinks(t *testing.T) {
	checkLinks(t, buildReal(t), "/")
}

func TestRealContentParity(t *testing.T) {
	s := buildReal(t)
	for _, msg := range CheckParity(s.Pages, locale.Languages()) {
		t.Error(msg)
	}
}

func TestRealContentDeterministic(t *testing.T) {
	if testing.Short() {
		t.Skip("two full builds")
	}
	a, b := buildReal(t), buildReal(t)
	if !a.Equal(b) {
		t.Fatal("two builds of content/ differ")
	}
}

func TestParityDetectsDifferences(t *testing.T) {
	cfg := tree(t, "testdata/site.txtar")
	s, err := Build(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if msgs := CheckParity(s.Pages, locale.Languages()); len(msgs) != 0 {
		t.Fatalf("the test tree is not in parity: %v", msgs)
	}
	es := s.Pages["es"]["demo"]
	es.Widgets[0], es.Widgets[1] = es.Widgets[1], es.Widgets[0]
	es.Citations = es.Citations[1:]
	msgs := strings.Join(CheckParity(s.Pages, locale.Languages()), "\n")
	for _, want := range []string{
		"content/es/demo.md: block 1 is calc attempts id=low q=0.1; in content/it/demo.md it is widget attempts id=a q=0.9",
		"content/es/demo.md: lacks citations of content/it/demo.md: {=a.q}",
	} {
		if !strings.Contains(msgs, want) {
			t.Errorf("parity messages lack %q:\n%s", want, msgs)
		}
	}
}

// BenchmarkBuildSite builds the real content/ (pages, assets, compression;
// without the wasm module, whose one-off compression BenchmarkCompressWasm
// measures). Target: well under a second per build.
func BenchmarkBuildSite(b *testing.B) {
	cfg := realContent(b)
	if _, err := Build(cfg); err != nil {
		b.Fatalf("content/ does not build:\n%v", err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Build(cfg); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompressWasm compresses a playground module (gzip and brotli),
// the part of a build that a new wasm costs once per module.
func BenchmarkCompressWasm(b *testing.B) {
	wasm, err := os.ReadFile("../../build/playground-retries.wasm")
	if err != nil {
		b.Skip("no build/playground-retries.wasm (run make build)")
	}
	b.SetBytes(int64(len(wasm)))
	for i := 0; i < b.N; i++ {
		compressCache.Clear()
		compressBoth(wasm, brotliQuality("assets/playground-retries.wasm", len(wasm)), "")
	}
}

// TestRealContentSubPath builds content/ for a sub-path of a static host:
// every internal link must stay under it.
func TestRealContentSubPath(t *testing.T) {
	cfg := realContent(t)
	cfg.BaseURL = "https://example.org/retrylab/"
	s, err := Build(cfg)
	if err != nil {
		t.Fatalf("content/ does not build:\n%v", err)
	}
	checkLinks(t, s, "/retrylab/")
}

// TestRealPlayground: in every language the playground page holds a
// widget of every calculator of the registry and loads the module of each
// article (site/widget.Sets), each for the calculators of its set, and no
// module of every calculator; no page calls itself provisional.
func TestRealPlayground(t *testing.T) {
	cfg := realContent(t)
	cfg.Wasm, cfg.WasmExec = map[string][]byte{}, []byte("// wasm_exec")
	for _, set := range widget.Sets() {
		cfg.Wasm[set.Name()] = []byte("\x00asm " + set.Name())
	}
	s, err := Build(cfg)
	if err != nil {
		t.Fatalf("content/ does not build:\n%v", err)
	}
	all := calc.New().List()
	for _, lang := range locale.Languages() {
		p := s.Pages[lang]["playground"]
		if p == nil {
			t.Fatalf("%s: no playground page", lang)
		}
		have := map[string]bool{}
		for _, w := range p.Widgets {
			if w.Kind == "widget" {
				have[w.Calc.Name] = true
			}
		}
		for _, c := range all {
			if !have[c.Name] {
				t.Errorf("%s/playground: no widget of %s", lang, c.Name)
			}
		}
		page := string(s.Files[lang+"/playground/index.html"])
		m := regexp.MustCompile(`id="retrylab-data">([^<]*)</script>`).FindStringSubmatch(page)
		if m == nil {
			t.Fatalf("%s/playground has no page data", lang)
		}
		var data pageData
		if err := json.Unmarshal([]byte(html.UnescapeString(m[1])), &data); err != nil {
			t.Fatalf("%s/playground's page data: %v", lang, err)
		}
		if len(data.Modules) != len(widget.Sets()) {
			t.Errorf("%s/playground loads %d modules, want one per article (%d): %+v", lang, len(data.Modules), len(widget.Sets()), data.Modules)
		}
		drawn := map[string]string{} // calculator -> module
		for _, mod := range data.Modules {
			set := widget.For(mod.Calcs)
			if set.Name() != mod.Name || !strings.Contains(mod.Wasm, "playground-"+mod.Name+".") {
				t.Errorf("%s/playground: module %s (%s) for %v, which the set %q holds", lang, mod.Name, mod.Wasm, mod.Calcs, set.Name())
			}
			for _, c := range mod.Calcs {
				drawn[c] = mod.Name
			}
		}
		for n := range have {
			if drawn[n] == "" {
				t.Errorf("%s/playground: no module draws %s", lang, n)
			}
		}
		if len(data.Modules) > 0 && (data.Wasm != data.Modules[0].Wasm || !strings.Contains(page, `data-wasm="`+data.Wasm+`"`)) {
			t.Errorf("%s/playground: wasm %q and the loader's data-wasm are not the first module", lang, data.Wasm)
		}
		if strings.Contains(page, "playground-all") {
			t.Errorf("%s/playground names a module of every calculator", lang)
		}
	}
	provisional := regexp.MustCompile(`(?i)provvisori|provisional|临时`)
	for name, b := range s.Files {
		if strings.HasSuffix(name, ".html") && provisional.Match(b) {
			t.Errorf("%s calls something provisional: %q", name, provisional.Find(b))
		}
	}
}

// apparatus is what a reader meets in every section of an article, by
// language: the question that opens a section, the caption that follows a
// widget (with its number) and its try-this line, and the heading of the
// sources that close the article (content/README.md, "A section's
// apparatus").
var apparatus = map[string]struct{ question, figure, try, sources string }{
	"it": {"**Prevedi.** ", "**Figura %d.** ", "*Prova:* ", "## Fonti"},
	"es": {"**Predice.** ", "**Figura %d.** ", "*Prueba:* ", "## Fuentes"},
	"zh": {"**先猜一猜**：", "**图 %d**　", "**试一试**：", "## 参考资料"},
}

// sources are the documents every article links in its sources.
var sources = []string{
	"https://aws.amazon.com/blogs/architecture/exponential-backoff-and-jitter/",
	"https://aws.amazon.com/builders-library/timeouts-retries-and-backoff-with-jitter/",
	"https://sre.google/sre-book/handling-overload/",
	"https://sre.google/sre-book/addressing-cascading-failures/",
	"https://github.com/grpc/proposal/blob/master/A6-client-retries.md",
	"https://www.rfc-editor.org/rfc/rfc9110#section-10.2.3",
	"https://www.rfc-editor.org/rfc/rfc6585#section-4",
	"https://developers.openai.com/api/docs/guides/rate-limits",
	"https://platform.claude.com/docs/en/api/rate-limits",
}

// TestRealApparatus: in both articles of every language each section
// opens with a question, each widget is followed by its numbered caption
// and a try-this line, and the article ends with its linked sources.
func TestRealApparatus(t *testing.T) {
	for lang, a := range apparatus {
		for _, slug := range []string{"retries", "rate-limits"} {
			file := "content/" + lang + "/" + slug + ".md"
			b, err := os.ReadFile("../../" + file)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(string(b), "\n")
			next := func(i int) string { // the next line with text after line i
				for i++; i < len(lines); i++ {
					if strings.TrimSpace(lines[i]) != "" {
						return lines[i]
					}
				}
				return ""
			}
			fig, inFence, sourcesAt := 0, false, -1
			for i, l := range lines {
				switch {
				case strings.HasPrefix(l, "```widget "):
					inFence = true
				case inFence && strings.HasPrefix(l, "```"):
					inFence = false
					fig++
					want := fmt.Sprintf(a.figure, fig)
					if n := next(i); !strings.HasPrefix(n, want) || !strings.Contains(n, a.try) {
						t.Errorf("%s:%d: widget %d wants, right after it, a line %q with a caption saying what to look at and %q with what to change", file, i+1, fig, want+"…", a.try+"…")
					}
				case strings.HasPrefix(l, "```"):
					// other fences: skip to their end
				case l == a.sources:
					sourcesAt = i
				case strings.HasPrefix(l, "## ") && sourcesAt < 0:
					if n := next(i); !strings.HasPrefix(n, a.question) {
						t.Errorf("%s:%d: section %q does not open with a question (%q…)", file, i+1, l, a.question)
					}
				}
			}
			if sourcesAt < 0 {
				t.Errorf("%s: no sources section %q", file, a.sources)
				continue
			}
			tail := strings.Join(lines[sourcesAt:], "\n")
			for _, u := range sources {
				if !strings.Contains(tail, "]("+u+")") {
					t.Errorf("%s: the sources do not link %s", file, u)
				}
			}
		}
	}
}
