package widget

import (
	"net/url"
	"testing"

	"retrylab/core/calc"
	"retrylab/site/locale"
)

// BenchmarkRenderOutput measures the output of each calculator at its
// defaults (what the playground re-renders on each recompute: run with
// the trace its flow view draws, RunArgs), the calculator's own Run
// excluded except where a view computes again (backoff draws the other
// jitter setting).
func BenchmarkRenderOutput(b *testing.B) {
	loc := locale.Locale{Lang: "it", Strings: locales(b)["it"].Strings}
	for _, c := range calc.New().List() {
		a, err := c.Parse(nil)
		if err != nil {
			b.Fatal(err)
		}
		views := All().DefaultViews(c)
		res, err := c.Run(RunArgs(c, a, views)) // with the trace a flow view draws
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.Name, func(b *testing.B) {
			for b.Loop() {
				if _, err := All().RenderOutput(c, a, res, views, loc); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRenderOutputLarge measures the outputs that draw the most:
// 100000 histogram bins grouped into bars, a 2000-point queue series, the
// largest call tree drawn, a long fullest-bin distribution.
func BenchmarkRenderOutputLarge(b *testing.B) {
	loc := locale.Locale{Lang: "it", Strings: locales(b)["it"].Strings}
	reg := calc.New()
	for _, tc := range []struct{ name, calc, query string }{
		{"jitter-100000-bins", "jitter", "width_ms=0.001"},
		{"dispatch-2000-samples", "dispatch", "samples=2000"},
		{"amplification-81-leaves", "amplification", "attempts=3,3,3,3"},
		{"peak-2000-100", "peak", "clients=2000&bins=100&threshold=40"},
		{"backoff-10000-workers", "backoff", "workers=10000"},
	} {
		c, ok := reg.Lookup(tc.calc)
		if !ok {
			b.Fatalf("no calculator %s", tc.calc)
		}
		q, _ := url.ParseQuery(tc.query)
		a, err := c.Parse(q)
		if err != nil {
			b.Fatal(err)
		}
		res, err := c.Run(a)
		if err != nil {
			b.Fatal(err)
		}
		views := All().DefaultViews(c)
		b.Run(tc.name, func(b *testing.B) {
			var n int
			for b.Loop() {
				out, err := All().RenderOutput(c, a, res, views, loc)
				if err != nil {
					b.Fatal(err)
				}
				n = len(out)
			}
			b.ReportMetric(float64(n), "html-bytes")
		})
	}
}

func BenchmarkCite(b *testing.B) {
	loc := locale.Locale{Lang: "it"}
	for b.Loop() {
		if _, _, err := All().Cite(nil, sample, "counts", "list", loc); err != nil {
			b.Fatal(err)
		}
	}
}

// TestRenderOutputAllocs holds the allocations of RenderOutput at each
// calculator's defaults, its Set made once as the playground's module
// makes it, to about a tenth over what it makes now (BenchmarkRenderOutput
// also counts All: 319 allocations). Dispatch, the dearest (its flow view:
// hundreds of marks, each with its keyframes), made 6,517 when every
// view wrote into a buffer of its own, each mark grew its keyframes one
// by one and each number became a string.
func TestRenderOutputAllocs(t *testing.T) {
	loc := locale.Locale{Lang: "it", Strings: locales(t)["it"].Strings}
	set := All()
	for _, tc := range []struct {
		calc string
		most float64
	}{
		{"dispatch", 920}, {"backoff", 370}, {"limits", 1060}, {"policies", 375},
		{"contention", 790}, {"retry-strategies", 765}, {"jitter", 165},
	} {
		c, ok := set.reg.Lookup(tc.calc)
		if !ok {
			t.Fatalf("no calculator %s", tc.calc)
		}
		a, err := c.Parse(nil)
		if err != nil {
			t.Fatal(err)
		}
		views := set.DefaultViews(c)
		res, err := c.Run(RunArgs(c, a, views))
		if err != nil {
			t.Fatal(err)
		}
		n := testing.AllocsPerRun(5, func() {
			if _, err := set.RenderOutput(c, a, res, views, loc); err != nil {
				t.Fatal(err)
			}
		})
		t.Logf("%s: %.0f allocations", tc.calc, n)
		if n > tc.most {
			t.Errorf("%s: RenderOutput makes %.0f allocations, more than %.0f", tc.calc, n, tc.most)
		}
	}
}
