//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"math"
	"testing"
)

// TestNumberFormat: player.js writes numbers (a player's clock, a flow
// view's counters, a log slider's spoken value) as site/locale does, from
// the marks the build writes on <html> (data-decimal, data-group,
// data-group-min), in each language, on an article and on an embed:
// numberFormat(d, d) as Fixed(v, d), numberFormat(0, d) as MaxFrac(v, d).
// (Ties of the exact binary value are left out: toFixed rounds them up,
// Go to even.)
func TestNumberFormat(t *testing.T) {
	values := []float64{0, 1, -1, 7, 12.34, 999.96, 1000, 1234.5678, -1234.5678, 12345.678, 99999.99,
		1234567.891, 0.000123, -0.00001, 0.1, 2.675, 1e15 + 2, math.Inf(1), math.Inf(-1), math.NaN()}
	decs := [][2]int{{0, 0}, {0, 1}, {0, 6}, {2, 2}, {1, 1}}
	in, err := json.Marshal(struct {
		V []any    `json:"v"`
		D [][2]int `json:"d"`
	}{jsNumbers(values), decs})
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range []string{"it", "es", "zh"} {
		for _, path := range []string{"/" + lang + "/retries/", "/" + lang + "/embed/dispatch/"} {
			t.Run(path, func(t *testing.T) {
				p := pageAt(t, path)
				ctx := tab(t)
				open(t, ctx, p, "")
				loc := pageLocale(t, ctx, p)
				got := eval[[][]string](t, ctx, fmt.Sprintf(`(() => {
					const in_ = %s, num = v => v === 'NaN' ? NaN : v === 'Inf' ? Infinity : v === '-Inf' ? -Infinity : v;
					return in_.d.map(d => in_.v.map(v => window.retrylabNumberFormat(d[0], d[1]).format(num(v))));
				})()`, in))
				for i, d := range decs {
					for j, v := range values {
						want := loc.MaxFrac(v, d[1])
						if d[0] == d[1] {
							want = loc.Fixed(v, d[1])
						}
						if got[i][j] != want {
							t.Errorf("%s: numberFormat(%d, %d).format(%v) = %q, site/locale writes %q", lang, d[0], d[1], v, got[i][j], want)
						}
					}
				}
			})
		}
	}
}

// jsNumbers are values as JSON can carry them to the page: infinities
// and NaN as text.
func jsNumbers(vs []float64) []any {
	out := make([]any, len(vs))
	for i, v := range vs {
		switch {
		case math.IsNaN(v):
			out[i] = "NaN"
		case math.IsInf(v, 1):
			out[i] = "Inf"
		case math.IsInf(v, -1):
			out[i] = "-Inf"
		default:
			out[i] = v
		}
	}
	return out
}
