//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"retrylab/core/calc"
)

// env is the site and the browser every test shares.
var env struct {
	root, dist, out string
	srv             *httptest.Server
	browser         context.Context
	pages           []Page
	reg             *calc.Registry
}

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	root, err := Root()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	env.root, env.dist, env.out = root, filepath.Join(root, "dist"), filepath.Join(root, "build", "e2e-out")
	if d := os.Getenv("RETRYLAB_DIST"); d != "" {
		env.dist = d // another built site (a fixture)
	}
	env.reg = calc.New()
	if err := Check(env.dist); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	// A snapshot of dist/: a rebuild during the run (./build.sh rewrites
	// dist/ in place) must not change the pages under the tests.
	snap, err := os.MkdirTemp("", "retrylab-e2e-dist-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(snap)
	if err := os.CopyFS(snap, os.DirFS(env.dist)); err != nil {
		fmt.Fprintf(os.Stderr, "e2e: copying %s: %v\n", env.dist, err)
		return 1
	}
	env.dist = snap
	if env.pages, err = Pages(env.dist); err != nil || len(env.pages) == 0 {
		fmt.Fprintf(os.Stderr, "e2e: no pages in %s (%v): run ./build.sh\n", env.dist, err)
		return 1
	}
	if env.srv, err = Serve(env.dist); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer env.srv.Close()
	b, cancel, err := Browser(context.Background())
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer cancel()
	env.browser = b
	code := m.Run()
	fmt.Println(PageLoadsLine(len(env.pages))) // for make test's summary (cmd/testsum)
	return code
}

// tab opens a new tab whose console must stay clean until the test ends.
// quiet lists substrings of console messages the test provokes on purpose.
func tab(t *testing.T, quiet ...string) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(env.browser)
	t.Cleanup(cancel)
	ctx, tcancel := context.WithTimeout(ctx, 15*time.Minute)
	t.Cleanup(tcancel)
	con := WatchConsole(ctx)
	t.Cleanup(func() {
		time.Sleep(50 * time.Millisecond) // let the last events arrive
	next:
		for _, p := range con.Problems() {
			for _, q := range quiet {
				if strings.Contains(p, q) {
					continue next
				}
			}
			t.Errorf("console: %s", p)
		}
	})
	return ctx
}

// beforeScripts has the tab ctx run each of srcs in every page it opens,
// before the page's own scripts (a hook a test counts or changes with).
func beforeScripts(t *testing.T, ctx context.Context, srcs ...string) {
	t.Helper()
	for _, src := range srcs {
		if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: src}); err != nil {
			t.Fatal(err)
		}
	}
}

// pageURL is the address of a page on the test server.
func pageURL(p Page, query string) string {
	u := env.srv.URL + p.Path
	if query != "" {
		u += "?" + query
	}
	return u
}

// pageAt is the page at path (a URL path: "/it/retries/").
func pageAt(t *testing.T, path string) Page {
	t.Helper()
	for _, p := range env.pages {
		if p.Path == path {
			return p
		}
	}
	t.Fatalf("no page %s", path)
	return Page{}
}

// widgetPages are the pages that hold widgets, in every language.
func widgetPages(t *testing.T) []Page {
	t.Helper()
	var out []Page
	for _, p := range env.pages {
		b, err := os.ReadFile(p.File)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), "data-widget=") {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		t.Fatalf("no page of %s holds a widget", env.dist)
	}
	langs := map[string]bool{}
	for _, p := range out {
		langs[p.Lang] = true
	}
	for _, l := range []string{"it", "es", "zh"} {
		if !langs[l] {
			t.Errorf("no %s page holds a widget", l)
		}
	}
	return out
}

// hasWidgets reports whether the page file holds a widget.
func hasWidgets(p Page) bool {
	b, err := os.ReadFile(p.File)
	return err == nil && strings.Contains(string(b), "data-widget=")
}

// open navigates the tab to the page and, when it holds widgets, waits
// for the playground.
func open(t *testing.T, ctx context.Context, p Page, query string) {
	t.Helper()
	steps := []chromedp.Action[chromedp.Void]{chromedp.Navigate(pageURL(p, query))}
	if hasWidgets(p) {
		steps = append(steps, WaitReady(20*time.Second))
	}
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatalf("%s?%s: %v", p.Path, query, err)
	}
}
