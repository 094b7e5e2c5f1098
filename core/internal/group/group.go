// Package group gathers a log's values by key, in one array: what a
// trace does at its end to give each traced item its own entries
// (core/dispatch's jobs their calls, core/policies' marks their
// attempts), instead of one growing slice an item while it runs.
package group

// Groups are values gathered by key (By).
type Groups[V any] struct {
	all []V   // the values, key 0's first
	end []int // key k's values end at all[end[k]]
}

// By gathers vals by their keys (keys[i] is vals[i]'s, in [0, n)): each
// key's values in the order of vals, in one array. Two allocations: the
// array and the keys' ends. The values' keys are a slice of their own,
// not a field each: no function is needed to read them.
func By[V any](keys []int32, vals []V, n int) Groups[V] {
	all := make([]V, len(vals))
	end := make([]int, n)
	for _, k := range keys {
		end[k]++
	}
	// end[k] is where key k's next value goes: its start, then its end
	// once its values are in.
	start := 0
	for k, c := range end {
		end[k] = start
		start += c
	}
	for i, k := range keys[:len(vals)] {
		all[end[k]] = vals[i]
		end[k]++
	}
	return Groups[V]{all, end}
}

// Of returns key k's values, a slice whose capacity is its length (an
// append to it copies, never writing over the next key's), nil for none.
func (g Groups[V]) Of(k int) []V {
	lo := 0
	if k > 0 {
		lo = g.end[k-1]
	}
	if hi := g.end[k]; lo < hi {
		return g.all[lo:hi:hi]
	}
	return nil
}
