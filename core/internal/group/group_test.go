package group

import (
	"slices"
	"testing"
)

func TestBy(t *testing.T) {
	tests := []struct {
		name string
		keys []int32
		vals []string
		n    int
		want [][]string // by key; nil for none
	}{
		{"empty log", nil, nil, 3, [][]string{nil, nil, nil}},
		{"no keys", nil, nil, 0, [][]string{}},
		{"one key", []int32{0, 0}, []string{"a", "b"}, 1, [][]string{{"a", "b"}}},
		{"interleaved, in the order logged", []int32{1, 0, 1, 2, 0}, []string{"a", "b", "c", "d", "e"}, 3,
			[][]string{{"b", "e"}, {"a", "c"}, {"d"}}},
		{"keys without values", []int32{3, 1, 3}, []string{"a", "b", "c"}, 5,
			[][]string{nil, {"b"}, nil, {"a", "c"}, nil}},
		{"only the last key", []int32{2}, []string{"a"}, 3, [][]string{nil, nil, {"a"}}},
	}
	for _, tt := range tests {
		g := By(tt.keys, tt.vals, tt.n)
		for k := range tt.n {
			got := g.Of(k)
			if !slices.Equal(got, tt.want[k]) || (got == nil) != (tt.want[k] == nil) {
				t.Errorf("%s: key %d = %q, want %q", tt.name, k, got, tt.want[k])
			}
			if cap(got) != len(got) {
				t.Errorf("%s: key %d has capacity %d for %d values", tt.name, k, cap(got), len(got))
			}
		}
	}
}

// TestByAppendCopies checks that appending to one key's values leaves
// the next key's alone (the capacity is clipped).
func TestByAppendCopies(t *testing.T) {
	g := By([]int32{0, 1}, []string{"a", "b"}, 2)
	_ = append(g.Of(0), "x")
	if got := g.Of(1); got[0] != "b" {
		t.Errorf("an append to key 0 wrote over key 1: %q", got)
	}
}

// TestByAllocs holds By to its two allocations.
func TestByAllocs(t *testing.T) {
	keys, vals := make([]int32, 100), make([]string, 100)
	for i := range keys {
		keys[i], vals[i] = int32(i%7), "v"
	}
	allocs := testing.AllocsPerRun(20, func() {
		g := By(keys, vals, 7)
		_ = g.Of(6)
	})
	if allocs > 2 {
		t.Errorf("By makes %.0f allocations, want 2", allocs)
	}
}
