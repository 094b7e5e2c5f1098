//go:build !standin_orig_heapsort

// Package heapsort sorts in place with a heap sort over index functions:
// O(n log n) comparisons and swaps whatever the input, no allocation, no
// recursion, and one non-generic body for every element type. It stands
// in for slices.Sort and slices.SortStableFunc in the code the browser's
// module links (package core/standin). It is not stable:
// callers that need a stable order compare positions too (core/canonjson
// does). Sorts of large slices in the mathematics (core/dispatch's waits,
// up to 100,000) keep slices.Sort, which is faster.
package heapsort

import "cmp"

// Sort sorts the n elements that less and swap address by index (0 ≤ i,
// j < n) into increasing order of less: afterwards less(j, i) is false for
// every i < j. less must be a strict weak order. Nothing happens for
// n ≤ 1. It makes at most about 2n·log2(n) calls to less.
func Sort(n int, less func(i, j int) bool, swap func(i, j int)) {
	down := func(root, end int) {
		for {
			child := 2*root + 1
			if child >= end {
				return
			}
			if child+1 < end && less(child, child+1) {
				child++
			}
			if !less(root, child) {
				return
			}
			swap(root, child)
			root = child
		}
	}
	for i := n/2 - 1; i >= 0; i-- {
		down(i, n)
	}
	for i := n - 1; i > 0; i-- {
		swap(0, i)
		down(0, i)
	}
}

// Strings sorts s into increasing byte order, as slices.Sort(s) does.
func Strings(s []string) {
	Sort(len(s), func(i, j int) bool { return s[i] < s[j] }, func(i, j int) { s[i], s[j] = s[j], s[i] })
}

// Float64s sorts s into increasing order, NaNs first, as slices.Sort(s)
// does: the same values in the same places, but for equal values, which it
// may leave in another order (only -0 and +0, or NaNs of different bits,
// tell them apart). It stands in for slices.Sort on float64, whose
// pdqsort instantiation is 13 KB of the browser's code (core/dispatch's
// queue waits, core/timeouts' durations); on 100,000 values it takes about
// twice as long (BenchmarkFloat64s).
func Float64s(s []float64) {
	Sort(len(s), func(i, j int) bool { return cmp.Less(s[i], s[j]) }, func(i, j int) { s[i], s[j] = s[j], s[i] })
}
