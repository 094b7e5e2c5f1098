package calc

import "testing"

// BenchmarkMetastableDefaults runs the metastable calculator at its
// defaults: the chain solved at lambda and at the sweep's 11 arrival
// rates, and 30 simulated drains.
func BenchmarkMetastableDefaults(b *testing.B) {
	c, _ := New().Lookup("metastable")
	a, err := c.ParsePairs(nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Run(a); err != nil {
			b.Fatal(err)
		}
	}
}
