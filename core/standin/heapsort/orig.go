//go:build standin_orig_heapsort

// The original in the stand-in's place, for core/standin/bench.sh (what
// heapsort saves) and for running heapsort's tests against package slices
// and sort.

package heapsort

import (
	"slices"
	"sort"
)

type byIndex struct {
	n    int
	less func(i, j int) bool
	swap func(i, j int)
}

func (b byIndex) Len() int           { return b.n }
func (b byIndex) Less(i, j int) bool { return b.less(i, j) }
func (b byIndex) Swap(i, j int)      { b.swap(i, j) }

// Sort is sort.Sort over the index functions.
func Sort(n int, less func(i, j int) bool, swap func(i, j int)) {
	sort.Sort(byIndex{n, less, swap})
}

// Strings is slices.Sort.
func Strings(s []string) { slices.Sort(s) }

// Float64s is slices.Sort.
func Float64s(s []float64) { slices.Sort(s) }
