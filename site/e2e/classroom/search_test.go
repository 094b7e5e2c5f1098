//go:build e2e

package classroom

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"retrylab/site/pages"
	"retrylab/site/server"
)

// searchTerms: per language, terms of the articles and glossary terms,
// with the page each must find first (Pagefind, site/search; the weights
// and metadata of site/pages/search.go). TestSearchOwnPages searches
// every glossary term and every calculator's name, which covers every
// article.
var searchTerms = []struct{ lang, term, page string }{
	{"it", "amplificazione", "/it/retries/"},
	{"it", "dispatcher", "/it/glossary/"},   // a glossary term
	{"it", "frequenza", "/it/rate-limits/"}, // (concorrenza names the fourth article's contention too)
	{"it", "metastabile", "/it/glossary/"},  // a glossary term,
	{"it", "gettone", "/it/glossary/"},      // a glossary term
	{"es", "amplificación", "/es/retries/"},
	{"es", "despachador", "/es/glossary/"},   // a glossary term
	{"es", "frecuencia", "/es/rate-limits/"}, // (concurrencia names the fourth article's contention too)
	{"es", "metaestable", "/es/glossary/"},   // a glossary term,
	{"zh", "放大", "/zh/retries/"},
	{"zh", "调度器", "/zh/glossary/"}, // a glossary term
	{"zh", "亚稳态", "/zh/glossary/"}, // a word of the glossary term 亚稳态故障
}

// search types term into the search box of page u and returns the
// results' links, once there are some (or the "none" message).
func search(t *testing.T, ctx context.Context, u, term string) []string {
	t.Helper()
	navigate(t, ctx, u)
	waitJS(t, ctx, "the search box", `!document.querySelector('form[data-search]').hidden`)
	// The keyboard: focus the box, type, Enter.
	if err := chromedp.Do(ctx, chromedp.Focus(chromedp.CSS(`#search-q`)), chromedp.KeyEvent(term+"\r")); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "results for "+term, `!document.getElementById('search-results').hidden && document.querySelector('#search-results .search-list, #search-results .search-status') !== null`)
	return eval[[]string](t, ctx, `Array.from(document.querySelectorAll('#search-results .search-list a')).map(a => new URL(a.href).pathname)`)
}

// TestSearch: in each language a term of each article finds that article
// first, a glossary term its glossary; a Chinese term finds its page
// (Pagefind's extended binary segments Chinese); an unknown word says so;
// the console stays silent (the site's CSP allows Pagefind's module and
// its WebAssembly).
func TestSearch(t *testing.T) {
	if _, err := os.Stat(filepath.Join(env.dist, "pagefind", "pagefind.js")); err != nil {
		t.Fatalf("%s has no search index (pagefind/pagefind.js): install Pagefind (./site/e2e/deps.sh) and rebuild (make build)", env.dist)
	}
	for _, tc := range searchTerms {
		t.Run(tc.lang+"-"+tc.term, func(t *testing.T) {
			ctx, _ := tab(t)
			got := search(t, ctx, env.site.URL+"/"+tc.lang+"/", tc.term)
			if len(got) == 0 || got[0] != tc.page {
				t.Errorf("%q in %s: %v, want %s first", tc.term, tc.lang, got, tc.page)
			}
		})
	}
	ctx, _ := tab(t)
	if got := search(t, ctx, env.site.URL+"/it/retries/", "zzqxjv"); len(got) != 0 {
		t.Errorf("an unknown word found %v", got)
	}
	if msg := eval[string](t, ctx, `document.querySelector('#search-results .search-status').textContent`); !strings.Contains(msg, "zzqxjv") {
		t.Errorf("no-result message %q", msg)
	}
}

// TestSearchSubPath builds the site under BASE_URL=/sub/ (static pages,
// no previews) with its index and searches it through the site's handler
// with its CSP headers: the results link under /sub/.
func TestSearchSubPath(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "dist")
	cmd := exec.Command("go", "run", "./site/cmd/retrylab", "build", "-content", "content", "-out", dir, "-wasm", "", "-base-url", "/sub/", "-previews=false", "-search", "require")
	cmd.Dir = env.root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build under /sub/: %v\n%s", err, out)
	}
	srv := httptest.NewServer(server.New(server.Config{Dist: os.DirFS(dir), Base: "/sub/"}))
	defer srv.Close()
	ctx, _ := tab(t)
	got := search(t, ctx, srv.URL+"/sub/it/", "amplificazione")
	if len(got) == 0 || got[0] != "/sub/it/retries/" {
		t.Errorf("under /sub/: %v, want /sub/it/retries/ first", got)
	}
	// a glossary term under /sub/ too
	got = search(t, ctx, srv.URL+"/sub/es/", "despachador")
	if len(got) == 0 || got[0] != "/sub/es/glossary/" {
		t.Errorf("under /sub/: %v, want /sub/es/glossary/ first", got)
	}
	time.Sleep(10 * time.Millisecond)
}

// TestSearchOwnPages: in each language, every glossary term finds the
// glossary first and every calculator's name (its widget's title in the
// language) finds the article that holds it first. The terms and names
// are the ones the build marked on each page (site/pages's metadata
// element, read back with pages.SearchSubjects), so a new term or
// calculator joins the test by itself. The box is driven as a reader
// does (type, Enter), on one page per language, console silent.
func TestSearchOwnPages(t *testing.T) {
	if _, err := os.Stat(filepath.Join(env.dist, "pagefind", "pagefind.js")); err != nil {
		t.Fatalf("%s has no search index: install Pagefind (./site/e2e/deps.sh) and rebuild (make build)", env.dist)
	}
	for _, lang := range []string{"it", "es", "zh"} {
		t.Run(lang, func(t *testing.T) {
			// name → the pages whose subject it is
			own := map[string][]string{}
			var order []string
			dirs, err := os.ReadDir(filepath.Join(env.dist, lang))
			if err != nil {
				t.Fatal(err)
			}
			terms := 0
			for _, d := range dirs {
				b, err := os.ReadFile(filepath.Join(env.dist, lang, d.Name(), "index.html"))
				if err != nil {
					continue
				}
				field, names := pages.SearchSubjects(string(b))
				for _, n := range names {
					if field == "term" {
						terms++
					}
					if own[n] == nil {
						order = append(order, n)
					}
					own[n] = append(own[n], "/"+lang+"/"+d.Name()+"/")
				}
			}
			if terms == 0 || len(order) <= terms {
				t.Fatalf("%d glossary terms and %d names in all: the pages lack their search subjects", terms, len(order))
			}
			ctx, _ := tab(t)
			navigate(t, ctx, env.site.URL+"/"+lang+"/")
			waitJS(t, ctx, "the search box", `!document.querySelector('form[data-search]').hidden`)
			for _, name := range order {
				got := typeSearch(t, ctx, name)
				ok := false
				for _, p := range own[name] {
					ok = ok || (len(got) > 0 && got[0] == p)
				}
				if !ok {
					t.Errorf("%q: %v, want first one of %v", name, head(got, 3), own[name])
				}
			}
			t.Logf("%d names searched (%d glossary terms)", len(order), terms)
		})
	}
}

// typeSearch replaces the box's text with term, presses Enter and returns
// the results' paths once they are for term.
func typeSearch(t *testing.T, ctx context.Context, term string) []string {
	t.Helper()
	eval[bool](t, ctx, `(() => { const q = document.getElementById('search-q'); q.value = ''; q.focus();
		document.getElementById('search-results').textContent = ''; return true })()`)
	if err := chromedp.Do(ctx, chromedp.KeyEvent(term+"\r")); err != nil {
		t.Fatal(err)
	}
	tj, _ := json.Marshal(term)
	waitJS(t, ctx, "results for "+term, `document.getElementById('search-results').getAttribute('data-q') === `+string(tj)+` && document.querySelector('#search-results .search-list, #search-results .search-status') !== null`)
	return eval[[]string](t, ctx, `Array.from(document.querySelectorAll('#search-results .search-list a')).map(a => new URL(a.href).pathname)`)
}

func head(s []string, n int) []string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
