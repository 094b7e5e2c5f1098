package widget

import (
	"html"
	"net/url"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"retrylab/core/calc"
)

var (
	flowMarksRE   = regexp.MustCompile(`<g class="flow-marks" data-r="([^"]+)" data-marks="([^"]*)">(.*?)</g>`)
	flowRestRE    = regexp.MustCompile(`<path class="flow-mark flow-s-(\d)" d="([^"]*)"/>`)
	flowArcRE     = regexp.MustCompile(`M([-\d.]+) ([-\d.]+)a`)
	flowLaneRE    = regexp.MustCompile(`<div class="widget-flow-lane" data-lane="([^"]*)">`)
	flowCounterRE = regexp.MustCompile(`<dd data-counter="([^"]+)" data-decimals="[^"]+" data-series="([^"]*)" data-value="([^"]+)">`)
	flowTSRE      = regexp.MustCompile(`<dl class="widget-flow-counters" data-ts="([^"]*)">`)
)

// TestFlowViews renders every flow view in every language, at the
// defaults and elsewhere: the same markup twice (seeded, no clock); at
// most flowMaxMarks marks, each with keyframes in time order (data-marks),
// drawn at its last one in its last state's path (the end state); a series per counter
// with a value per frame, the last (data-value) the result's exact figure.
func TestFlowViews(t *testing.T) {
	all := locales(t)
	reg := calc.New()
	for _, tc := range []struct {
		calc   string
		values url.Values
	}{
		{"policies", nil},
		{"policies", url.Values{"loop": {"closed"}}},
		{"policies", url.Values{"policies": {"aws,naive"}, "queue_cap": {"20"}}},
		{"jitter", nil},
		{"jitter", url.Values{"waves": {"3"}, "clients": {"2000"}}},
		{"backoff", nil},
		{"backoff", url.Values{"jitter": {"false"}}},
		{"amplification", nil},
		{"amplification", url.Values{"attempts": {"1,1,3"}}},
		{"dispatch", nil},
		{"dispatch", url.Values{"mode": {"naive"}, "deadline_s": {"30"}, "jobs": {"2000"}}},
	} {
		c, _ := reg.Lookup(tc.calc)
		res, err := c.Compute(tc.values)
		if err != nil {
			t.Fatal(err)
		}
		for lang, loc := range all {
			name := tc.calc + " " + tc.values.Encode() + " " + lang
			render := func() (string, error) {
				return Render(Spec{Calc: c, ID: "w", Values: tc.values, Views: []string{"flow"}}, loc)
			}
			html, err := render()
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			again, _ := render()
			if again != html {
				t.Fatalf("%s: two renders differ", name)
			}
			if !strings.Contains(html, `data-view="flow" data-timeview data-flow`) || strings.Contains(html, "widget-note") {
				t.Fatalf("%s: no flow view drawn", name)
			}
			marks := 0
			for _, g := range flowMarksRE.FindAllStringSubmatch(html, -1) {
				r, _ := strconv.ParseFloat(g[1], 64)
				// the end state: each mark at its last keyframe, in the
				// path of its last state, in the marks' order
				ends := map[string][]string{}
				for _, m := range strings.Split(g[2], "|") {
					marks++
					keys := strings.Split(m, ";")
					prev := -1.0
					for _, k := range keys {
						f := strings.Fields(k)
						if len(f) != 4 {
							t.Fatalf("%s: keyframe %q", name, k)
						}
						tk, _ := strconv.ParseFloat(f[0], 64)
						if tk < prev {
							t.Fatalf("%s: keyframes out of order: %s", name, m)
						}
						prev = tk
					}
					last := strings.Fields(keys[len(keys)-1])
					ends[last[3]] = append(ends[last[3]], last[1]+" "+last[2])
				}
				drawn := map[string][]string{}
				for _, p := range flowRestRE.FindAllStringSubmatch(g[3], -1) {
					for _, a := range flowArcRE.FindAllStringSubmatch(p[2], -1) {
						x, _ := strconv.ParseFloat(a[1], 64)
						drawn[p[1]] = append(drawn[p[1]], strconv.FormatFloat(x+r, 'f', -1, 64)+" "+a[2])
					}
				}
				if !reflect.DeepEqual(drawn, ends) {
					t.Fatalf("%s: the paths draw %v, the marks end at %v", name, drawn, ends)
				}
			}
			if marks == 0 || marks > flowMaxMarks+1 {
				t.Fatalf("%s: %d marks", name, marks)
			}
			flowLabelsFit(t, name, html)
			lanes := flowLaneRE.FindAllStringSubmatch(html, -1)
			tss := flowTSRE.FindAllStringSubmatch(html, -1)
			parts := strings.Split(html, `<div class="widget-flow-lane"`)[1:]
			if len(lanes) == 0 || len(tss) != len(lanes) || len(parts) != len(lanes) {
				t.Fatalf("%s: %d lanes, %d frame lists", name, len(lanes), len(tss))
			}
			for i, lane := range lanes {
				want := flowFigures(t, c, tc.values, res, lane[1])
				frames := len(strings.Fields(tss[i][1]))
				got := map[string]float64{}
				for _, cm := range flowCounterRE.FindAllStringSubmatch(parts[i], -1) {
					if n := len(strings.Fields(cm[2])); n != frames {
						t.Fatalf("%s lane %q: counter %s has %d values for %d frames", name, lane[1], cm[1], n, frames)
					}
					got[cm[1]], _ = strconv.ParseFloat(cm[3], 64)
				}
				if len(got) != len(want) {
					t.Fatalf("%s lane %q: counters %v, want %v", name, lane[1], got, want)
				}
				for k, w := range want {
					if got[k] != w {
						t.Errorf("%s lane %q: %s = %v at the end, the result's is %v", name, lane[1], k, got[k], w)
					}
				}
			}
		}
	}
}

var (
	flowStationLabelRE = regexp.MustCompile(`<text class="flow-label( flow-up)?" x="([^"]+)" y="([^"]+)" text-anchor="(start|middle)">([^<]*)</text>`)
	flowPileLabelRE    = regexp.MustCompile(`<text class="flow-label flow-pile-label" [^>]*>(.*?)</text>`)
	flowTspanRE        = regexp.MustCompile(`<tspan[^>]*>([^<]*)</tspan>`)
)

// flowLabelsFit: at the phone's sizes (flowStationEm, flowEm), each
// lane's station labels stay inside the lane and those of a row stand
// apart (neighbours alternate rows); each line of a pile's label fits its
// pile. (TestLayout measures the drawn boxes in Chromium; this finds a
// new language's long word without a browser.)
func flowLabelsFit(t *testing.T, name, html string) {
	t.Helper()
	for li, lane := range strings.Split(html, `<div class="widget-flow-lane"`)[1:] {
		type span struct {
			x0, x1 float64
			label  string
		}
		// on a phone (flowStationEm) each label on its row; wider
		// (flowDesktopEm) the flow-up ones moved down to row 1
		for _, size := range []struct {
			em    float64
			where string
		}{{flowStationEm, "phone"}, {flowDesktopEm, "desktop"}} {
			rows := map[string][]span{}
			for _, m := range flowStationLabelRE.FindAllStringSubmatch(lane, -1) {
				x, _ := strconv.ParseFloat(m[2], 64)
				label := htmlUnescape(m[5])
				w := textWidth(label, size.em)
				s := span{x, x + w, label}
				if m[4] == "middle" {
					s = span{x - w/2, x + w/2, label}
				}
				if s.x0 < 0 || s.x1 > flowW {
					t.Errorf("%s lane %d, %s: station label %q spans %.0f to %.0f, outside the lane (0 to %.0f)", name, li, size.where, label, s.x0, s.x1, flowW)
				}
				row := m[3]
				if m[1] != "" && size.where == "desktop" {
					row = f1(flowLabelY[1])
				}
				for _, o := range rows[row] {
					if s.x0 < o.x1+4 && o.x0 < s.x1+4 {
						t.Errorf("%s lane %d, %s: station labels %q and %q meet on one row (%.0f–%.0f, %.0f–%.0f)", name, li, size.where, o.label, label, o.x0, o.x1, s.x0, s.x1)
					}
				}
				rows[row] = append(rows[row], s)
			}
		}
		for _, m := range flowPileLabelRE.FindAllStringSubmatch(lane, -1) {
			lines := []string{m[1]}
			if ts := flowTspanRE.FindAllStringSubmatch(m[1], -1); len(ts) > 0 {
				lines = lines[:0]
				for _, l := range ts {
					lines = append(lines, l[1])
				}
			}
			for _, l := range lines {
				if w := textWidth(htmlUnescape(l), flowEm); w > flowPileB-flowPileA-6 {
					t.Errorf("%s lane %d: pile label line %q is %.0f wide, its pile %.0f", name, li, l, w, flowPileB-flowPileA)
				}
			}
		}
	}
}

// flowFigures are the result's figures a lane's counters end on.
func flowFigures(t *testing.T, c *calc.Calculator, values url.Values, res any, lane string) map[string]float64 {
	switch r := res.(type) {
	case calc.DispatchResult:
		_ = r
		// the lane's mode, whatever the page's
		v := url.Values{}
		for k, vs := range values {
			v[k] = vs
		}
		v.Set("mode", lane)
		other, err := c.Compute(v)
		if err != nil {
			t.Fatal(err)
		}
		d := other.(calc.DispatchResult)
		if d.Mode != lane {
			t.Fatalf("lane %q: the result's mode is %q", lane, d.Mode)
		}
		return map[string]float64{"ready": 0, "delayed": 0, "in_flight": 0, "rate_limited": float64(d.RateLimited), "retries": float64(d.Retries)}
	case calc.PoliciesResult:
		for _, p := range r.Results {
			if p.Policy == lane {
				return map[string]float64{"in_flight": 0, "queue": 0, "served": float64(p.Succeeded), "retries": float64(p.Retries), "wasted_s": p.WastedWork}
			}
		}
	case calc.JitterResult:
		return map[string]float64{"arrived": float64(r.Total), "fullest": float64(r.Peak)}
	case calc.BackoffResult:
		return map[string]float64{"arrived": float64(r.Retries), "fullest": float64(r.Peak)}
	case calc.AmplificationResult:
		sum := 0.0
		for _, v := range r.CallsPerLevel {
			n, _ := v.Int64()
			sum += float64(n)
		}
		final, _ := r.FinalCalls.Int64()
		return map[string]float64{"calls": sum, "final_calls": float64(final)}
	}
	t.Fatalf("no figures for lane %q of %T", lane, res)
	return nil
}

// TestFlowPair: the policies view puts the first policy that never
// recovers beside the first that does and retries.
func TestFlowPair(t *testing.T) {
	runs := []calc.PolicyRun{{Policy: "none", Recovered: true}, {Policy: "naive"}, {Policy: "backoff"}, {Policy: "grpc", Recovered: true}}
	if got := flowPair(runs); len(got) != 2 || got[0] != 1 || got[1] != 3 {
		t.Errorf("flowPair = %v, want [1 3]", got)
	}
	if got := flowPair(runs[:1]); len(got) != 1 {
		t.Errorf("one run: %v", got)
	}
	if got := flowPair([]calc.PolicyRun{{Policy: "a", Recovered: true}, {Policy: "b", Recovered: true}}); got[0] != 0 || got[1] != 1 {
		t.Errorf("all recover: %v", got)
	}
}

func htmlUnescape(s string) string { return html.UnescapeString(s) }

// TestFlowLabelsOneRow: wider than a phone, the station labels that fit
// on one row stand together over their boxes: oneRow decides, and
// widget.css moves the flow-up labels down by the rows' distance. The
// short labels of one language make one row; a language whose long
// labels do not fit keeps two (flowLabelsFit checks both layouts).
func TestFlowLabelsOneRow(t *testing.T) {
	css, err := os.ReadFile("widget.css")
	if err != nil {
		t.Fatal(err)
	}
	want := "translateY(" + f1(flowLabelY[1]-flowLabelY[0]) + "px)"
	if !strings.Contains(string(css), ".flow-up { transform: "+want) {
		t.Errorf("widget.css does not move .flow-up by %s", want)
	}
	short := []flowStation{{x0: 4, x1: 64, label: "ab"}, {x0: 70, x1: 130, label: "cd"}, {x0: 140, x1: 200, label: "ef"}}
	long := []flowStation{{x0: 4, x1: 64, label: "ab"}, {x0: 70, x1: 130, label: "a very long label indeed"}, {x0: 140, x1: 200, label: "ef"}}
	if !oneRow(short, flowDesktopEm) || oneRow(long, flowDesktopEm) {
		t.Errorf("oneRow: short %v, long %v; want true, false", oneRow(short, flowDesktopEm), oneRow(long, flowDesktopEm))
	}
	// the real lanes: some make one row, some keep two, in each case
	// both layouts fit (flowLabelsFit, in TestFlowViews)
	c, _ := calc.New().Lookup("jitter")
	ups := 0
	for lang, loc := range locales(t) {
		html, err := Render(Spec{Calc: c, ID: "w", Views: []string{"flow"}}, loc)
		if err != nil {
			t.Fatal(err)
		}
		ups += strings.Count(html, "flow-label flow-up")
		flowLabelsFit(t, "jitter "+lang, html)
	}
	if ups == 0 {
		t.Error("no jitter flow in it/es/zh puts its labels on one row")
	}
}

// TestWaveFlowStations: a wave's flow names its stations as its view
// does: the jitter's clients and server, the backoff's workers and
// provider (its title says the workers' retries reach the provider; the
// boxes said clients and server: zh reader review).
func TestWaveFlowStations(t *testing.T) {
	loc := locales(t)["it"]
	for _, tc := range []struct{ calc, from, to string }{
		{"jitter", "client", "server"},
		{"backoff", "worker", "fornitore"},
	} {
		c, _ := calc.New().Lookup(tc.calc)
		html, err := Render(Spec{Calc: c, ID: "w", Views: []string{"flow"}}, loc)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range []string{tc.from, "in attesa", tc.to} {
			if !regexp.MustCompile(`class="flow-label[^"]*"[^>]*>` + w + `<`).MatchString(html) {
				t.Errorf("%s flow: no station labelled %q", tc.calc, w)
			}
		}
	}
}

// TestFlowKeys: a flow whose marks take more than one state keys them
// all, in every language: each state a mark of its lanes takes has its
// swatch in the key ([view.CALC.flow] key), and the key names no state
// its marks never take; a flow of one state (the waves: retries) has no
// key. Each swatch and its name stay together on a line (a span).
func TestFlowKeys(t *testing.T) {
	stateRE := regexp.MustCompile(`class="flow-mark flow-s-(\d)" d="[^"]`) // a path drawing a mark
	keyRE := regexp.MustCompile(`<p class="widget-flow-key">(.*?)</p>`)
	swatchRE := regexp.MustCompile(`<span><svg [^>]*><circle class="flow-s-(\d)"[^>]*/></svg>[^<]+</span>`)
	reg := calc.New()
	for lang, loc := range locales(t) {
		for _, name := range []string{"amplification", "policies", "dispatch", "jitter", "backoff"} {
			c, _ := reg.Lookup(name)
			html, err := Render(Spec{Calc: c, ID: "w", Views: []string{"flow"}}, loc)
			if err != nil {
				t.Fatal(err)
			}
			states := map[string]bool{}
			for _, m := range stateRE.FindAllStringSubmatch(html, -1) {
				states[m[1]] = true
			}
			// a mark's earlier states are in its keyframes (data-marks:
			// "t x y state;…|…", a mark after each |)
			for _, m := range regexp.MustCompile(`data-marks="([^"]*)"`).FindAllStringSubmatch(html, -1) {
				for _, kf := range strings.FieldsFunc(m[1], func(r rune) bool { return r == ';' || r == '|' }) {
					if f := strings.Fields(kf); len(f) == 4 {
						states[f[3]] = true
					}
				}
			}
			key := keyRE.FindStringSubmatch(html)
			if len(states) < 2 {
				if key != nil {
					t.Errorf("%s %s: a key for marks of one state", name, lang)
				}
				continue
			}
			if key == nil {
				t.Errorf("%s %s: marks of %d states and no key", name, lang, len(states))
				continue
			}
			keyed := map[string]bool{}
			for _, m := range swatchRE.FindAllStringSubmatch(key[1], -1) {
				keyed[m[1]] = true
			}
			for s := range states {
				if !keyed[s] {
					t.Errorf("%s %s: marks of state %s have no swatch in the key %q", name, lang, s, key[1])
				}
			}
			for s := range keyed {
				if !states[s] {
					t.Errorf("%s %s: the key names state %s, which no mark takes", name, lang, s)
				}
			}
		}
	}
}
