package widget

import (
	"math"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"retrylab/core/calc"
	"retrylab/core/limits"
)

var (
	dataT    = regexp.MustCompile(`data-t="([^"]+)"`)
	rangeRE  = regexp.MustCompile(`data-timeview data-t0="([^"]+)" data-t1="([^"]+)"`)
	nameRE   = regexp.MustCompile(`<(?:input|select|textarea)[^>]* name="([^"]+)"`)
	detailRE = regexp.MustCompile(`<details class="widget-more" data-more( open)?>`)
)

// TestPlayViews renders the time view of each calculator that unfolds in
// time, in every language: a figure with its range, elements carrying
// data-t inside it, the hidden controls, and no "cannot be drawn" note.
func TestPlayViews(t *testing.T) {
	all := locales(t)
	reg := calc.New()
	for _, tc := range []struct {
		calc   string
		values url.Values
		min    int // data-t elements at least
	}{
		{"jitter", nil, 100},
		{"jitter", url.Values{"waves": {"3"}}, 300},
		{"backoff", nil, 300},
		{"backoff", url.Values{"retry_after_s": {"1"}, "jitter": {"false"}}, 100},
		{"deadline", nil, 3},
		{"amplification", nil, 27},
		{"policies", nil, 20},
		{"limits", nil, 120},
		{"limits", url.Values{"calls_per_min": {"100"}, "tokens_per_call": {"5000"}}, 120},
		{"limits", url.Values{"calls_per_min": {"0"}}, 60},
	} {
		c, _ := reg.Lookup(tc.calc)
		for lang, loc := range all {
			html, err := Render(Spec{Calc: c, ID: "w", Values: tc.values, Views: []string{"play"}}, loc)
			if err != nil {
				t.Fatalf("%s %s: %v", tc.calc, lang, err)
			}
			m := rangeRE.FindStringSubmatch(html)
			if m == nil {
				t.Fatalf("%s %v %s: no time view in %s", tc.calc, tc.values, lang, html[:min(len(html), 400)])
			}
			t0, _ := strconv.ParseFloat(m[1], 64)
			t1, _ := strconv.ParseFloat(m[2], 64)
			ts := dataT.FindAllStringSubmatch(html, -1)
			if len(ts) < tc.min {
				t.Errorf("%s %v %s: %d elements with data-t, want at least %d", tc.calc, tc.values, lang, len(ts), tc.min)
			}
			for _, s := range ts {
				v, err := strconv.ParseFloat(s[1], 64)
				if err != nil || v < t0 || v > t1 {
					t.Errorf("%s %s: data-t %q outside [%v, %v]", tc.calc, lang, s[1], t0, t1)
					break
				}
			}
			for _, want := range []string{`data-player hidden`, `button type="button" data-action="play" aria-pressed="false"`, `input type="range" data-action="scrub"`, `data-action="speed"`, `aria-live="polite"`} {
				if !strings.Contains(html, want) {
					t.Errorf("%s %s: no %s", tc.calc, lang, want)
				}
			}
			if strings.Contains(html, `class="widget-note" data-view="play"`) {
				t.Errorf("%s %s: the play view could not be drawn", tc.calc, lang)
			}
		}
	}
}

// TestFewerControls: a calculator with essential parameters shows at most
// four distinct control names before its closed "more parameters"
// disclosure, and beside them the parameters the page sets away from
// their default (not those it sets to their default).
func TestFewerControls(t *testing.T) {
	loc := locales(t)["it"]
	reg := calc.New()
	for _, c := range reg.List() {
		if len(c.Essential) == 0 {
			continue
		}
		for _, tc := range []struct {
			values url.Values
			open   bool
		}{{nil, false}} {
			html, err := Render(Spec{Calc: c, ID: "w", Values: tc.values}, loc)
			if err != nil {
				t.Fatal(err)
			}
			m := detailRE.FindStringIndex(html)
			if m == nil {
				t.Fatalf("%s: no more-parameters disclosure", c.Name)
			}
			names := map[string]bool{}
			for _, n := range nameRE.FindAllStringSubmatch(html[:m[0]], -1) {
				names[n[1]] = true
			}
			if len(names) > 4 || len(names) == 0 {
				t.Errorf("%s: %d control names before the disclosure: %v", c.Name, len(names), names)
			}
			if open := strings.Contains(html[m[0]:m[1]], " open"); open != tc.open {
				t.Errorf("%s: open = %v, want %v", c.Name, open, tc.open)
			}
		}
	}
	// a parameter the page sets away from its default is shown beside
	// the essential ones; the disclosure stays closed
	d, _ := reg.Lookup("dispatch")
	for _, tc := range []struct {
		values url.Values
		shown  []string // beside the essential ones
	}{
		{url.Values{"jobs": {"800"}}, nil},                      // essential
		{url.Values{"headroom": {"0.9"}}, nil},                  // the default, repeated
		{url.Values{"headroom": {"1.2"}}, []string{"headroom"}}, // hidden, changed
		{url.Values{"samples": {"50"}, "jobs": {"9"}}, []string{"samples"}},
	} {
		html, err := Render(Spec{Calc: d, ID: "w", Values: tc.values}, loc)
		if err != nil {
			t.Fatal(err)
		}
		m := detailRE.FindStringSubmatchIndex(html)
		if m == nil || m[2] >= 0 {
			t.Fatalf("dispatch %v: no closed disclosure", tc.values)
		}
		before := map[string]bool{}
		for _, n := range nameRE.FindAllStringSubmatch(html[:m[0]], -1) {
			before[n[1]] = true
		}
		for _, n := range tc.shown {
			if !before[n] {
				t.Errorf("dispatch %v: %s not shown before the disclosure", tc.values, n)
			}
		}
		if len(before) != len(d.Essential)+len(tc.shown) {
			t.Errorf("dispatch %v: %d control names before the disclosure, want the %d essential ones and %v", tc.values, len(before), len(d.Essential), tc.shown)
		}
		if !strings.Contains(html, `data-more-results`) {
			t.Errorf("dispatch: no \"all results\" disclosure")
		}
	}
}

// TestCompare: a widget with Compare carries data-compare, lists the
// comparison in data-views (so the playground computes the variant
// too), draws the time view of both runs and states the difference. The
// comparison takes the place of the view it draws: the page's run of it
// is drawn once, inside the comparison.
func TestCompare(t *testing.T) {
	all := locales(t)
	reg := calc.New()
	for _, tc := range []struct {
		calc, spec, field string
		timeviews         int // the page's time view(s) and each run's
	}{
		// dispatch has no play view: each run draws its queue chart,
		// beside the page's flow view
		{"dispatch", "mode=naive", "rate_limited", 1},
		{"jitter", "strategy=fixed", "peak", 2},
		{"backoff", "jitter=false", "peak", 2},
	} {
		c, _ := reg.Lookup(tc.calc)
		for lang, loc := range all {
			html, err := Render(Spec{Calc: c, ID: "w", Compare: tc.spec}, loc)
			if err != nil {
				t.Fatalf("%s %s: %v", tc.calc, lang, err)
			}
			for _, want := range []string{`data-compare="` + tc.spec + `"`, `compare:` + tc.spec + `"`, `data-run="base"`, `data-run="variant"`, `data-compare-sentence`} {
				if !strings.Contains(html, want) {
					t.Errorf("%s %s: no %s", tc.calc, lang, want)
				}
			}
			if n := strings.Count(html, `data-timeview`); n != tc.timeviews {
				t.Errorf("%s %s: %d time views, want %d: each run's where it has a play view (the page's is the base run's), and the page's flow", tc.calc, lang, n, tc.timeviews)
			}
			if runs := html[strings.Index(html, `data-run="base"`):]; strings.Count(runs, `<svg`) < 2 {
				t.Errorf("%s %s: the runs draw %d pictures, want one each", tc.calc, lang, strings.Count(runs, `<svg`))
			}
			if strings.Contains(html, `data-compare-items="0"`) || !strings.Contains(html, `data-compare-items="`) {
				t.Errorf("%s %s: the sentence states no difference", tc.calc, lang)
			}
		}
		if _, err := Render(Spec{Calc: c, ID: "w", Compare: "nosuch=1"}, all["it"]); err == nil {
			t.Errorf("%s: compare with an unknown parameter accepted", tc.calc)
		}
	}
	d, _ := reg.Lookup("dispatch")
	for _, bad := range []string{"mode", "mode=bogus", "jobs=1,2", "=1"} {
		if _, err := Render(Spec{Calc: d, ID: "w", Compare: bad}, all["it"]); err == nil {
			t.Errorf("compare %q accepted", bad)
		}
	}
}

// TestLimitsPlay: the two buckets' time view draws the trace of
// core/limits that the calculator records (calc.LimitsPlay; its horizon is
// tested in core/calc), and its last frame says what the trace counted.
func TestLimitsPlay(t *testing.T) {
	loc := locales(t)["it"]
	reg := calc.New()
	c, _ := reg.Lookup("limits")
	html, err := Render(Spec{Calc: c, ID: "w", Views: []string{"play"}}, loc)
	if err != nil {
		t.Fatal(err)
	}
	steps, err := limits.Config{RPM: 600, TPM: 300000}.Trace(limits.Flow{CallsPerMin: 1000, Tokens: 200, HorizonS: 120, MaxWaitS: calc.LimitsMaxWaitS, Steps: 120})
	if err != nil {
		t.Fatal(err)
	}
	refused := 0
	for _, s := range steps {
		refused += s.Refused
	}
	if refused == 0 {
		t.Fatal("workload A refuses no call in the trace")
	}
	says := regexp.MustCompile(`<g data-t="([^"]+)" data-say="([^"]+)"`).FindAllStringSubmatch(html, -1)
	if len(says) != len(steps) {
		t.Fatalf("%d frames, want %d", len(says), len(steps))
	}
	if last := says[len(says)-1]; last[1] != "120" || !strings.Contains(last[2], loc.Int(int64(refused))) {
		t.Errorf("last frame %q at %s does not count the %d refused calls", last[2], last[1], refused)
	}
	// a workload too large to trace leaves a note, not a broken figure
	html, err = Render(Spec{Calc: c, ID: "w", Values: url.Values{"calls_per_min": {"1000000000"}}, Views: []string{"play"}}, loc)
	if err != nil || !strings.Contains(html, `class="widget-note" data-view="play"`) {
		t.Errorf("calls_per_min=1e9: err %v, want the note in %.300s", err, html)
	}
}

// TestPoliciesPlayBars checks the strips of the policies time view: each
// step is a <g data-t> of at most two paths (the light bars and the dark
// bars), with one subpath per nonzero value of that step, each going up
// and down by the same height.
func TestPoliciesPlayBars(t *testing.T) {
	c, _ := calc.New().Lookup("policies")
	res, err := c.Compute(nil)
	if err != nil {
		t.Fatal(err)
	}
	r := res.(calc.PoliciesResult)
	html, err := Render(Spec{Calc: c, ID: "w", Views: []string{"play"}}, locales(t)["it"])
	if err != nil {
		t.Fatal(err)
	}
	step := regexp.MustCompile(`<g data-t="([^"]+)">(.*?)</g>`)
	path := regexp.MustCompile(`<path class="chart-bar chart-role-(` + stripRoles[0] + `|` + stripRoles[1] + `)" d="([^"]+)"`)
	sub := regexp.MustCompile(`M[0-9.]+ ([0-9.]+)v-([0-9.]+)h[0-9.]+v([0-9.]+)z`)
	steps := step.FindAllStringSubmatch(html, -1)
	if len(steps) != len(r.TS) {
		t.Fatalf("%d steps, want %d", len(steps), len(r.TS))
	}
	for i, m := range steps {
		if strings.Count(m[2], "<") > 2 || strings.Contains(m[2], "<rect") {
			t.Fatalf("step %s: more than two paths: %s", m[1], m[2])
		}
		got := map[string]int{}
		for _, p := range path.FindAllStringSubmatch(m[2], -1) {
			subs := sub.FindAllStringSubmatch(p[2], -1)
			if strings.Count(p[2], "M") != len(subs) {
				t.Fatalf("step %s: malformed bars %q", m[1], p[2])
			}
			for _, s := range subs {
				if s[2] != s[3] {
					t.Errorf("step %s: a bar up %s and down %s", m[1], s[2], s[3])
				}
			}
			got[p[1]] = len(subs)
		}
		want := map[string]int{}
		for _, run := range r.Results {
			if run.OfferedPerS[i] > 0 {
				want[stripRoles[0]]++
			}
			if run.GoodputPerS[i] > 0 {
				want[stripRoles[1]]++
			}
		}
		if got[stripRoles[0]] != want[stripRoles[0]] || got[stripRoles[1]] != want[stripRoles[1]] {
			t.Errorf("step %s: bars %v, want %v (one per policy with a nonzero value)", m[1], got, want)
		}
	}
}

// TestPoliciesDefaultLight bounds what the policies widget writes at its
// defaults, which the page parses again on every recompute: the default
// views (the timeline's nine charts with their data tables are offered,
// not shown) in at most 64 KB and 1,000 elements.
func TestPoliciesDefaultLight(t *testing.T) {
	c, _ := calc.New().Lookup("policies")
	if got := All().DefaultViews(c); slices.Contains(got, "timeline") {
		t.Errorf("default views %v include timeline", got)
	}
	for lang, loc := range locales(t) {
		html, err := Render(Spec{Calc: c, ID: "w"}, loc)
		if err != nil {
			t.Fatal(err)
		}
		if n, els := len(html), strings.Count(html, "<")-strings.Count(html, "</"); n > 64_000 || els > 1000 {
			t.Errorf("%s: %d bytes, %d elements", lang, n, els)
		}
	}
}

// TestStoryPlayS: each time view's playback follows its story.
func TestStoryPlayS(t *testing.T) {
	for _, tc := range []struct {
		span, sec, want float64
	}{
		{100, 0.001, 12},  // a 100 ms wave: at least 12 s
		{750, 0.001, 15},  // a 750 ms deadline: 50 ms a second
		{5000, 0.001, 30}, // 5 s of milliseconds: at most 30 s
		{1334, 1, 60},     // a long run: at most 60 s
		{80, 1, 40},       // half speed
		{10, 1, 20},       // at least 20 s
		{3, 0, 9},         // three layers, 3 s each
		{1, 0, 4},         // at least 4 s
	} {
		if got := storyPlayS(tc.span, tc.sec); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("storyPlayS(%v, %v) = %v, want %v", tc.span, tc.sec, got, tc.want)
		}
	}
}

// TestPlaybackScale: every time view of a widget, players and flows
// alike, carries its playback length (data-play-ms, storyPlayS of its
// range), the views of one widget agree, and a view whose unit is a time
// says its scale in words, in every language.
func TestPlaybackScale(t *testing.T) {
	all := locales(t)
	reg := calc.New()
	playMS := regexp.MustCompile(`data-play-ms="([0-9]+)"`)
	figRE := regexp.MustCompile(`<figure [^>]*data-timeview[^>]*>`)
	for _, name := range []string{"jitter", "backoff", "dispatch", "deadline", "amplification", "policies", "limits"} {
		c, _ := reg.Lookup(name)
		for lang, loc := range all {
			html, err := Render(Spec{Calc: c, ID: "w", Views: []string{"play", "flow"}}, loc)
			if err != nil && strings.Contains(err.Error(), `no view "flow"`) {
				html, err = Render(Spec{Calc: c, ID: "w", Views: []string{"play"}}, loc)
			}
			if err != nil && strings.Contains(err.Error(), `no view "play"`) {
				html, err = Render(Spec{Calc: c, ID: "w", Views: []string{"flow"}}, loc)
			}
			if err != nil {
				t.Fatalf("%s %s: %v", name, lang, err)
			}
			figs := figRE.FindAllString(html, -1)
			if len(figs) == 0 {
				t.Fatalf("%s %s: no time view", name, lang)
			}
			seen := map[string]bool{}
			for _, f := range figs {
				m := playMS.FindStringSubmatch(f)
				if m == nil {
					t.Errorf("%s %s: a time view without data-play-ms: %s", name, lang, f)
					continue
				}
				seen[m[1]] = true
			}
			if len(seen) > 1 {
				t.Errorf("%s %s: the time views disagree on their playback: %v", name, lang, seen)
			}
			if name != "amplification" && !strings.Contains(html, `class="widget-flow-scale"`) {
				t.Errorf("%s %s: no sentence says the playback's scale", name, lang)
			}
		}
	}
}

// TestPlayBinEdge: an arrival on a bin's edge is drawn in the bin that
// starts there, as the calculator counts it: fixed waits of 100 ms put
// every retry in the bin from 100 ms, so the axis runs to 110 and every
// column stands at x(100) (it stood at x(90), the axis ending at 100).
func TestPlayBinEdge(t *testing.T) {
	c, _ := calc.New().Lookup("jitter")
	html, err := Render(Spec{Calc: c, ID: "w", Values: url.Values{"strategy": {"fixed"}}, Views: []string{"play"}}, locales(t)["it"])
	if err != nil {
		t.Fatal(err)
	}
	if m := rangeRE.FindStringSubmatch(html); m == nil || m[2] != "110" {
		t.Fatalf("time axis %v, want to 110", m)
	}
	f := &playFig{t0: 0, t1: 110}
	want := `x="` + f1(f.fx(100)) + `"`
	dots := regexp.MustCompile(`<rect class="chart-dot[^>]*>`).FindAllString(html, -1)
	if len(dots) != 100 {
		t.Fatalf("%d dots, want 100", len(dots))
	}
	for _, d := range dots {
		if !strings.Contains(d, want) {
			t.Fatalf("dot %s not at %s", d, want)
		}
	}
}
