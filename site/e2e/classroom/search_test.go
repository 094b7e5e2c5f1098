//go:build e2e

package classroom

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"retrylab/site/server"
)

// searchTerms: per language, a term of each article and a glossary term,
// with the page it must find first (Pagefind, site/search; the weights of
// site/pages/search.go).
var searchTerms = []struct{ lang, term, page string }{
	{"it", "amplificazione", "/it/retries/"},
	{"it", "dispatcher", "/it/glossary/"}, // a glossary term
	{"it", "concorrenza", "/it/rate-limits/"},
	{"it", "metastabile", "/it/glossary/"}, // a glossary term,
	{"it", "gettone", "/it/backoff-work/"},
	{"es", "amplificación", "/es/retries/"},
	{"es", "despachador", "/es/rate-limits/"},
	{"es", "concurrencia", "/es/rate-limits/"},
	{"es", "metaestable", "/es/glossary/"}, // a glossary term,
	{"zh", "放大", "/zh/retries/"},
	{"zh", "调度器", "/zh/rate-limits/"},
	{"zh", "亚稳态", "/zh/backoff-work/"},
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
	time.Sleep(10 * time.Millisecond)
	_ = fmt.Sprint
}
