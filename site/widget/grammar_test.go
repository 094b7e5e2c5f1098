package widget

import (
	"math"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"retrylab/core/calc"
)

// luminance is the WCAG 2 relative luminance of #rrggbb.
func luminance(t *testing.T, hex string) float64 {
	t.Helper()
	if len(hex) != 7 || hex[0] != '#' {
		t.Fatalf("colour %q is not #rrggbb", hex)
	}
	var l [3]float64
	for i := range l {
		v, err := strconv.ParseUint(hex[1+2*i:3+2*i], 16, 8)
		if err != nil {
			t.Fatalf("colour %q: %v", hex, err)
		}
		c := float64(v) / 255
		if c <= 0.04045 {
			l[i] = c / 12.92
		} else {
			l[i] = math.Pow((c+0.055)/1.055, 2.4)
		}
	}
	return 0.2126*l[0] + 0.7152*l[1] + 0.0722*l[2]
}

func contrast(t *testing.T, a, b string) float64 {
	la, lb := luminance(t, a), luminance(t, b)
	return (math.Max(la, lb) + 0.05) / (math.Min(la, lb) + 0.05)
}

// pageColours reads the light and the dark theme's --bg and --fg from the
// site's style sheet, their one source.
func pageColours(t *testing.T) (light, dark [2]string) {
	t.Helper()
	b, err := os.ReadFile("../assets/style.css")
	if err != nil {
		t.Fatal(err)
	}
	css := string(b)
	get := func(block, name string) string {
		m := regexp.MustCompile(`--` + name + `:\s*(#[0-9a-fA-F]{6});`).FindStringSubmatch(block)
		if m == nil {
			t.Fatalf("style.css: no --%s in %q", name, block[:min(len(block), 80)])
		}
		return strings.ToLower(m[1])
	}
	i := strings.Index(css, `:root[data-theme="dark"]`)
	if i < 0 {
		t.Fatal(`style.css: no :root[data-theme="dark"] block`)
	}
	return [2]string{get(css[:i], "bg"), get(css[:i], "fg")}, [2]string{get(css[i:], "bg"), get(css[i:], "fg")}
}

// TestPaletteContrast: every role's colour keeps 3:1 against the page's
// background in both themes (WCAG 1.4.11, non-text contrast), the text of
// the figures (the page's --fg) 4.5:1, and the roles' colours differ.
func TestPaletteContrast(t *testing.T) {
	light, dark := pageColours(t)
	for _, th := range []struct {
		name   string
		bg, fg string
		pick   func(role) string
	}{{"light", light[0], light[1], func(r role) string { return r.Light }}, {"dark", dark[0], dark[1], func(r role) string { return r.Dark }}} {
		if c := contrast(t, th.fg, th.bg); c < 4.5 {
			t.Errorf("%s: text %s on %s is %.2f:1, under 4.5:1", th.name, th.fg, th.bg, c)
		}
		seen := map[string]string{}
		for _, r := range roles {
			col := th.pick(r)
			if c := contrast(t, col, th.bg); c < 3 {
				t.Errorf("%s: role %s (%s) on %s is %.2f:1, under 3:1", th.name, r.Name, col, th.bg, c)
			}
			if o, ok := seen[col]; ok {
				t.Errorf("%s: roles %s and %s share %s", th.name, o, r.Name, col)
			}
			seen[col] = r.Name
		}
	}
}

// The capacity role is the page's text colour, from the same sheet.
func TestCapacityIsText(t *testing.T) {
	light, dark := pageColours(t)
	for _, r := range roles {
		if r.Name == roleCapacity && (r.Light != light[1] || r.Dark != dark[1]) {
			t.Errorf("capacity = %s/%s, the page's text is %s/%s", r.Light, r.Dark, light[1], dark[1])
		}
	}
}

func TestTextWidth(t *testing.T) {
	for _, tc := range []struct {
		s      string
		lo, hi float64 // in em
	}{
		{"", 0, 0},
		{"nessun retry", 5, 8},
		{"gRPC, retry throttling", 9, 14},
		{"不重试", 3, 3},
		{"100%", 2, 3},
	} {
		if w := textWidth(tc.s, 1); w < tc.lo || w > tc.hi {
			t.Errorf("textWidth(%q) = %.2f em, want within [%g, %g]", tc.s, w, tc.lo, tc.hi)
		}
	}
}

// A bar chart whose labels do not fit under the bars at the phone's size
// turns horizontal; one with short labels stays vertical.
func TestHorizontalBars(t *testing.T) {
	long := chart{Categories: []string{"nessun retry", "retry immediati", "backoff con jitter", "gRPC, retry throttling", "Envoy, retry budget"}}
	short := chart{Categories: []string{"1", "2", "3", "4"}}
	if !long.horizontal() {
		t.Error("five long labels should turn the chart horizontal")
	}
	if short.horizontal() {
		t.Error("four short labels should stay under vertical bars")
	}
	// labels that each fit their slot, but neighbours closer than
	// labelGap (timeouts, it: 3 px apart on a phone); short numbers at
	// every seventh bin of 70 (jitter's histogram) keep their bars vertical
	if near := (chart{Categories: []string{"connessione", "primo token", "inattività", "totale"}}); !near.horizontal() {
		t.Error("neighbouring labels without labelGap between them should turn the chart horizontal")
	}
	bins := chart{}
	for i := range 70 {
		bins.Categories = append(bins.Categories, strconv.Itoa(10*i))
	}
	if bins.horizontal() {
		t.Error("a 70-bin histogram labelled every seventh bin should stay vertical")
	}
	var b strings.Builder
	long.Series = []series{{Name: "x", Values: []float64{0.9, 0.2, 0.2, 0.9, 0.8}}}
	long.write(&b, locales(t)["it"])
	if !strings.Contains(b.String(), `class="chart chart-h"`) || strings.Count(b.String(), `<rect class="chart-bar`) != 5 {
		t.Errorf("horizontal chart: %s", b.String())
	}
	// a limit is drawn as on a vertical chart: a dashed line at its value
	// across every row (the ticks reach 1: 0.5 is halfway, x 312), its
	// label in a row of its own above the first bar
	b.Reset()
	long.Rules = []rule{{Y: 0.5, Label: "limite del fornitore"}}
	long.write(&b, locales(t)["it"])
	out := b.String()
	if !strings.Contains(out, `<line class="chart-rule" x1="312" x2="312" y1="36"`) {
		t.Errorf("no limit line at 0.5 across the rows: %s", out)
	}
	if !strings.Contains(out, `y="32" text-anchor="start">limite del fornitore</text>`) {
		t.Errorf("no limit label above the bars: %s", out)
	}
	if !strings.Contains(out, `<rect class="chart-bar" x="8" y="64"`) {
		t.Errorf("the first bar does not leave the limit's row free: %s", out)
	}
}

// A set (a Text parameter with Members) is a row of toggle chips: one per
// member, checked as the value says, and a hidden control holding the
// canonical text.
func TestChips(t *testing.T) {
	c, _ := calc.New().Lookup("policies")
	out, err := Render(Spec{Calc: c, ID: "w", Values: url.Values{"policies": {"none,aws"}}}, locales(t)["it"])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, `<input type="hidden" id="w-policies" name="policies" value="none,aws">`) {
		t.Error("no hidden control with the canonical text")
	}
	p := c.Param("policies")
	if n := strings.Count(out, `data-chip-for="policies"`); n != len(p.Members) {
		t.Errorf("%d chips, want %d", n, len(p.Members))
	}
	for _, m := range p.Members {
		on := strings.Contains(out, `data-chip-for="policies" value="`+m+`" checked>`)
		if on != (m == "none" || m == "aws") {
			t.Errorf("chip %s checked = %v", m, on)
		}
	}
	if !strings.Contains(out, `<span>nessun retry</span>`) {
		t.Error("chip labels are not the policies' names for the reader")
	}
}

// A Split rule marks a marked bar beyond the limit only: the part within
// it is a plain bar, the excess a marked one on it (estimate: the calls
// that come back as 429), vertical and horizontal.
func TestSplitRule(t *testing.T) {
	for _, cats := range [][]string{{"a", "b"}, {"lasciate passare dal limitatore", "ammesse dal fornitore"}} {
		ch := chart{Categories: cats, Series: []series{{Name: "y", Values: []float64{30, 20}, Mark: []bool{true, false}}},
			Rules: []rule{{Y: 20, Label: "limite", Split: true}}}
		var b strings.Builder
		ch.write(&b, locales(t)["it"])
		out := b.String()
		if n, m := strings.Count(out, `<rect class="chart-bar`), strings.Count(out, `<rect class="chart-bar chart-bar-mark"`); n != 3 || m != 1 {
			t.Errorf("%s: %d bars, %d marked, want 3 and 1 (the first bar in two parts): %s", cats[0], n, m, out)
		}
		hbars := ch.horizontal()
		// the plain part ends where the marked part starts, at the limit
		var plain, mark string
		if hbars {
			plain, mark = `<rect class="chart-bar" x="8" y="64" width="405.3"`, `<rect class="chart-bar chart-bar-mark" x="413.3" y="64" width="202.7"`
		} else {
			plain, mark = `height="124" fill-opacity="1"/><rect class="chart-bar chart-bar-mark"`, `y="46" width="72" height="62"`
		}
		if !strings.Contains(out, plain) || !strings.Contains(out, mark) {
			t.Errorf("%s (horizontal %v): want %s and %s in %s", cats[0], hbars, plain, mark, out)
		}
	}
}
