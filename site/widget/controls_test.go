package widget

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"retrylab/core/calc"
)

func TestLogLadder(t *testing.T) {
	for _, tc := range []struct {
		name          string
		lo, hi, step  float64
		at            float64
		want          []float64 // nil: linear
		first, last   float64
		containsExtra float64
	}{
		{name: "narrow", lo: 1, hi: 20, step: 1},
		{name: "ninety-nine", lo: 1, hi: 99, step: 1},
		{name: "ints 1..100", lo: 1, hi: 100, step: 1, at: 3,
			want: []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 15, 20, 25, 30, 40, 50, 60, 70, 80, 90, 100}},
		{name: "page value added", lo: 1, hi: 1000, step: 1, at: 140, first: 1, last: 1000, containsExtra: 140},
		{name: "zero start, step 0.5", lo: 0, hi: 60, step: 0.5, at: 5, first: 0, last: 60, containsExtra: 0.5},
		{name: "tokens", lo: 10000, hi: 1e6, step: 10000, at: 120000, first: 10000, last: 1e6, containsExtra: 150000},
		{name: "floats without step", lo: 0.01, hi: 2, at: 0.1, first: 0.01, last: 2, containsExtra: 0.012},
		{name: "zero start, no step", lo: 0, hi: 100},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := logLadder(tc.lo, tc.hi, tc.step, tc.at)
			if tc.want != nil {
				if !slices.Equal(got, tc.want) {
					t.Errorf("got %v, want %v", got, tc.want)
				}
				return
			}
			if tc.last == 0 {
				if got != nil {
					t.Errorf("got %v, want a linear slider", got)
				}
				return
			}
			if got[0] != tc.first || got[len(got)-1] != tc.last || !slices.Contains(got, tc.containsExtra) || !slices.IsSorted(got) {
				t.Errorf("got %v", got)
			}
			for _, v := range got {
				if s := calc.FormatFloat(v); len(s) > 8 {
					t.Errorf("%v is not round (%s)", v, s)
				}
			}
		})
	}
}

func TestNearest(t *testing.T) {
	xs := []float64{0, 1, 2, 5, 10, 100}
	for _, tc := range []struct {
		v    float64
		want int
	}{{0, 0}, {-3, 0}, {1, 1}, {1.3, 1}, {1.5, 2}, {4, 3}, {30, 4}, {40, 5}, {1e9, 5}} {
		if got := nearest(xs, tc.v); got != tc.want {
			t.Errorf("nearest(%v) = %d, want %d", tc.v, got, tc.want)
		}
	}
}

// The control each kind of parameter gets (controls.go).
func TestControlKinds(t *testing.T) {
	loc := locales(t)["it"]
	reg := calc.New()
	for _, tc := range []struct {
		calc, param string
		must        []string
		mustNot     []string
	}{
		{"jitter", "clients", []string{`data-log-for="clients"`, `aria-valuetext="100"`}, []string{`data-slider-for="clients"`}},
		{"jitter", "waves", []string{`data-slider-for="waves"`}, []string{`data-log-for="waves"`}},
		{"jitter", "strategy", []string{`data-segments-value`, `<input type="radio" name="strategy" value="full" checked>`, `role="radiogroup"`}, []string{`<select`}},
		{"errors", "class", []string{`<select id="errors-1-class" name="class"`}, []string{`type="radio" name="class"`}},
		{"amplification", "attempts", []string{`name="attempts" value="3,3,3"`, `data-stepper-for="attempts"`, `data-minlen="1" data-maxlen="10"`, `data-item="livello {i}"`}, nil},
		{"deadline", "waits_ms", []string{`data-stepper-for="waits_ms"`, `data-step="10"`}, nil},
	} {
		c, _ := reg.Lookup(tc.calc)
		out := renderDefaults(t, c, loc)
		i := strings.Index(out, `data-field="`+tc.param+`"`)
		j := strings.Index(out[i:], "</div>")
		field := out[i : i+j]
		for _, m := range tc.must {
			if !strings.Contains(field, m) {
				t.Errorf("%s %s: no %s in %s", tc.calc, tc.param, m, field)
			}
		}
		for _, m := range tc.mustNot {
			if strings.Contains(field, m) {
				t.Errorf("%s %s: %s in %s", tc.calc, tc.param, m, field)
			}
		}
	}
}

// The plural forms of the string tables ({NAME|ONE|OTHER}: locale.Expand
// in Go, player.js's fill in the browser): three parts, a name first, # in both forms, no braces inside;
// none in Chinese, which has no plural forms.
func TestPluralTemplates(t *testing.T) {
	plural := regexp.MustCompile(`\{([^{}|]*)\|([^{}]*)\}`)
	for _, lang := range []string{"it", "es", "zh"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "content", lang, "strings.toml"))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, m := range plural.FindAllStringSubmatch(string(b), -1) {
			n++
			forms := strings.Split(m[2], "|")
			if !regexp.MustCompile(`^\w+$`).MatchString(m[1]) || len(forms) != 2 || !strings.Contains(forms[0], "#") || !strings.Contains(forms[1], "#") {
				t.Errorf("%s: bad plural %s", lang, m[0])
			}
		}
		if (n == 0) != (lang == "zh") {
			t.Errorf("%s: %d plural templates", lang, n)
		}
	}
}
