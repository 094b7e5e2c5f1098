package widget

import (
	"regexp"
	"strings"
	"testing"

	"retrylab/core/calc"
	"retrylab/site/locale"
)

// TestMarkPicture: the picture is the first chart in SVG among the views
// drawn, else the first of the page's run in a comparison; players,
// snippets, metrics and tables are passed over.
func TestMarkPicture(t *testing.T) {
	const (
		chart    = `<figure class="widget-chart" data-view="queue"><p class="widget-fig-title">Q</p><svg class="chart" viewBox="0 0 1 1"><g><text x="1">a</text></g></svg><details class="widget-data"><table></table></details></figure>`
		chartB   = `<figure class="widget-chart" data-view="rate"><p class="widget-fig-title">R</p><svg class="chart"></svg></figure>`
		marked   = `<figure class="widget-chart" data-view="queue" data-picture>`
		markedB  = `<figure class="widget-chart" data-view="rate" data-picture>`
		player   = `<figure class="widget-chart widget-play" data-view="play"><p>t</p><svg class="chart"></svg></figure>`
		metrics  = `<figure class="widget-chart" data-view="metrics"><pre>svg</pre><svg></svg></figure>`
		classify = `<figure class="widget-chart" data-view="classification"><p>c</p><table><tr><td><svg></svg></td></tr></table></figure>`
		table    = `<table class="widget-table" data-view="table"><tr><td>1</td></tr></table>`
		untitled = `<figure class="widget-chart" data-view="tree"><svg class="chart"></svg></figure>`
		late     = `<figure class="widget-chart" data-view="sweep"><p>a</p><p>b</p><svg class="chart"></svg></figure>`
	)
	compare := func(base, variant string) string {
		return `<section class="widget-compare" data-view="compare" data-compare="a=1"><p class="widget-compare-sentence">s</p><div class="widget-compare-runs">` +
			`<div class="widget-compare-run" data-run="base"><p class="widget-compare-label">b</p>` + base + `</div>` +
			`<div class="widget-compare-run" data-run="variant"><p class="widget-compare-label">v</p>` + variant + `</div></div></section>`
	}
	for _, tc := range []struct {
		name  string
		views []string
		want  []string // substrings of the marked markup, in order
		none  bool     // nothing marked
	}{
		{"a chart", []string{table, chart}, []string{table, marked}, false},
		{"the first chart", []string{chart, chartB}, []string{marked, chartB}, false},
		{"past a player, metrics and a table in a figure", []string{player, metrics, classify, chartB}, []string{player, metrics, classify, markedB}, false},
		{"no title", []string{untitled}, []string{`<figure class="widget-chart" data-view="tree" data-picture>`}, false},
		{"more than a title before the svg", []string{late, chart}, []string{late, marked}, false},
		{"no chart", []string{table, player, metrics, classify}, nil, true},
		{"the page's run of a comparison", []string{table, compare(player+chartB, chart)},
			[]string{`<section class="widget-compare" data-view="compare" data-compare="a=1" data-picture-in>`, `data-run="base"`, player, markedB, `data-run="variant"`, chart}, false},
		{"a chart of its own before a comparison's", []string{chartB, compare(chart, chart)}, []string{markedB, `<section class="widget-compare" data-view`}, false},
		{"a chart of its own after a comparison's", []string{compare(chart, chart), chartB}, []string{`<section class="widget-compare" data-view`, chart, chart, markedB}, false},
		{"a comparison with no chart in its page's run", []string{compare(table, chart)}, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			html, starts := `<div class="widget-result" data-calc="x">`+"\n", []int{}
			for _, v := range tc.views {
				starts = append(starts, len(html))
				html += v
			}
			html += "</div>\n"
			got := markPicture(html, starts)
			if n := strings.Count(got, " data-picture>"); n > 1 || (n == 1) == tc.none {
				t.Fatalf("%d figures marked:\n%s", n, got)
			}
			if tc.none {
				if got != html {
					t.Errorf("changed with no picture:\n%s", got)
				}
				return
			}
			rest := got
			for _, w := range tc.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("no %q (in order) in\n%s", w, got)
				}
				rest = rest[i+len(w):]
			}
			if strings.Count(got, "data-picture-in") > 1 {
				t.Errorf("more than one comparison holds the picture:\n%s", got)
			}
		})
	}
}

// TestEveryChartHasAPicture: every calculator's widget at its defaults,
// and the comparisons the articles draw (TestGoldenCompare's), marks
// exactly one picture when its result draws a chart in SVG, and none
// otherwise.
func TestEveryChartHasAPicture(t *testing.T) {
	all := locales(t)
	loc := all[locale.Languages()[0]]
	reg := calc.New()
	check := func(name, out string) {
		t.Helper()
		// charts counted apart from isPicture: a figure of class
		// widget-chart alone holding an svg, neither the metrics text nor
		// the classification table
		charts := 0
		for _, fig := range strings.Split(out, `<figure class="widget-chart" `)[1:] {
			fig, _, _ = strings.Cut(fig, "</figure>")
			if strings.Contains(fig, "<svg") && !strings.HasPrefix(fig, `data-view="metrics"`) && !strings.HasPrefix(fig, `data-view="classification"`) {
				charts++
			}
		}
		n := strings.Count(out, " data-picture>")
		switch {
		case n > 1:
			t.Errorf("%s: %d pictures", name, n)
		case charts > 0 && n == 0:
			t.Errorf("%s: %d charts in SVG, no picture", name, charts)
		case charts == 0 && n > 0:
			t.Errorf("%s: a picture and no chart in SVG", name)
		}
	}
	for _, c := range reg.List() {
		check(c.Name, renderDefaults(t, c, loc))
	}
	for _, tc := range articleComparisons {
		c, _ := reg.Lookup(tc.calc)
		for _, views := range [][]string{{tc.other, CompareView(tc.spec)}, {CompareView(tc.spec)}} {
			out, err := Render(Spec{Calc: c, ID: c.Name + "-1", Views: views}, loc)
			if err != nil {
				t.Fatalf("%s %v: %v", tc.calc, views, err)
			}
			check(tc.calc+" "+strings.Join(views, ","), out)
			// dispatch's and retry-strategies' results hold no chart of
			// their own beside the comparison (the article's #disp and
			// #few): the page's run gives the picture
			if (tc.calc == "dispatch" || tc.calc == "retry-strategies") && !regexp.MustCompile(`<section class="widget-compare" [^>]* data-picture-in>`).MatchString(out) {
				t.Errorf("%s %v: the comparison holds no picture", tc.calc, views)
			}
		}
	}
}
