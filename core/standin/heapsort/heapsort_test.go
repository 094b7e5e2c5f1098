package heapsort

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestStrings(t *testing.T) {
	tests := []struct {
		name string
		in   []string
	}{
		{"nil", nil},
		{"empty", []string{}},
		{"one", []string{"a"}},
		{"two sorted", []string{"a", "b"}},
		{"two reversed", []string{"b", "a"}},
		{"equal", []string{"x", "x", "x"}},
		{"duplicates", []string{"q", "n", "q", "a", "n"}},
		{"prefixes", []string{"ab", "a", "abc", "", "b"}},
		{"bytes, not runes", []string{"é", "z", "\xff", "Z", "\x00"}},
		{"query keys", []string{"seed", "clients", "strategy", "cap_ms", "waves", "base_ms", "bins"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := slices.Clone(tt.in)
			Strings(got)
			want := slices.Clone(tt.in)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("Strings(%q) = %q, slices.Sort gives %q", tt.in, got, want)
			}
		})
	}
}

// TestSortRandom sorts random ints of every length up to 300 (many
// duplicates, sorted and reversed runs) and holds the result to
// slices.Sort; a stable order built from (value, position) is held to
// slices.SortStableFunc.
func TestSortRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := range 300 {
		for _, span := range []int{2, 10, 1000} {
			in := make([]int, n)
			for i := range in {
				in[i] = r.IntN(span)
			}
			switch n % 3 {
			case 1:
				slices.Sort(in[:n/2])
			case 2:
				slices.Sort(in)
				slices.Reverse(in)
			}
			got := slices.Clone(in)
			Sort(len(got), func(i, j int) bool { return got[i] < got[j] }, func(i, j int) { got[i], got[j] = got[j], got[i] })
			want := slices.Clone(in)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Fatalf("n=%d span=%d: Sort gives %v, slices.Sort %v", n, span, got, want)
			}

			type el struct{ v, at int }
			els := make([]el, n)
			for i, v := range in {
				els[i] = el{v, i}
			}
			stable := slices.Clone(els)
			Sort(len(stable), func(i, j int) bool {
				return stable[i].v < stable[j].v || stable[i].v == stable[j].v && stable[i].at < stable[j].at
			}, func(i, j int) { stable[i], stable[j] = stable[j], stable[i] })
			wantStable := slices.Clone(els)
			slices.SortStableFunc(wantStable, func(a, b el) int { return cmp.Compare(a.v, b.v) })
			if !slices.Equal(stable, wantStable) {
				t.Fatalf("n=%d span=%d: Sort by (value, position) gives %v, slices.SortStableFunc %v", n, span, stable, wantStable)
			}
		}
	}
}

// TestSortCalls checks the bound of the doc comment: at most 2n·log2(n)
// (+n) calls to less, on random and on already sorted input.
func TestSortCalls(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{2, 10, 100, 1000, 10000} {
		for _, sorted := range []bool{false, true} {
			s := make([]float64, n)
			for i := range s {
				s[i] = r.Float64()
			}
			if sorted {
				slices.Sort(s)
			}
			calls := 0
			Sort(n, func(i, j int) bool { calls++; return s[i] < s[j] }, func(i, j int) { s[i], s[j] = s[j], s[i] })
			if !slices.IsSorted(s) {
				t.Fatalf("n=%d: not sorted", n)
			}
			log2 := 0
			for 1<<log2 < n {
				log2++
			}
			if max := 2*n*log2 + n; calls > max {
				t.Errorf("n=%d sorted=%v: %d calls to less, want at most %d", n, sorted, calls, max)
			}
		}
	}
}

// FuzzStrings holds Strings to slices.Sort on the fields of any text
// (split at ',': empty fields and duplicates included).
func FuzzStrings(f *testing.F) {
	f.Add("b,a,c")
	f.Add("x,,x,é,\xff,")
	f.Fuzz(func(t *testing.T, text string) {
		got := strings.Split(text, ",")
		want := slices.Clone(got)
		Strings(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("Strings gives %q, slices.Sort %q", got, want)
		}
	})
}

func ExampleStrings() {
	keys := []string{"strategy", "seed", "clients"}
	Strings(keys)
	fmt.Println(keys)
	// Output: [clients seed strategy]
}

func BenchmarkStrings(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	in := make([]string, 20)
	for i := range in {
		in[i] = strconv.Itoa(r.IntN(1000))
	}
	s := make([]string, len(in))
	b.Run("heapsort", func(b *testing.B) {
		for b.Loop() {
			copy(s, in)
			Strings(s)
		}
	})
	b.Run("slices.Sort", func(b *testing.B) {
		for b.Loop() {
			copy(s, in)
			slices.Sort(s)
		}
	})
}

// sameFloats reports whether a and b hold the same values in the same
// places, NaN matching NaN.
func sameFloats(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return x == y || x != x && y != y })
}

func TestFloat64s(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	cases := [][]float64{nil, {1}, {2, 1}, {0, 0, 0}, {math.NaN(), 1, math.Inf(-1), math.NaN(), math.Inf(1), -1}}
	for n := 0; n < 500; n++ {
		s := make([]float64, r.IntN(300))
		for i := range s {
			switch r.IntN(5) {
			case 0:
				s[i] = float64(r.IntN(4)) // ties
			case 1:
				s[i] = math.NaN()
			default:
				s[i] = r.NormFloat64() * 1e3
			}
		}
		cases = append(cases, s)
	}
	for _, in := range cases {
		got, want := slices.Clone(in), slices.Clone(in)
		Float64s(got)
		slices.Sort(want)
		if !sameFloats(got, want) {
			t.Fatalf("Float64s(%v) = %v, slices.Sort gives %v", in, got, want)
		}
	}
}

func FuzzFloat64s(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0xf0, 0x3f, 0, 0, 0, 0, 0, 0, 0xf8, 0x7f})
	f.Fuzz(func(t *testing.T, raw []byte) {
		var in []float64
		for ; len(raw) >= 8; raw = raw[8:] {
			in = append(in, math.Float64frombits(binary.LittleEndian.Uint64(raw)))
		}
		got, want := slices.Clone(in), slices.Clone(in)
		Float64s(got)
		slices.Sort(want)
		// equal values may sit in another order: -0 and +0 (compare
		// equal), NaNs of other bits (sameFloats matches any NaN)
		if !sameFloats(got, want) {
			t.Errorf("Float64s gives %v, slices.Sort %v", got, want)
		}
	})
}

func BenchmarkFloat64s(b *testing.B) {
	r := rand.New(rand.NewPCG(9, 10))
	in := make([]float64, 100_000)
	for i := range in {
		in[i] = r.ExpFloat64()
	}
	s := make([]float64, len(in))
	b.Run("heapsort", func(b *testing.B) {
		for b.Loop() {
			copy(s, in)
			Float64s(s)
		}
	})
	b.Run("slices.Sort", func(b *testing.B) {
		for b.Loop() {
			copy(s, in)
			slices.Sort(s)
		}
	})
}
