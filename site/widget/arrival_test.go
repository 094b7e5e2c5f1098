package widget

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestArrivalOrder holds arrivalOrder (core/standin/heapsort) to what it replaces:
// slices.SortStableFunc of the indices by cmp.Compare of the times.
func TestArrivalOrder(t *testing.T) {
	stable := func(times []float64) []int {
		order := make([]int, len(times))
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(i, j int) int { return cmp.Compare(times[i], times[j]) })
		return order
	}
	r := rand.New(rand.NewPCG(1, 2))
	cases := [][]float64{nil, {1}, {2, 1}, {1, 1, 1}, {math.NaN(), 0, math.Inf(-1), math.NaN(), math.Copysign(0, -1), 0}}
	for n := 0; n < 300; n++ {
		times := make([]float64, r.IntN(200))
		for i := range times {
			switch r.IntN(4) {
			case 0:
				times[i] = float64(r.IntN(5)) // many ties
			case 1:
				times[i] = math.NaN()
			default:
				times[i] = r.NormFloat64()
			}
		}
		cases = append(cases, times)
	}
	for _, times := range cases {
		if got, want := arrivalOrder(times), stable(times); !slices.Equal(got, want) {
			t.Fatalf("arrivalOrder(%v) = %v, want %v", times, got, want)
		}
	}
}
