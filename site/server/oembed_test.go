package server

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"testing/fstest"

	"retrylab/site/embed"
)

// oembedDist is a dist/ with one embed page whose widget has a chart of
// known size.
func oembedDist() fstest.MapFS {
	d := testDist()
	page := `<!DOCTYPE html><title>Tentativi &amp; retry</title><div class="widget"><form class="widget-form"><div class="widget-field"><label>q</label></div></form>` +
		`<div class="widget-output"><figure class="widget-chart"><svg class="chart" viewBox="0 0 640 320"></svg></figure></div></div>`
	d["it/embed/attempts/index.html"] = &fstest.MapFile{Data: []byte(page)}
	return d
}

// TestOEmbed: the provider endpoint answers a rich iframe of the site's
// own embed pages only (404 for any other address, 501 for a format other
// than json, 400 for bad bounds), sized within maxwidth and maxheight,
// with the embed's query, the resize script unless maxheight cut the
// frame; natively here, on the Worker in wasm/worker/e2e (TestOEmbedWorker).
func TestOEmbed(t *testing.T) {
	for _, base := range []string{"/", "/sub/"} {
		h := New(Config{Dist: oembedDist(), Base: base})
		ask := func(u string, extra string) string {
			return base + "oembed?url=" + url.QueryEscape(u) + extra
		}
		own := "http://example.com" + base + "it/embed/attempts/"
		for _, tc := range []struct {
			target string
			status int
		}{
			{ask(own, ""), 200},
			{ask(own+"?q=0.9&n=5", "&format=json&maxwidth=500&maxheight=5000"), 200},
			{ask("http://example.com"+base+"it/embed/attempts", ""), 200},
			{ask(own, "&format=xml"), 501},
			{ask("https://evil.example/"+strings.TrimPrefix(base, "/")+"it/embed/attempts/", ""), 404},
			{ask("http://example.com"+base+"it/retries/", ""), 404},
			{ask("http://example.com"+base+"it/embed/nosuch/", ""), 404},
			{ask("http://example.com"+base+"xx/embed/attempts/", ""), 404},
			{ask("http://example.com"+base+"it/embed/../embed/attempts/", ""), 404},
			{ask("javascript:alert(1)//example.com"+base+"it/embed/attempts/", ""), 404},
			{ask("ftp://example.com"+base+"it/embed/attempts/", ""), 404},
			{base + "oembed", 400},
			{ask(own, "&maxwidth=-3"), 400},
			{ask(own, "&maxwidth=50"), 400},
			{ask(own, "&maxheight=abc"), 400},
		} {
			w := do(t, h, "GET", tc.target)
			if w.Code != tc.status {
				t.Errorf("%s: %d, want %d: %s", tc.target, w.Code, tc.status, w.Body)
				continue
			}
			if ct := w.Header().Get("Content-Type"); ct != "application/json" {
				t.Errorf("%s: Content-Type %q", tc.target, ct)
			}
			var ans embed.OEmbed
			if err := json.Unmarshal(w.Body.Bytes(), &ans); err != nil {
				t.Errorf("%s: %v", tc.target, err)
			}
			if tc.status != 200 {
				continue
			}
			if ans.Type != "rich" || ans.Version != "1.0" || ans.Title != "Tentativi & retry" || ans.ProviderURL != "http://example.com"+base || ans.Width <= 0 || ans.Height <= 0 {
				t.Errorf("%s: %+v", tc.target, ans)
			}
			if !strings.HasPrefix(ans.HTML, `<iframe src="`+own) || !strings.Contains(ans.HTML, `<script src="http://example.com`+base+`embed.js" defer></script>`) {
				t.Errorf("%s: html %s", tc.target, ans.HTML)
			}
		}
		// The query travels, re-encoded; the bounds hold.
		var ans embed.OEmbed
		w := do(t, h, "GET", ask(own+"?q=0.9&n=5", "&maxwidth=400&maxheight=150"))
		if err := json.Unmarshal(w.Body.Bytes(), &ans); err != nil {
			t.Fatal(err)
		}
		if ans.Width != 400 || ans.Height != 150 || !strings.Contains(ans.HTML, `src="`+own+`?n=5&amp;q=0.9"`) || strings.Contains(ans.HTML, "<script") {
			t.Errorf("bounded: %+v", ans)
		}
		// POST is refused as everywhere.
		if w := do(t, h, "POST", ask(own, "")); w.Code != 405 {
			t.Errorf("POST: %d", w.Code)
		}
	}
}
