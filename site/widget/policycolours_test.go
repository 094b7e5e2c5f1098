//go:build !(js && wasm)

package widget

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"retrylab/core/calc"
	"retrylab/core/policies"
)

// TestPolicyColours: every preset of core/policies has one colour, no
// colour is another's (nor near it), and each keeps 3:1 against the
// page's background in its theme (WCAG 1.4.11).
func TestPolicyColours(t *testing.T) {
	light, dark := pageColours(t)
	have := map[policies.Policy]int{}
	for _, p := range policyColours {
		have[p.Policy]++
	}
	for _, p := range policies.All() {
		if have[p] != 1 {
			t.Errorf("policy %s has %d colours, want 1", p, have[p])
		}
		delete(have, p)
	}
	for p := range have {
		t.Errorf("a colour for %s, which is no preset", p)
	}
	rgb := func(hex string) [3]float64 {
		var c [3]float64
		for i := range c {
			v, _ := strconv.ParseUint(hex[1+2*i:3+2*i], 16, 8)
			c[i] = float64(v)
		}
		return c
	}
	for _, th := range []struct {
		name string
		bg   string
		pick func(i int) string
	}{
		{"light", light[0], func(i int) string { return policyColours[i].Light }},
		{"dark", dark[0], func(i int) string { return policyColours[i].Dark }},
	} {
		for i, p := range policyColours {
			col := th.pick(i)
			if c := contrast(t, col, th.bg); c < 3 {
				t.Errorf("%s: policy %s (%s) on %s is %.2f:1, under 3:1", th.name, p.Policy, col, th.bg, c)
			}
			for j := range i {
				a, b := rgb(col), rgb(th.pick(j))
				if d := math.Sqrt((a[0]-b[0])*(a[0]-b[0]) + (a[1]-b[1])*(a[1]-b[1]) + (a[2]-b[2])*(a[2]-b[2])); d < 30 {
					t.Errorf("%s: policies %s (%s) and %s (%s) are %.0f apart in RGB, under 30", th.name, p.Policy, col, policyColours[j].Policy, th.pick(j), d)
				}
			}
		}
	}
	// the style sheet binds each class to its colour, in both themes
	css := policyCSS()
	for _, p := range policyColours {
		for _, want := range []string{"--policy-" + string(p.Policy) + ": " + p.Light, "--policy-" + string(p.Policy) + ": " + p.Dark, ".chart-policy-" + string(p.Policy) + " { --ink: var(--policy-" + string(p.Policy) + "); }",
			// the flow view's lane
			`.widget-flow-lane[data-lane="` + string(p.Policy) + `"] > .widget-flow-name::before`,
			// the chip of the policies control
			`input[data-chip-for="policies"][value="` + string(p.Policy) + `"] + span { --ink: var(--policy-` + string(p.Policy) + "); }"} {
			if !strings.Contains(css, want) {
				t.Errorf("policyCSS has no %q", want)
			}
		}
	}
}

// TestPolicyColourViews: the views of one policies widget that show the
// policies side by side (the summary's bars, the results table's
// swatches, the play strips' markers) give each policy the same colour
// class, in every language, and every policy shown has it in each view.
func TestPolicyColourViews(t *testing.T) {
	c, _ := calc.New().Lookup("policies")
	views := []string{"summary", "compare", "play"}
	// the element of each view that carries a policy's colour, with the
	// policy's own class
	classOf := regexp.MustCompile(`class="[^"]*\bchart-policy chart-policy-([a-z0-9-]+)\b`)
	for lang, loc := range locales(t) {
		html, err := Render(Spec{Calc: c, ID: "pol", Views: views}, loc)
		if err != nil {
			t.Fatalf("%s: %v", lang, err)
		}
		shown := map[string]bool{}
		for _, p := range policies.Shown() {
			shown[string(p)] = true
		}
		for _, v := range views {
			i := strings.Index(html, `data-view="`+v+`"`)
			if i < 0 {
				t.Fatalf("%s: no %s view", lang, v)
			}
			part := html[i:]
			if j := strings.Index(part[1:], `data-view="`); j >= 0 {
				part = part[:j+1]
			}
			got := map[string]int{}
			for _, m := range classOf.FindAllStringSubmatch(part, -1) {
				got[m[1]]++
			}
			for p := range shown {
				if got[p] != 1 {
					t.Errorf("%s %s: policy %s coloured %d times, want once", lang, v, p, got[p])
				}
			}
			for p := range got {
				if !shown[p] {
					t.Errorf("%s %s: a colour for %s, not in the run", lang, v, p)
				}
			}
		}
	}
}

// TestPolicyColourSmallMultiples: the offered per-policy charts (timeline,
// queue) are one figure a policy; each title carries its policy's swatch,
// every policy of the run once, and queue's one line takes the policy's
// colour while timeline's three lines keep their roles'.
func TestPolicyColourSmallMultiples(t *testing.T) {
	c, _ := calc.New().Lookup("policies")
	swatch := regexp.MustCompile(`<p class="widget-fig-title" aria-hidden="true"><span class="widget-swatch chart-policy chart-policy-([a-z0-9-]+)"></span>`)
	line := regexp.MustCompile(`class="chart-line chart-policy chart-policy-([a-z0-9-]+)"`)
	shown := map[string]bool{}
	for _, p := range policies.Shown() {
		shown[string(p)] = true
	}
	for lang, loc := range locales(t) {
		for _, v := range []string{"timeline", "queue"} {
			html, err := Render(Spec{Calc: c, ID: "pol", Views: []string{v}}, loc)
			if err != nil {
				t.Fatalf("%s %s: %v", lang, v, err)
			}
			got := map[string]int{}
			for _, fig := range strings.Split(html, `<figure class="widget-chart" data-view="`+v+`"`)[1:] {
				ms := swatch.FindAllStringSubmatch(fig, -1)
				if len(ms) != 1 {
					t.Fatalf("%s %s: a figure with %d policy swatches in its title, want 1", lang, v, len(ms))
				}
				got[ms[0][1]]++
				lines := line.FindAllStringSubmatch(fig, -1)
				switch {
				case v == "queue" && (len(lines) != 1 || lines[0][1] != ms[0][1]):
					t.Errorf("%s queue %s: lines in the policy's colour %v, want its one line", lang, ms[0][1], lines)
				case v == "timeline" && len(lines) != 0:
					t.Errorf("%s timeline %s: %d lines in a policy's colour, want the roles'", lang, ms[0][1], len(lines))
				}
			}
			if len(got) != len(shown) {
				t.Errorf("%s %s: figures of %v, want one per policy of %v", lang, v, got, shown)
			}
			for p, n := range got {
				if !shown[p] || n != 1 {
					t.Errorf("%s %s: policy %s has %d figures", lang, v, p, n)
				}
			}
		}
	}
}
