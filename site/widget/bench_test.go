package widget

import (
	"testing"

	"retrylab/calc"
	"retrylab/site/locale"
)

// BenchmarkRenderOutput measures the output of each calculator at its
// defaults (what the playground re-renders on each recompute), the
// calculator's own Run excluded except where a view computes again
// (backoff draws the other jitter setting).
func BenchmarkRenderOutput(b *testing.B) {
	loc := locale.Locale{Lang: "it", Strings: locales(b)["it"].Strings}
	for _, c := range calc.New().List() {
		a, err := c.Parse(nil)
		if err != nil {
			b.Fatal(err)
		}
		res, err := c.Run(a)
		if err != nil {
			b.Fatal(err)
		}
		views := DefaultViews(c)
		b.Run(c.Name, func(b *testing.B) {
			for b.Loop() {
				if _, err := RenderOutput(c, a, res, views, loc); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkCite(b *testing.B) {
	loc := locale.Locale{Lang: "it"}
	for b.Loop() {
		if _, _, err := Cite(sample, "counts", "list", loc); err != nil {
			b.Fatal(err)
		}
	}
}
