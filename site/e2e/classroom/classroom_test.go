//go:build e2e

// Package classroom holds the browser tests of the embeds and of the
// exercises page (issue 7): an embed framed by a page of another origin
// reports its height; a bad query shows a message; the SVG charts render
// as images; the exercises accept right answers, reject wrong ones with
// a hint, and give the same variant for the same class and student; the
// printed worksheet fits A4 (PDFs in build/e2e-out/classroom/).
//
// It reuses the exported helpers of retrylab/e2e (Chromium, the site's
// handler over dist/, console watching) and needs what they need:
// Chromium and a built dist/ (./build.sh); RETRYLAB_DIST names another.
package classroom

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"retrylab/core/calc"
	"retrylab/site/e2e"
)

var env struct {
	root, dist, out string
	site            *httptest.Server
	browser         context.Context
}

func TestMain(m *testing.M) { os.Exit(run(m)) }

func run(m *testing.M) int {
	root, err := e2e.Root()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	env.root, env.dist, env.out = root, filepath.Join(root, "dist"), filepath.Join(root, "build", "e2e-out", "classroom")
	if d := os.Getenv("RETRYLAB_DIST"); d != "" {
		env.dist = d
	}
	if err := e2e.Check(env.dist); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if _, err := os.Stat(filepath.Join(env.dist, "it", "embed", "attempts", "index.html")); err != nil {
		fmt.Fprintf(os.Stderr, "site/e2e/classroom: %s has no embed pages: rebuild it (./build.sh)\n", env.dist)
		return 1
	}
	if err := os.MkdirAll(env.out, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if env.site, err = e2e.Serve(env.dist); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer env.site.Close()
	b, cancel, err := e2e.Browser(context.Background())
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer cancel()
	env.browser = b
	return m.Run()
}

// tab opens a tab whose console must stay clean, but for the messages
// that contain one of quiet.
func tab(t *testing.T, quiet ...string) (context.Context, *e2e.Console) {
	t.Helper()
	ctx, cancel := chromedp.NewContext(env.browser)
	t.Cleanup(cancel)
	ctx, tcancel := context.WithTimeout(ctx, 2*time.Minute)
	t.Cleanup(tcancel)
	con := e2e.WatchConsole(ctx)
	t.Cleanup(func() {
		time.Sleep(50 * time.Millisecond)
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
	return ctx, con
}

func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

func waitJS(t *testing.T, ctx context.Context, what, pred string) {
	t.Helper()
	wctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	if _, err := chromedp.Run(wctx, chromedp.PollFunction[bool]("() => "+pred, chromedp.WithPollingInterval(10*time.Millisecond))); err != nil {
		t.Fatalf("waiting for %s (%s): %v", what, pred, err)
	}
}

func navigate(t *testing.T, ctx context.Context, u string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate(u)); err != nil {
		t.Fatalf("%s: %v", u, err)
	}
}

// asset returns the hashed path of an asset of dist/ ("embed.js" →
// "/assets/embed.0123456789ab.js").
func asset(t *testing.T, name string) string {
	t.Helper()
	ext := filepath.Ext(name)
	re := regexp.MustCompile(`^` + regexp.QuoteMeta(strings.TrimSuffix(name, ext)) + `\.[0-9a-f]{12}` + regexp.QuoteMeta(ext) + `$`)
	entries, err := os.ReadDir(filepath.Join(env.dist, "assets"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if re.MatchString(e.Name()) {
			return "/assets/" + e.Name()
		}
	}
	t.Fatalf("no %s in %s/assets", name, env.dist)
	return ""
}

// host serves one HTML page from another origin (another port of
// 127.0.0.1) and returns its URL.
func host(t *testing.T, body string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, body)
	}))
	t.Cleanup(srv.Close)
	if srv.URL == env.site.URL {
		t.Fatal("the host page and the site share an origin")
	}
	return srv.URL + "/"
}

func compute(t *testing.T, name string, q url.Values) map[string]any {
	t.Helper()
	c, ok := calc.New().Lookup(name)
	if !ok {
		t.Fatalf("no calculator %s", name)
	}
	res, err := c.Compute(q)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res)
	var m map[string]any
	json.Unmarshal(b, &m)
	return m
}

// TestEmbedInForeignFrame frames an embed in a page of another origin
// that includes embed.js: the embed loads, computes with the query's
// parameters, and posts its height, which embed.js applies to the
// iframe. An article page framed the same way is refused by the browser
// (frame-ancestors 'none').
func TestEmbedInForeignFrame(t *testing.T) {
	src := env.site.URL + "/it/embed/attempts/?q=0.9&n=5&id=frame-1"
	page := `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>host</title><link rel="icon" href="data:,">
<script>window.msgs = []; addEventListener('message', e => window.msgs.push({origin: e.origin, data: e.data}));</script>
<script src="` + env.site.URL + asset(t, "embed.js") + `" defer></script></head>
<body><h1>A blog post</h1>
<iframe id="emb" src="` + src + `" title="embed" width="100%" height="150" style="border:0"></iframe>
<iframe id="art" src="` + env.site.URL + `/it/retries/" title="article" width="100%" height="150"></iframe>
</body></html>`
	ctx, con := tab(t, "frame-ancestors 'none'")
	navigate(t, ctx, host(t, page))
	waitJS(t, ctx, "a height message from the embed", `window.msgs.some(m => m.data && m.data.type === 'retrylab:height' && m.data.id === 'frame-1' && m.data.height > 300)`)
	waitJS(t, ctx, "embed.js to size the iframe", `parseInt(document.getElementById('emb').style.height) > 300`)
	origin := eval[string](t, ctx, `window.msgs.find(m => m.data && m.data.type === 'retrylab:height').origin`)
	if origin != env.site.URL {
		t.Errorf("the height came from %q, want %q", origin, env.site.URL)
	}
	h := eval[int](t, ctx, `parseInt(document.getElementById('emb').style.height)`)
	// The height settles: no feedback loop between the frame's size and
	// the height it reports.
	// Poll (with a deadline) for a quiet second: no message for 1 s.
	quiet := `(() => { const w = window.__quiet || (window.__quiet = {n: -1, at: 0}); const n = window.msgs.length;
		if (n !== w.n) { w.n = n; w.at = performance.now(); return false } return performance.now() - w.at >= 1000 })()`
	wctx, wcancel := context.WithTimeout(ctx, 30*time.Second)
	_, err := chromedp.Run(wctx, chromedp.PollFunction[bool]("() => "+quiet, chromedp.WithPollingInterval(50*time.Millisecond)))
	wcancel()
	if n := eval[int](t, ctx, `window.msgs.length`); err != nil || n > 10 {
		t.Errorf("the embed keeps posting heights: %d messages, no quiet second within 30 s (%v)", n, err)
	}
	if last, got := eval[int](t, ctx, `window.msgs.filter(m => m.data.type === 'retrylab:height').pop().data.height`), eval[int](t, ctx, `parseInt(document.getElementById('emb').style.height)`); last != got {
		t.Errorf("the iframe is %d px high, the last height posted %d", got, last)
	}
	if shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)); err == nil {
		os.WriteFile(filepath.Join(env.out, "embed-host.png"), shot, 0o644)
	}
	t.Logf("the embed reports %d px; the iframe is now %d px high", eval[int](t, ctx, `window.msgs.filter(m => m.data.type === 'retrylab:height').pop().data.height`), h)

	// The article refuses to be framed.
	refused := false
	for deadline := time.Now().Add(10 * time.Second); !refused && time.Now().Before(deadline); {
		for _, p := range con.Problems() {
			if strings.Contains(p, "frame-ancestors 'none'") {
				refused = true
			}
		}
		if !refused {
			time.Sleep(20 * time.Millisecond) // polling the console, with a deadline
		}
	}
	for _, p := range con.Problems() {
		if strings.Contains(p, "frame-ancestors") && strings.Contains(p, "/embed/") {
			t.Errorf("the embed was refused: %s", p)
		}
	}
	if !refused {
		t.Error("the browser framed the article page (no frame-ancestors refusal in the console)")
	}

	// The framed embed computed with the query's values: the same page
	// opened directly shows the calculator's own result.
	ctx2, _ := tab(t)
	navigate(t, ctx2, src)
	if err := chromedp.Do(ctx2, e2e.WaitReady(30*time.Second)); err != nil {
		t.Fatal(err)
	}
	want := compute(t, "attempts", url.Values{"q": {"0.9"}, "n": {"5"}})
	waitJS(t, ctx2, "the result for q=0.9, n=5", fmt.Sprintf(`(document.querySelector('[data-out="expected_attempts"]') || {}).getAttribute && document.querySelector('[data-out="expected_attempts"]').getAttribute('data-value') === %q`, strconv.FormatFloat(want["expected_attempts"].(float64), 'f', -1, 64)))
	if back := eval[string](t, ctx2, `document.querySelector('.embed-from a').getAttribute('href')`); !strings.HasSuffix(back, "/it/retries/") {
		t.Errorf("the embed links back to %q, want the article", back)
	}
}

// TestEmbedHostIgnoresOtherFrames: embed.js sizes only our embeds. A
// frame of another origin, framed by the same host page next to an embed,
// posts the embeds' own message (a height as a number and as a string)
// again and again: its iframe keeps its height, while the embed is sized.
func TestEmbedHostIgnoresOtherFrames(t *testing.T) {
	foreign := host(t, `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>other</title><link rel="icon" href="data:,"></head><body>
<script>
setInterval(function () {
  parent.postMessage({type: 'retrylab:height', id: 'frame-1', height: 777}, '*');
  parent.postMessage({type: 'retrylab:height', id: 'attempts', height: '888'}, '*');
}, 20);
</script></body></html>`)
	src := env.site.URL + "/it/embed/attempts/?id=frame-1"
	page := `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>host</title><link rel="icon" href="data:,">
<script>window.msgs = []; addEventListener('message', e => window.msgs.push({origin: e.origin, data: e.data}));</script>
<script src="` + env.site.URL + asset(t, "embed.js") + `" defer></script></head>
<body><h1>A blog post</h1>
<iframe id="other" src="` + foreign + `" title="other" width="100%" height="150" style="border:0"></iframe>
<iframe id="emb" src="` + src + `" title="embed" width="100%" height="150" style="border:0"></iframe>
</body></html>`
	ctx, _ := tab(t)
	navigate(t, ctx, host(t, page))
	waitJS(t, ctx, "embed.js to size the embed", `parseInt(document.getElementById('emb').style.height) > 300`)
	// embed.js has handled every message the page's own listener saw.
	waitJS(t, ctx, "ten messages from the other frame", `window.msgs.filter(m => m.origin !== `+strconv.Quote(env.site.URL)+`).length >= 10`)
	if h := eval[string](t, ctx, `document.getElementById('other').style.height`); h != "" {
		t.Errorf("the other frame's iframe was sized to %q", h)
	}
	if h := eval[string](t, ctx, `document.getElementById('other').getAttribute('data-retrylab-height') || ''`); h != "" {
		t.Errorf("the other frame's iframe got data-retrylab-height %q", h)
	}
	if h := eval[int](t, ctx, `parseInt(document.getElementById('emb').style.height)`); h == 777 || h == 888 {
		t.Errorf("the embed took the other frame's height %d", h)
	}
}

// TestEmbedBadQuery: an unknown parameter and a refused value each show a
// message at the top of the embed; the widget still shows a result.
func TestEmbedBadQuery(t *testing.T) {
	for _, c := range []struct{ query, want string }{
		{"nosuch=1", "nosuch"},
		{"q=7", ""},
		{"seed=x&clients=100", ""},
	} {
		t.Run(c.query, func(t *testing.T) {
			ctx, _ := tab(t)
			name := "attempts"
			if strings.Contains(c.query, "seed") {
				name = "jitter"
			}
			navigate(t, ctx, env.site.URL+"/es/embed/"+name+"/?"+c.query)
			if err := chromedp.Do(ctx, e2e.WaitReady(30*time.Second)); err != nil {
				t.Fatal(err)
			}
			waitJS(t, ctx, "the message", `!document.querySelector('[data-embed-error]').hidden && document.querySelector('[data-embed-error]').textContent.length > 10`)
			msg := eval[string](t, ctx, `document.querySelector('[data-embed-error]').textContent`)
			if !strings.Contains(msg, c.want) {
				t.Errorf("message %q lacks %q", msg, c.want)
			}
			if n := eval[int](t, ctx, `document.querySelectorAll('[data-out]').length`); n == 0 {
				t.Error("the widget shows no result")
			}
			t.Logf("%s: %s", c.query, msg)
		})
	}
}

// TestSVG: the chart endpoint answers 400 with a message for bad
// parameters, and its SVG (and the build's static chart) renders as an
// image in a page of another origin.
func TestSVG(t *testing.T) {
	for _, q := range []string{"q=2", "lang=fr", "nosuch=1"} {
		resp, err := http.Get(env.site.URL + "/api/v1/attempts.svg?" + q)
		if err != nil {
			t.Fatal(err)
		}
		var e struct {
			Error struct{ Message string } `json:"error"`
		}
		json.NewDecoder(resp.Body).Decode(&e)
		resp.Body.Close()
		if resp.StatusCode != 400 || e.Error.Message == "" {
			t.Errorf("%s: %d %q", q, resp.StatusCode, e.Error.Message)
		}
	}
	imgs := []string{
		"/api/v1/jitter.svg?lang=zh&seed=7",
		"/api/v1/attempts.svg?lang=it&q=0.9",
		"/api/v1/peak.svg?lang=es",
		"/it/charts/deadline.svg",
		"/zh/charts/budget.svg",
	}
	var tags strings.Builder
	for i, p := range imgs {
		fmt.Fprintf(&tags, `<img id="i%d" src="%s%s" alt="chart">`, i, env.site.URL, p)
	}
	ctx, _ := tab(t)
	navigate(t, ctx, host(t, `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>charts</title><link rel="icon" href="data:,"></head><body>`+tags.String()+`</body></html>`))
	waitJS(t, ctx, "every image to load", `Array.from(document.images).every(i => i.complete)`)
	for i, p := range imgs {
		w := eval[int](t, ctx, fmt.Sprintf(`document.getElementById('i%d').naturalWidth`, i))
		if w <= 0 {
			t.Errorf("%s: naturalWidth %d: Chromium did not render it", p, w)
		}
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`true`)); err != nil {
		t.Fatal(err)
	}
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err == nil {
		os.WriteFile(filepath.Join(env.out, "charts.png"), shot, 0o644)
	}
}

// TestEmbedControl: a widget of an article offers the iframe code of its
// current values; after the reader changes a parameter the code carries
// it, and the embed it points to opens with that value.
func TestEmbedControl(t *testing.T) {
	ctx, _ := tab(t)
	navigate(t, ctx, env.site.URL+"/it/retries/")
	if err := chromedp.Do(ctx, e2e.WaitReady(30*time.Second)); err != nil {
		t.Fatal(err)
	}
	id := eval[string](t, ctx, `document.querySelector('[data-widget="attempts"]').id`)
	sel := fmt.Sprintf(`document.getElementById(%q)`, id)
	eval[bool](t, ctx, sel+`.querySelector('details.widget-embed').open = true`)
	eval[bool](t, ctx, fmt.Sprintf(`(() => { const el = %s.querySelector('[name=n]'); el.value = '7';
		el.dispatchEvent(new Event('input', {bubbles: true})); el.dispatchEvent(new Event('change', {bubbles: true})); return true })()`, sel))
	waitJS(t, ctx, "the iframe code to carry n=7", sel+`.querySelector('[data-embed-code]').textContent.includes('n=7')`)
	code := eval[string](t, ctx, sel+`.querySelector('[data-embed-code]').textContent`)
	m := regexp.MustCompile(`<iframe src="([^"]+)" title="([^"]+)"`).FindStringSubmatch(code)
	if m == nil {
		t.Fatalf("the control holds %q", code)
	}
	src := strings.ReplaceAll(m[1], "&amp;", "&")
	if !strings.HasPrefix(src, env.site.URL+"/it/embed/attempts/?") {
		t.Fatalf("the iframe src is %q, want an absolute URL of the embed", src)
	}
	u, _ := url.Parse(src)
	q := u.Query()
	if q.Get("n") != "7" {
		t.Errorf("src %s lacks n=7", src)
	}
	ctx2, _ := tab(t)
	navigate(t, ctx2, src)
	if err := chromedp.Do(ctx2, e2e.WaitReady(30*time.Second)); err != nil {
		t.Fatal(err)
	}
	want := compute(t, "attempts", q)
	waitJS(t, ctx2, "the embed's result for "+u.RawQuery, fmt.Sprintf(`document.querySelector('[data-out="expected_attempts"]').getAttribute('data-value') === %q`,
		strconv.FormatFloat(want["expected_attempts"].(float64), 'f', -1, 64)))
	if got := eval[string](t, ctx2, `document.querySelector('[name=n]').value`); got != "7" {
		t.Errorf("the embed's n control holds %q", got)
	}
}
