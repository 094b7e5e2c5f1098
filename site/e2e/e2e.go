// Package e2e drives the built site (dist/) in Debian's Chromium through
// the DevTools protocol (chromedp): the browser tests of `make test` and
// the playground benchmark of `make bench` (cmd/wasmbench) share these
// helpers.
//
// The site is served by the real site/server handler on 127.0.0.1, and the
// browser reaches nothing else: every other host name resolves to nothing.
package e2e

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chromedp/chromedp"
)

// Chromium is the browser the tests drive: Debian's package.
const Chromium = "/usr/bin/chromium"

// Root returns the module root: the nearest parent of the working
// directory that holds go.mod.
func Root() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("e2e: no go.mod above the working directory")
		}
		dir = parent
	}
}

// Check reports what is missing to run the browser against dist/: the
// browser (make deps) or the built site (./build.sh).
func Check(dist string) error {
	if _, err := exec.LookPath(Chromium); err != nil {
		return fmt.Errorf("e2e: Chromium is missing at %s: run `make deps` (as root it installs it with apt)", Chromium)
	}
	if _, err := findFile(dist, "index.html"); err != nil {
		return fmt.Errorf("e2e: %s has no index.html: run ./build.sh (or `make build`) first", dist)
	}
	if mods, _ := filepath.Glob(filepath.Join(dist, "assets", "playground-*.wasm")); len(mods) == 0 {
		return fmt.Errorf("e2e: %s has no playground module (assets/playground-NAME.*.wasm): run ./build.sh (or `make build`) first", dist)
	}
	return nil
}

// findFile finds a file by base name (or a content-hashed variant
// NAME.HASH.EXT) under dir.
func findFile(dir, base string) (string, error) {
	ext := filepath.Ext(base)
	stem := strings.TrimSuffix(base, ext)
	var found string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || found != "" || d.IsDir() {
			return err
		}
		n := d.Name()
		if n == base || strings.HasPrefix(n, stem+".") && strings.HasSuffix(n, ext) && !strings.HasSuffix(n, ".gz") && !strings.HasSuffix(n, ".br") {
			found = p
		}
		return nil
	})
	if err == nil && found == "" {
		err = fs.ErrNotExist
	}
	return found, err
}

// Browser starts headless Chromium with a fresh profile in a temporary
// directory and returns a context whose tabs (chromedp.NewContext of it)
// run in that browser. cancel stops the browser and removes the profile.
func Browser(ctx context.Context, extra ...chromedp.ExecAllocatorOption) (context.Context, context.CancelFunc, error) {
	profile, err := os.MkdirTemp("", "retrylab-chromium-")
	if err != nil {
		return nil, nil, err
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(Chromium),
		chromedp.UserDataDir(profile),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND , EXCLUDE localhost, EXCLUDE 127.0.0.1"),
		chromedp.WindowSize(1280, 900),
	)
	opts = append(opts, extra...)
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	bctx, bcancel := chromedp.NewContext(actx)
	cancel := func() {
		bcancel()
		acancel()
		os.RemoveAll(profile)
	}
	// The first action starts the browser; the browser lives as long as the
	// context of that action, so it runs on bctx itself.
	timer := time.AfterFunc(60*time.Second, cancel)
	defer timer.Stop()
	if err := chromedp.Do(bctx); err != nil {
		cancel()
		return nil, nil, fmt.Errorf("e2e: starting %s: %w", Chromium, err)
	}
	return bctx, cancel, nil
}

// Serve serves dist/ with the site's own handler on 127.0.0.1. It
// counts the HTML pages it answers in PageLoads.
func Serve(dist string) (*httptest.Server, error) {
	h, err := handler(dist)
	if err != nil {
		return nil, err
	}
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p := r.URL.Path; r.Method == http.MethodGet && (strings.HasSuffix(p, "/") || strings.HasSuffix(p, ".html")) {
			PageLoads.Add(1)
		}
		h.ServeHTTP(w, r)
	})), nil
}

// PageLoads counts the pages Serve's servers have answered: the browser
// pages a run loaded, which the test binary prints at its end
// (PageLoadsLine) for make test's summary (site/e2e/cmd/testsum).
var PageLoads atomic.Int64

// PageLoadsLine is the line a test binary prints at its end: "e2e: N
// browser page loads of M pages".
func PageLoadsLine(pages int) string {
	return fmt.Sprintf("e2e: %d browser page loads of %d pages", PageLoads.Load(), pages)
}

// Page is one HTML page of the built site.
type Page struct {
	Path string // URL path, "/it/retries/"
	Lang string // "it", "es", "zh"; "" for the root page and 404
	File string // the file under dist/
}

// Name is a file-name-safe name of the page ("it-retries", "root").
func (p Page) Name() string {
	n := strings.Trim(strings.ReplaceAll(p.Path, "/", "-"), "-")
	if n == "" {
		return "root"
	}
	return n
}

// Pages lists the pages of dist/: every index.html, by path.
func Pages(dist string) ([]Page, error) {
	var pages []Page
	err := filepath.WalkDir(dist, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() != "index.html" {
			return err
		}
		rel, _ := filepath.Rel(dist, filepath.Dir(p))
		rel = filepath.ToSlash(rel)
		pg := Page{Path: "/", File: p}
		if rel != "." {
			pg.Path = "/" + rel + "/"
			pg.Lang, _, _ = strings.Cut(rel, "/")
		}
		pages = append(pages, pg)
		return nil
	})
	sort.Slice(pages, func(i, j int) bool { return pages[i].Path < pages[j].Path })
	return pages, err
}

// WaitReady waits until the page marks <html data-ready="true"> (the
// playground started and hydrated the widgets near the viewport), then
// has it hydrate every other widget and waits until each is marked
// data-hydrated. It fails after timeout, or at once
// when the loader marks data-ready="error".
func WaitReady(timeout time.Duration) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		ctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		state, err := chromedp.PollFunction[string](`() => {
			const r = document.documentElement.getAttribute("data-ready");
			return r === "true" || r === "error" ? r : false;
		}`, chromedp.WithPollingInterval(5*time.Millisecond))(ctx, t)
		if err != nil {
			return fmt.Errorf("waiting for <html data-ready>: %w", err)
		}
		if state != "true" {
			return fmt.Errorf("the page's loader reports data-ready=%q: the playground did not start", state)
		}
		// widgets hydrate, and player.js sets up their players and
		// controls, as they near the viewport (wasm/playground/lazy.go,
		// retrylabWhenNear): the tests drive any of them, so every one is
		// hydrated and set up now, and waited for
		if _, err := chromedp.PollFunction[bool](`() => {
			if (window.retrylabHydrateAll) { window.retrylabHydrateAll(); }
			if (window.retrylabStartAll) { window.retrylabStartAll(); }
			return document.querySelectorAll('[data-widget]:not([data-hydrated])').length === 0;
		}`, chromedp.WithPollingInterval(5*time.Millisecond))(ctx, t); err != nil {
			return fmt.Errorf("waiting for every widget's data-hydrated: %w", err)
		}
		return nil
	})
}

// Console records what a tab writes to its console.
type Console struct {
	mu   sync.Mutex
	msgs []chromedp.ConsoleMessage
}

// WatchConsole subscribes to the console of the tab of ctx (creating the
// tab) until ctx ends.
func WatchConsole(ctx context.Context) *Console {
	c := &Console{}
	msgs := chromedp.Console(ctx)
	go func() {
		for m, err := range msgs {
			if err != nil {
				return
			}
			c.mu.Lock()
			c.msgs = append(c.msgs, m)
			c.mu.Unlock()
		}
	}()
	return c
}

// Problems returns every message a page in normal use must not write: any
// call of the console API (the playground logs nothing, and a Go panic
// prints "panic:" through console.log), every uncaught exception, and the
// browser's warnings and errors (a failed request, a CSP violation).
func (c *Console) Problems() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for _, m := range c.msgs {
		if m.Source != "" && m.Type != chromedp.ConsoleWarning && m.Type != chromedp.ConsoleError {
			continue // the browser's own verbose and info entries
		}
		s := m.String()
		if m.URL != "" {
			s += " (" + m.URL + ")"
		}
		if m.Stack != nil && len(m.Stack.CallFrames) > 0 {
			f := m.Stack.CallFrames[0]
			s += fmt.Sprintf(" at %s %s:%d", f.FunctionName, f.URL, f.LineNumber+1)
		}
		out = append(out, s)
	}
	return out
}
