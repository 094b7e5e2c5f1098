package widget

import (
	"strings"
	"testing"
)

func TestEmbedScript(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"https://x.org/it/embed/attempts/", "https://x.org/embed.js"},
		{"https://x.org/sub/zh/embed/peak/?n=3#top", "https://x.org/sub/embed.js"},
		{"/sub/es/embed/jitter/", "/sub/embed.js"},
		{"/it/embed/attempts", "/embed.js"},
		{"attempts/", ""},
	} {
		if got := EmbedScript(tc.in); got != tc.want {
			t.Errorf("EmbedScript(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestEmbedHeight: the estimate grows with what the widget shows (fields,
// a chart's aspect ratio, table rows), and ignores what a details element
// holds (the embed page opens none).
func TestEmbedHeight(t *testing.T) {
	field := `<div class="widget-field"><label>x</label><span class="widget-control"><input type="number"></span><p class="widget-help">` + strings.Repeat("word ", 40) + `</p></div>`
	chart := `<figure class="widget-chart"><svg viewBox="0 0 640 320"></svg><figcaption>c</figcaption></figure>`
	table := `<table class="widget-table"><tr><td>1</td></tr><tr><td>2</td></tr></table>`
	base := EmbedHeight(`<div class="widget">`+field+`</div>`, EmbedWidth)
	for _, tc := range []struct {
		name string
		html string
	}{
		{"three more fields", field + field + field + field},
		{"a chart", field + chart},
		{"a table", field + table},
	} {
		if h := EmbedHeight(tc.html, EmbedWidth); h <= base {
			t.Errorf("%s: %d, not above %d", tc.name, h, base)
		}
	}
	if n, w := EmbedHeight(field+chart, 375), EmbedHeight(field+chart, EmbedWidth); n <= w-150 {
		// a chart is shorter in a narrow frame, but the help text wraps more
		t.Logf("375 px: %d, 768 px: %d", n, w)
	}
	hidden := EmbedHeight(field+`<details class="widget-more">`+field+field+field+`</details>`, EmbedWidth)
	if hidden-base > 60 {
		t.Errorf("a closed details counts %d px, want its summary line only", hidden-base)
	}
	open := EmbedHeight(field+`<details class="widget-more" open>`+field+field+field+`</details>`, EmbedWidth)
	if open != hidden {
		t.Errorf("an open details: %d, closed %d: the embed opens none", open, hidden)
	}
	if tall, short := EmbedHeight(`<svg viewBox="0 0 640 640"></svg>`, EmbedWidth), EmbedHeight(`<svg viewBox="0 0 640 64"></svg>`, EmbedWidth); tall != short {
		t.Errorf("an svg outside a widget figure counts: %d vs %d", tall, short)
	}
}

// withoutDetails drops each outermost details with what it holds (a
// chart's data table inside a closed "more results" goes with it), counts
// them, and keeps whole a details that html leaves open.
func TestWithoutDetails(t *testing.T) {
	for _, c := range []struct {
		in, want string
		n        int
	}{
		{`a<details>x</details>b`, `ab`, 1},
		{`a<details class="m">x<figure><details class="widget-data">t</details></figure>y</details>b<details>z</details>c`, `abc`, 2},
		{`<figure><details class="widget-data">t</details></figure><details>m</details>`, `<figure></figure>`, 2},
		// an unclosed details (the embed control being written) keeps the rest
		{`f<details class="widget-embed">s<figure><details class="widget-data">t</details></figure>`, `f<details class="widget-embed">s<figure><details class="widget-data">t</details></figure>`, 0},
		{`no details`, `no details`, 0},
	} {
		got, n := withoutDetails(c.in)
		if got != c.want || n != c.n {
			t.Errorf("withoutDetails(%q) = %q, %d; want %q, %d", c.in, got, n, c.want, c.n)
		}
	}
}
