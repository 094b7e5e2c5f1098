package policies

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// popRef is events.pop written as the plain 4-ary heap it is: a child
// loop instead of pop's unrolled four-children case. The order in which
// equal times come out depends on the heap's layout, and the simulation's
// results on that order, so pop must move exactly the events popRef moves.
func (q *events) popRef() event {
	h := q.h
	top := h[0]
	n := len(h) - 1
	last := h[n]
	q.h = h[:n]
	h = q.h
	i := 0
	for {
		c := 4*i + 1
		if c >= n {
			break
		}
		m := c
		for j := c + 1; j < c+4 && j < n; j++ {
			if h[j].t < h[m].t {
				m = j
			}
		}
		if h[m].t >= last.t {
			break
		}
		h[i] = h[m]
		i = m
	}
	if n > 0 {
		h[i] = last
	}
	return top
}

// TestEventsPopSameAsRef: random pushes and pops, with many equal times
// (times from a narrow range), give the same events in the same order
// from pop as from popRef, and times never decrease.
func TestEventsPopSameAsRef(t *testing.T) {
	for _, tc := range []struct {
		name   string
		spread int64 // times drawn from [now, now+spread)
		size   int   // events held at most
	}{
		{"ties", 3, 40},
		{"few ties", 1000, 200},
		{"no ties", 1 << 40, 100},
		{"tiny", 2, 5},
	} {
		r := rand.New(rand.NewPCG(7, uint64(tc.size)))
		var a, b events
		now := int64(0)
		for step := range 20000 {
			if len(a.h) < tc.size && (len(a.h) == 0 || r.IntN(2) == 0) {
				e := event{t: now + r.Int64N(tc.spread), req: int32(step), kind: uint8(step % 3)}
				a.push(e)
				b.push(e)
				continue
			}
			x, y := a.pop(), b.popRef()
			if x != y {
				t.Fatalf("%s, step %d: pop %+v, popRef %+v", tc.name, step, x, y)
			}
			if x.t < now {
				t.Fatalf("%s, step %d: time went back from %d to %d", tc.name, step, now, x.t)
			}
			now = x.t
		}
	}
}

// TestSlotHeapReplaceMin: after replaceMin of a later time, a heap of
// any size up to 40, with equal times and without, holds the times it
// held but the earliest, and the new one, and its root is the earliest.
func TestSlotHeapReplaceMin(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for n := 1; n <= 40; n++ {
		for _, spread := range []int64{2, 10, 1 << 40} {
			h := make(slotHeap, n)
			for step := range 300 {
				want := slices.Clone(h)
				grow := r.Int64N(spread)
				want[0] += grow
				slices.Sort(want)
				h.replaceMin(h[0] + grow)
				got := slices.Clone(h)
				slices.Sort(got)
				if !slices.Equal(got, want) {
					t.Fatalf("n %d, spread %d, step %d: times %v, want %v", n, spread, step, got, want)
				}
				for i := 1; i < n; i++ {
					if h[(i-1)/2] > h[i] {
						t.Fatalf("n %d, step %d: not a heap at %d: %v", n, step, i, h)
					}
				}
			}
		}
	}
}
