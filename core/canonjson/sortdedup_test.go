package canonjson

import (
	"slices"
	"strings"
	"testing"
)

// stableSortDedup is sortDedup as it was before core/standin/heapsort:
// slices.SortStableFunc by key, then the last of equal keys kept. It is
// the reference of TestSortDedup and FuzzSortDedup.
func stableSortDedup(ms []member) []member {
	slices.SortStableFunc(ms, func(a, b member) int { return slices.Compare(a.key, b.key) })
	out := ms[:0]
	for i, m := range ms {
		if i+1 < len(ms) && slices.Equal(m.key, ms[i+1].key) {
			continue
		}
		out = append(out, m)
	}
	return out
}

// checkSortDedup builds an object's members from keys (each member's
// value records its position) and holds sortDedup to stableSortDedup.
func checkSortDedup(t *testing.T, keys []string) {
	t.Helper()
	var a, b []member
	for i, k := range keys {
		m := member{key: []rune(k), val: value{kind: kNumber, text: string(rune('A' + i%26))}, at: i}
		a = append(a, m)
		b = append(b, m)
	}
	got, want := sortDedup(a), stableSortDedup(b)
	if len(got) != len(want) {
		t.Fatalf("keys %q: %d members, want %d", keys, len(got), len(want))
	}
	for i := range got {
		if !slices.Equal(got[i].key, want[i].key) || got[i].at != want[i].at {
			t.Fatalf("keys %q: member %d is %q (position %d), want %q (position %d)",
				keys, i, string(got[i].key), got[i].at, string(want[i].key), want[i].at)
		}
	}
}

func TestSortDedup(t *testing.T) {
	for _, keys := range [][]string{
		nil,
		{"a"},
		{"b", "a"},
		{"a", "a"},
		{"a", "b", "a", "b", "a"},
		{"x", "x", "x", "x", "x", "x", "x", "x", "x", "x", "x", "x", "x", "x", "x", "x", "x"},
		{"", "é", "z", "\U0001F304", "\uffff", "", "é"},
		{"ab", "a", "abc", "a", "ab"},
		strings.Split("the quick brown fox jumps over the lazy dog the end", " "),
	} {
		checkSortDedup(t, keys)
	}
}

// FuzzSortDedup: any keys (the fields of a text split at ','), with as
// many duplicates as the fuzzer likes.
func FuzzSortDedup(f *testing.F) {
	f.Add("b,a,b,,a")
	f.Add("x,x,x,y,x")
	f.Fuzz(func(t *testing.T, text string) {
		checkSortDedup(t, strings.Split(text, ","))
	})
}
