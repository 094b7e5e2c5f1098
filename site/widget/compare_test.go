package widget

import (
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"retrylab/core/calc"
	"retrylab/core/standin/query"
)

// TestCompareBudget: the budget widget beside the same requests without a
// budget draws both runs' histograms and says how the total changes.
func TestCompareBudget(t *testing.T) {
	c, _ := calc.New().Lookup("budget")
	for lang, loc := range locales(t) {
		html, err := Render(Spec{Calc: c, ID: "bud", Compare: "budget=false"}, loc)
		if err != nil {
			t.Fatalf("%s: %v", lang, err)
		}
		for _, want := range []string{`data-compare="budget=false"`, `data-run="base"`, `data-run="variant"`, `data-compare-sentence`} {
			if !strings.Contains(html, want) {
				t.Errorf("%s: no %s", lang, want)
			}
		}
		runs := html[strings.Index(html, `data-run="base"`):]
		variant := runs[strings.Index(runs, `data-run="variant"`):]
		variant = variant[:strings.Index(variant, "</section>")]
		// the comparison takes the histogram's place: the page's run is
		// drawn once, in it, beside the variant's
		if n, m := strings.Count(html, `data-view="histogram"`), strings.Count(runs, `data-view="histogram"`); n != 2 || m != 2 {
			t.Errorf("%s: %d histograms, %d in the comparison, want 2 in it (one per run) and none apart", lang, n, m)
		}
		// the outputs are the page's result, once in its table and once in
		// its chart (the page's run), none in the variant's
		if strings.Contains(variant, "data-out=") || strings.Count(runs, `data-out="attempts_histogram"`) != 1 || strings.Count(html, `data-out="attempts_histogram"`) != 2 {
			t.Errorf("%s: data-out in the compared run, or not once in the page's run and once in the table", lang)
		}
		// the sentence names the total: 120 with the budget, 300 without
		s := html[strings.Index(html, "data-compare-sentence"):]
		s = s[:strings.Index(s, "</p>")]
		if !strings.Contains(s, "120") || !strings.Contains(s, "300") {
			t.Errorf("%s: the sentence %q does not state 120 → 300", lang, s)
		}
	}
}

// TestVariantCite: Variant runs the comparison that the views ask for,
// and citing its result gives the compared run's values, which follow the
// reader's input; without a comparison there is no variant.
func TestVariantCite(t *testing.T) {
	set := All()
	c, _ := calc.New().Lookup("budget")
	loc := locales(t)["it"]
	views := []string{"table", CompareView("budget=false")}
	for _, tc := range []struct {
		values     url.Values
		base, vary string // total_attempts with and without the budget
	}{
		{nil, "120", "300"},
		{url.Values{"requests": {"1000"}}, "1.020", "3.000"},
		{url.Values{"attempts": {"5"}, "tokens": {"7"}}, "107", "500"},
	} {
		a, err := c.Parse(tc.values)
		if err != nil {
			t.Fatal(err)
		}
		res, _ := c.Run(a)
		v, ok, err := Variant(c, a, nil, views)
		if !ok || err != nil {
			t.Fatalf("%v: variant %v, %v", tc.values, ok, err)
		}
		base, _, err1 := set.CiteShown(c, res, "total_attempts", "", loc)
		vary, raw, err2 := set.CiteShown(c, v, "total_attempts", "", loc)
		if err1 != nil || err2 != nil || base != tc.base || vary != tc.vary {
			t.Errorf("%v: total_attempts %q (%v) beside %q (%v), want %s and %s", tc.values, base, err1, vary, err2, tc.base, tc.vary)
		}
		if raw != strings.ReplaceAll(tc.vary, ".", "") {
			t.Errorf("%v: value %s, want %s", tc.values, raw, tc.vary)
		}
	}
	a, _ := c.Parse(nil)
	if _, ok, _ := Variant(c, a, nil, []string{"table"}); ok {
		t.Error("a variant without a compare view")
	}
	if _, ok, err := Variant(c, a, nil, []string{CompareView("budget=maybe")}); !ok || err == nil {
		t.Errorf("a refused compare value: ok %v, err %v; want the refusal", ok, err)
	}
}

// TestRenderOutputVariant: the output's comparison hands its variant run
// to the citations of the same recompute (the playground's evaluate ran
// it a second time): the output RenderOutput writes, the values Variant
// gives, one run of the calculator; no variant without a comparison or
// when it is refused.
func TestRenderOutputVariant(t *testing.T) {
	set := All()
	orig, _ := calc.New().Lookup("budget")
	runs := 0
	c := *orig
	c.Run = func(a calc.Args) (any, error) {
		runs++
		return orig.Run(a)
	}
	loc := locales(t)["it"]
	views := []string{"table", CompareView("budget=false")}
	a, err := c.Parse(url.Values{"attempts": {"5"}, "tokens": {"7"}})
	if err != nil {
		t.Fatal(err)
	}
	res, _ := c.Run(a)
	runs = 0
	html, v, ok, err := set.RenderOutputVariant(&c, a, res, views, loc)
	if err != nil || !ok {
		t.Fatalf("RenderOutputVariant: variant %v, %v", ok, err)
	}
	if runs != 1 {
		t.Errorf("%d runs of the calculator, want 1 (the variant)", runs)
	}
	if want, _ := set.RenderOutput(&c, a, res, views, loc); html != want {
		t.Error("RenderOutputVariant's output is not RenderOutput's")
	}
	w, _, _ := Variant(&c, a, nil, views)
	for _, f := range []string{"total_attempts", "retries"} {
		got, gotRaw, err1 := set.CiteShown(&c, v, f, "", loc)
		want, wantRaw, err2 := set.CiteShown(&c, w, f, "", loc)
		if err1 != nil || err2 != nil || got != want || gotRaw != wantRaw {
			t.Errorf("%s: %q %s (%v), Variant's %q %s (%v)", f, got, gotRaw, err1, want, wantRaw, err2)
		}
	}
	if _, _, ok, _ := set.RenderOutputVariant(&c, a, res, []string{"table"}, loc); ok {
		t.Error("a variant without a compare view")
	}
	if _, _, ok, _ := set.RenderOutputVariant(&c, a, res, []string{CompareView("budget=maybe")}, loc); ok {
		t.Error("a variant of a refused compare value")
	}
}

func TestDropOuts(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`<td data-out="a" data-value="[1,2]">x</td>`, `<td>x</td>`},
		{`<g data-out="a"><td data-out="b" data-value="&#34;q&#34;" class="c">`, `<g><td class="c">`},
		{`<p data-value="1">`, `<p data-value="1">`},
		{`<p data-out="unclosed`, `<p`},
	} {
		if got := dropOuts(tc.in); got != tc.want {
			t.Errorf("dropOuts(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// compareBlock is a widget block of an article with a compare: line.
var compareBlock = regexp.MustCompile("(?s)```widget ([a-z0-9-]+)\n(.*?)```")

// TestCompareSentences: every comparison the articles draw has its own
// sentence in each language, the one shown, with every value filled in;
// for the page's values and for values where the results do not differ
// (the variant's own value).
func TestCompareSentences(t *testing.T) {
	reg := calc.New()
	n := 0
	for lang, loc := range locales(t) {
		files, _ := filepath.Glob(filepath.Join("..", "..", "content", lang, "*.md"))
		for _, file := range files {
			b, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range compareBlock.FindAllStringSubmatch(string(b), -1) {
				values := query.Values{}
				spec := ""
				for _, line := range strings.Split(m[2], "\n") {
					k, v, ok := strings.Cut(line, ":")
					k, v = strings.TrimSpace(k), strings.TrimSpace(v)
					switch {
					case !ok || k == "id" || k == "view" || k == "title":
					case k == "compare":
						spec = v
					default:
						values[k] = []string{v}
					}
				}
				if spec == "" {
					continue
				}
				c, ok := reg.Lookup(m[1])
				if !ok {
					t.Fatalf("%s: no calculator %s", file, m[1])
				}
				param, value, _ := strings.Cut(spec, "=")
				same := query.Values{}
				maps.Copy(same, values)
				same[param] = []string{value}
				for _, tc := range []struct {
					key    string
					values query.Values
				}{{"sentence", values}, {"same", same}} {
					html, err := Render(Spec{Calc: c, ID: "w", Values: tc.values, Compare: spec}, loc)
					if err != nil {
						t.Fatalf("%s %s: %v", file, spec, err)
					}
					s := html[strings.Index(html, "data-compare-sentence"):]
					s = s[strings.Index(s, ">")+1 : strings.Index(s, "</p>")]
					n++
					tmpl, ok := loc.Lookup("widget.compare." + c.Name + "." + param + "." + tc.key)
					if !ok {
						t.Errorf("%s: %s %s has no widget.compare.%s.%s.%s", lang, c.Name, spec, c.Name, param, tc.key)
						continue
					}
					// the template's words around its placeholders are the sentence's
					for _, part := range regexp.MustCompile(`\{[^{}]*\}`).Split(tmpl, -1) {
						if !strings.Contains(s, esc(part)) {
							t.Errorf("%s: %s %s (%s) shows %q, not its sentence %q", lang, c.Name, spec, tc.key, s, tmpl)
							break
						}
					}
					if strings.ContainsAny(s, "{}") {
						t.Errorf("%s: %s %s: a placeholder left in %q", lang, c.Name, spec, s)
					}
				}
			}
		}
	}
	if n < 3*4*2 {
		t.Errorf("%d comparison sentences checked, want the articles' four in three languages, twice", n)
	}
}

// scaleMarks are what tells a run's scale: the time axis' end
// (data-t1), the labels of the y axes (their last tick), and the height
// of a dot of a stack of dots.
func scaleMarks(run string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`data-t1="([^"]*)"`).FindAllStringSubmatch(run, -1) {
		out = append(out, "t1="+m[1])
	}
	for _, m := range regexp.MustCompile(`<g class="chart-tick" text-anchor="end">(.*?)</g>`).FindAllStringSubmatch(run, -1) {
		texts := regexp.MustCompile(`>([^<]*)</text>`).FindAllStringSubmatch(m[1], -1)
		if len(texts) > 0 {
			out = append(out, "y="+texts[len(texts)-1][1])
		}
	}
	for _, m := range regexp.MustCompile(`<g class="chart-tick" text-anchor="middle">(.*?)</g>`).FindAllStringSubmatch(run, -1) {
		texts := regexp.MustCompile(`>([^<]*)</text>`).FindAllStringSubmatch(m[1], -1)
		if len(texts) > 0 {
			out = append(out, "x="+texts[len(texts)-1][1]) // a line chart's x axis
		}
	}
	if m := regexp.MustCompile(`class="chart-dot[^"]*"[^>]* height="([^"]*)"`).FindStringSubmatch(run); m != nil {
		out = append(out, "dot="+m[1])
	}
	return out
}

// TestCompareSharedScale: the two runs of a comparison are drawn on one
// scale: the same time span, the same top of every y axis, the same
// height of a dot, though the runs' own data reach different maxima.
func TestCompareSharedScale(t *testing.T) {
	reg := calc.New()
	for _, tc := range []struct {
		calc, spec string
		values     query.Values
	}{
		{"budget", "budget=false", nil}, // bars
		{"dispatch", "mode=naive", nil}, // the queue's lines: 1,336 s beside 57 s
		{"jitter", "strategy=fixed", query.Values{"clients": {"100"}, "width_ms": {"10"}}}, // stacks of dots
		{"retry-strategies", "clients=5000", nil},                                          // lines
	} {
		c, _ := reg.Lookup(tc.calc)
		html, err := Render(Spec{Calc: c, ID: "w", Values: tc.values, Compare: tc.spec}, locales(t)["it"])
		if err != nil {
			t.Fatalf("%s: %v", tc.calc, err)
		}
		i, j := strings.Index(html, `data-run="base"`), strings.Index(html, `data-run="variant"`)
		if i < 0 || j < i {
			t.Fatalf("%s: no runs", tc.calc)
		}
		end := j + strings.Index(html[j:], "</section>") // the views after the comparison are not its runs
		base, variant := scaleMarks(html[i:j]), scaleMarks(html[j:end])
		if len(base) == 0 || !slices.Equal(base, variant) {
			t.Errorf("%s %s: the runs' scales differ: %v beside %v", tc.calc, tc.spec, base, variant)
		}
	}
}

// TestVariantTrace: the comparison's variant records no trace unless the
// view the comparison draws twice draws one. dispatch's compared widget
// (rate-limits: its flow view draws the page's run in both modes) ran
// the variant traced, both modes again: four simulations a recompute,
// not three; now the page's traced run answers it (two). The variant's
// results are the same either way.
func TestVariantTrace(t *testing.T) {
	set := All()
	orig, _ := calc.New().Lookup("dispatch")
	var marks []int // TraceMarks of each run
	c := *orig
	c.Run = func(a calc.Args) (any, error) {
		marks = append(marks, a.TraceMarks())
		return orig.Run(a)
	}
	loc := locales(t)["es"]
	views := []string{"table", "queue", "flow", CompareView("mode=naive")}
	a, err := c.Parse(url.Values{"jobs": {"200"}})
	if err != nil {
		t.Fatal(err)
	}
	a = set.RunArgs(&c, a, views)
	if a.TraceMarks() == 0 {
		t.Fatal("the flow view asks for no trace")
	}
	res, err := c.Run(a)
	if err != nil {
		t.Fatal(err)
	}
	marks = nil
	_, v, ok, err := set.RenderOutputVariant(&c, a, res, views, loc)
	if err != nil || !ok {
		t.Fatalf("RenderOutputVariant: variant %v, %v", ok, err)
	}
	if len(marks) != 0 {
		t.Errorf("the output ran its variant (traces of %v requests), want no run: the page's traced run holds the other mode", marks)
	}
	// Set.Variant (the playground's fallback) answers from the page's
	// result too; without one it runs the variant untraced
	fw, _, _ := set.Variant(&c, a, res, views)
	if len(marks) != 0 {
		t.Errorf("Set.Variant with the page's result ran the variant (traces of %v requests), want no run", marks)
	}
	w, _, _ := set.Variant(&c, a, nil, views)
	if len(marks) != 1 || marks[0] != 0 {
		t.Errorf("the variant's runs (Set.Variant without a result) recorded traces of %v requests, want [0]", marks)
	}
	_, tv, _ := c.Vary(a, "mode", "naive") // traced, as before
	for _, f := range []string{"completed", "dead_letters", "requests", "rate_limited", "retries", "makespan_s", "depth_ready"} {
		got, gotRaw, err1 := set.CiteShown(&c, v, f, "", loc)
		want, wantRaw, err2 := set.CiteShown(&c, tv, f, "", loc)
		again, againRaw, err3 := set.CiteShown(&c, w, f, "", loc)
		from, fromRaw, err4 := set.CiteShown(&c, fw, f, "", loc)
		if err1 != nil || err2 != nil || err3 != nil || err4 != nil || got != want || gotRaw != wantRaw || again != want || againRaw != wantRaw || from != want || fromRaw != wantRaw {
			t.Errorf("%s: untraced variant %q %s (%v), traced %q %s (%v), Set.Variant %q %s (%v), from the page's result %q %s (%v)", f, got, gotRaw, err1, want, wantRaw, err2, again, againRaw, err3, from, fromRaw, err4)
		}
	}
	// a comparison that draws a traced view keeps the trace
	tr := viewTable{"dispatch": {{"flow", typed(dispatchFlow), false, true}}}
	if n := tr.variantArgs(orig, a).TraceMarks(); n != a.TraceMarks() {
		t.Errorf("a traced compare view: the variant records %d requests, want %d", n, a.TraceMarks())
	}
}

// articleComparisons are the comparisons the articles draw: the
// calculator, the compared value, and another view of it drawn beside
// the comparison.
var articleComparisons = []struct{ calc, spec, other string }{
	{"budget", "budget=false", "table"},
	{"jitter", "strategy=fixed", "histogram"},
	{"retry-strategies", "clients=5000", "table"},
	{"dispatch", "mode=naive", "queue"},
}

// TestGoldenCompare renders the comparisons the articles draw (their
// calculator, view and compared value, at the calculator's defaults
// otherwise) in each language: with another view of the calculator
// beside the comparison (its runs lose their outputs) and alone (the
// page's run keeps them). The comparison draws each run first to its own
// axes and draws again only a run whose axes are not the larger: these
// files were written by the code that drew both runs twice.
func TestGoldenCompare(t *testing.T) {
	all := locales(t)
	reg := calc.New()
	for _, tc := range articleComparisons {
		c, ok := reg.Lookup(tc.calc)
		if !ok {
			t.Fatalf("no calculator %s", tc.calc)
		}
		for _, lang := range []string{"it", "zh"} {
			var out strings.Builder
			for _, views := range [][]string{{tc.other, CompareView(tc.spec)}, {CompareView(tc.spec)}} {
				html, err := Render(Spec{Calc: c, ID: c.Name + "-1", Views: views}, all[lang])
				if err != nil {
					t.Fatalf("%s %v: %v", tc.calc, views, err)
				}
				out.WriteString(html)
				out.WriteString("\n")
			}
			golden(t, filepath.Join("testdata", "compare-"+c.Name+"."+lang+".golden"), out.String())
		}
	}
}
