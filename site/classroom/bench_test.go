package classroom

import (
	"fmt"
	"testing"

	"retrylab/core/calc"
)

// BenchmarkTables: the answers of every option of every exercise, which
// every build computes once per language (make bench).
func BenchmarkTables(b *testing.B) {
	reg := calc.New()
	for b.Loop() {
		if _, err := Tables(reg); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkClass: the variants of a class of 30 (retrylab exercises).
func BenchmarkClass(b *testing.B) {
	reg := calc.New()
	for b.Loop() {
		for s := 1; s <= 30; s++ {
			if _, err := NewVariant(reg, "3B", fmt.Sprint(s)); err != nil {
				b.Fatal(err)
			}
		}
	}
}
