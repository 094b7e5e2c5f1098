package calc

import "testing"

// BenchmarkDefaults times each calculator's Run at its defaults, what the
// playground recomputes when a page opens (issue 30's budget is 16 ms p95
// for parse, run, render and DOM together in the browser). Its allocations
// (-benchmem) matter most as WebAssembly, whose collector is far slower.
// Sub-benchmark NAME/trace runs with the trace a flow view draws
// (Args.WithTrace, 400 marks a run, site/widget's flowLaneMarks), as the
// playground does for a calculator that shows one.
func BenchmarkDefaults(b *testing.B) {
	for _, c := range New().List() {
		a, err := c.Parse(nil)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.Name, func(b *testing.B) {
			for b.Loop() {
				if _, err := c.Run(a); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.Name+"/trace", func(b *testing.B) {
			a := a.WithTrace(400)
			for b.Loop() {
				if _, err := c.Run(a); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
