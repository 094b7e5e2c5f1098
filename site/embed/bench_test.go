package embed

import (
	"net/url"
	"testing"

	"retrylab/core/calc"
	"retrylab/site/locale"
)

// BenchmarkSVG: one request of /api/v1/NAME.svg at the defaults.
func BenchmarkSVG(b *testing.B) {
	reg := calc.New()
	loc := locale.Locale{Lang: "it"}
	for _, name := range []string{"jitter", "peak", "dispatch"} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if _, err := SVG(reg, loc, name, url.Values{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
