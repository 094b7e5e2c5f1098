//go:build e2e

package classroom

import (
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"retrylab/site/widget"
)

// TestEmbedSnippetFits pastes the code a widget's "embed" control offers
// (site/widget.EmbedSnippet: the frame at the widget's estimated height and
// the resize script) into a page of another origin, as a reader would, for
// a short widget and the tallest: the frame ends at the height the embed
// reports, the embed page inside does not scroll, and the build's estimate
// was within a factor of the real height (logged: the estimate is what a
// host without the script shows). In the embed the chart comes first.
func TestEmbedSnippetFits(t *testing.T) {
	for _, tc := range []struct{ article, calc string }{
		{"retries", "attempts"},
		{"policies", "policies"},
		{"rate-limits", "dispatch"},
	} {
		t.Run(tc.calc, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join(env.dist, "it", tc.article, "index.html"))
			if err != nil {
				t.Fatal(err)
			}
			m := regexp.MustCompile(`data-embed="[^"]*/embed/` + tc.calc + `/"[^>]*>.*?data-embed-code[^>]*>([^<]*)</pre>`).FindSubmatch(b)
			if m == nil {
				t.Fatalf("no embed control of %s in it/%s", tc.calc, tc.article)
			}
			snippet := html.UnescapeString(string(m[1]))
			est := regexp.MustCompile(`height="(\d+)"`).FindStringSubmatch(snippet)
			if est == nil || !strings.Contains(snippet, `<script src="/embed.js" defer></script>`) {
				t.Fatalf("the snippet has no height or no resize script: %s", snippet)
			}
			// The build was given a path for a base (-base-url /): a public
			// site's build has an absolute one; the test's origin stands in.
			snippet = strings.ReplaceAll(snippet, `src="/`, `src="`+env.site.URL+`/`)
			page := `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>host</title><link rel="icon" href="data:,">
<script>window.msgs = []; addEventListener('message', e => { if (e.data && e.data.type === 'retrylab:height') window.msgs.push(e.data.height) });</script>
</head><body style="margin:0"><h1>A blog post</h1><div style="max-width:48rem">` + snippet + `</div><p>after</p></body></html>`
			ctx, _ := tab(t)
			navigate(t, ctx, host(t, page))
			waitJS(t, ctx, "the embed's height", `window.msgs.length > 0`)
			waitJS(t, ctx, "the frame at the reported height", `(() => { const f = document.querySelector('iframe'); const h = window.msgs[window.msgs.length-1];
				return f.getBoundingClientRect().height === h && f.getAttribute('data-retrylab-height') === String(h) })()`)
			got := eval[int](t, ctx, `Math.round(document.querySelector('iframe').getBoundingClientRect().height)`)
			estimate := 0
			for _, c := range est[1] {
				estimate = estimate*10 + int(c-'0')
			}
			t.Logf("%s: estimate %d px, the frame sized by the script %d px (%.2f)", tc.calc, estimate, got, float64(estimate)/float64(got))
			if r := float64(estimate) / float64(got); r < 0.6 || r > 1.6 {
				t.Errorf("the estimate %d px is far from the real height %d px", estimate, got)
			}
			if widget.EmbedWidth < 600 {
				t.Fatal("EmbedWidth")
			}
			// Inside the frame: no scroll, the chart (or the results) before the form.
			ctx2, _ := tab(t)
			navigate(t, ctx2, env.site.URL+"/it/embed/"+tc.calc+"/")
			if d := eval[float64](t, ctx2, `document.querySelector('.widget-output').getBoundingClientRect().top - document.querySelector('.widget-form').getBoundingClientRect().top`); d >= 0 {
				t.Errorf("in the embed the output is %v px below the form's top, want above", d)
			}
			if eval[bool](t, ctx2, `!!document.querySelector('.widget-chart') && !!document.querySelector('.widget-table[data-view="table"]')`) {
				if d := eval[float64](t, ctx2, `document.querySelector('.widget-chart').getBoundingClientRect().top - document.querySelector('.widget-table[data-view="table"]').getBoundingClientRect().top`); d > 0 {
					t.Errorf("the first chart is %v px below the results table, want above", d)
				}
			}
		})
	}
}
