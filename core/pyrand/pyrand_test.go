package pyrand

import (
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"testing"

	"retrylab/core/standin/bigint"
)

type vector struct {
	Seed    string       `json:"seed"`
	Uint32  []uint32     `json:"uint32"`
	Random  []float64    `json:"random"`
	Uniform [][3]float64 `json:"uniform"`
}

type longRun struct {
	Seed  string    `json:"seed"`
	Every []float64 `json:"every_97th_random"`
}

func loadVectors(t *testing.T) []vector {
	doc := loadDoc(t)
	if len(doc.Vectors) < 20 {
		t.Fatalf("only %d vectors", len(doc.Vectors))
	}
	return doc.Vectors
}

type vectorDoc struct {
	Python  string   `json:"python"`
	Vectors []vector `json:"vectors"`
	Long    longRun  `json:"long"`
}

func loadDoc(t *testing.T) vectorDoc {
	t.Helper()
	b, err := os.ReadFile("testdata/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc vectorDoc
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// TestLongRun crosses many state refills.
func TestLongRun(t *testing.T) {
	l := loadDoc(t).Long
	if len(l.Every) < 200 {
		t.Fatalf("long run has %d values", len(l.Every))
	}
	r := New(parseSeed(t, l.Seed))
	for i := 0; i < 97*len(l.Every); i++ {
		x := r.Random()
		if i%97 == 0 && x != l.Every[i/97] {
			t.Fatalf("random #%d = %v, CPython %v", i, x, l.Every[i/97])
		}
	}
}

// parseSeed reads a seed of the vectors (hexadecimal, as CPython wrote
// it) with math/big and converts it through its decimal text.
func parseSeed(t *testing.T, s string) bigint.Int {
	t.Helper()
	n, ok := new(big.Int).SetString(s, 0)
	if !ok {
		t.Fatalf("bad seed %q", s)
	}
	x, ok := bigint.Parse(n.String())
	if !ok {
		t.Fatalf("bigint.Parse(%s) refused", n)
	}
	return x
}

// TestCPythonVectors compares every output with what CPython wrote
// (core/pyrand/testdata/pyrand.py), bit for bit.
func TestCPythonVectors(t *testing.T) {
	for _, v := range loadVectors(t) {
		seed := parseSeed(t, v.Seed)
		name := v.Seed
		if len(name) > 24 {
			name = name[:24] + "…"
		}
		t.Run(name, func(t *testing.T) {
			r := New(seed)
			for i, want := range v.Uint32 {
				if got := r.Uint32(); got != want {
					t.Fatalf("Uint32 #%d = %d, CPython %d", i, got, want)
				}
			}
			r = New(seed)
			for i, want := range v.Random {
				if got := r.Random(); got != want {
					t.Fatalf("Random #%d = %v, CPython %v", i, got, want)
				}
			}
			r = New(seed)
			for i, u := range v.Uniform {
				if got := r.Uniform(u[0], u[1]); got != u[2] {
					t.Fatalf("Uniform(%v, %v) #%d = %v, CPython %v", u[0], u[1], i, got, u[2])
				}
			}
		})
	}
}

func TestZeroSeedsAgree(t *testing.T) {
	minusZero, _ := bigint.Parse("-0")
	a, b, c := New(bigint.Int{}), New(minusZero), NewInt64(0)
	for i := 0; i < 1000; i++ {
		x, y, z := a.Uint32(), b.Uint32(), c.Uint32()
		if x != y || y != z {
			t.Fatalf("output %d differs: %d %d %d", i, x, y, z)
		}
	}
}

func TestSignIgnored(t *testing.T) {
	a, b := NewInt64(-123456789), NewInt64(123456789)
	for i := 0; i < 10; i++ {
		if x, y := a.Random(), b.Random(); x != y {
			t.Fatalf("draw %d: %v != %v", i, x, y)
		}
	}
}

func TestNewDoesNotModifySeed(t *testing.T) {
	s := bigint.FromInt64(-77)
	New(s)
	if s.String() != "-77" {
		t.Fatalf("seed changed to %v", s)
	}
}

func TestRandomRange(t *testing.T) {
	r := NewInt64(1)
	for i := 0; i < 100000; i++ {
		if x := r.Random(); x < 0 || x >= 1 {
			t.Fatalf("Random() = %v outside [0, 1)", x)
		}
	}
}

func ExampleRandom_Uniform() {
	// random.Random(20261017).uniform(0, 100) in CPython 3.
	r := NewInt64(20261017)
	fmt.Println(r.Uniform(0, 100))
	// Output: 28.049229853103252
}

func BenchmarkRandom(b *testing.B) {
	r := NewInt64(20261017)
	var s float64
	for b.Loop() {
		s += r.Random()
	}
	_ = s
}

func BenchmarkNewHugeSeed(b *testing.B) {
	seed, _ := bigint.Parse(new(big.Int).Lsh(big.NewInt(1), 4096*3).String())
	for b.Loop() {
		New(seed)
	}
}

// TestFill: Fill gives the same floats as Random, whatever the chunk sizes
// and an odd word drawn in between.
func TestFill(t *testing.T) {
	for _, sizes := range [][]int{{1000}, {1, 311, 312, 313, 5}, {623, 2, 700}, {7, 0, 1}} {
		a, b := NewInt64(99), NewInt64(99)
		for k, size := range sizes {
			if k == 1 {
				a.Uint32()
				b.Uint32()
			}
			buf := make([]float64, size)
			a.Fill(buf)
			for i, x := range buf {
				if y := b.Random(); x != y {
					t.Fatalf("sizes %v: chunk %d value %d = %v, Random %v", sizes, k, i, x, y)
				}
			}
		}
	}
}

func BenchmarkFill(b *testing.B) {
	r := NewInt64(20261017)
	buf := make([]float64, 1024)
	for b.Loop() {
		r.Fill(buf)
	}
}

// TestWords: the words Words hands out make, pair by pair, the floats
// Random gives, whatever the sizes asked for (0 and less draw nothing),
// across refills and with an odd word drawn before (the pair that
// straddles a refill).
func TestWords(t *testing.T) {
	for _, tt := range []struct {
		name  string
		odd   int // Uint32 calls before, 1 leaves an odd word in the state
		sizes []int
	}{
		{"one call", 0, []int{1000}},
		{"around a refill", 0, []int{1, 311, 312, 313, 5}},
		{"nothing asked", 0, []int{0, -1, 7, 0}},
		{"odd word", 1, []int{311, 1, 1, 700}},
		{"odd word at the end", 623, []int{1, 1, 2, 400}},
		{"at the end", 624, []int{3, 312}},
	} {
		a, b := NewInt64(99), NewInt64(99)
		for range tt.odd {
			a.Uint32()
			b.Uint32()
		}
		for _, size := range tt.sizes {
			for left := size; ; {
				w := a.Words(left)
				if left <= 0 {
					if w != nil {
						t.Fatalf("%s: Words(%d) = %d words, want none", tt.name, left, len(w))
					}
					break
				}
				if len(w) < 2 || len(w)%2 != 0 || len(w) > 2*left {
					t.Fatalf("%s: Words(%d) = %d words", tt.name, left, len(w))
				}
				for i := 0; i < len(w); i += 2 {
					if x, y := Float53(Bits53(w[i], w[i+1])), b.Random(); x != y {
						t.Fatalf("%s: Words(%d) value %d = %v, Random %v", tt.name, left, i/2, x, y)
					}
				}
				if left -= len(w) / 2; left == 0 {
					break
				}
			}
		}
		if x, y := a.Random(), b.Random(); x != y {
			t.Fatalf("%s: next Random %v and %v", tt.name, x, y)
		}
	}
}

// TestFloat53: Float53(Bits53(w0, w1)) is CPython's (a·2^26 + b)/2^53 of
// the tempered words' top bits, at the ends of the range and between.
func TestFloat53(t *testing.T) {
	r := NewInt64(5)
	for i := 0; i < 10000; i++ {
		w0, w1 := r.Uint32(), r.Uint32()
		switch i {
		case 0:
			w0, w1 = 0, 0
		case 1:
			w0, w1 = ^uint32(0), ^uint32(0)
		}
		a, b := temper(w0)>>5, temper(w1)>>6
		want := (float64(a)*67108864.0 + float64(b)) * (1.0 / 9007199254740992.0)
		if k := Bits53(w0, w1); k >= 1<<53 || Float53(k) != want {
			t.Fatalf("words %#x %#x: Bits53 %#x, Float53 %v; C's formula %v", w0, w1, k, Float53(k), want)
		}
	}
	if Float53(1<<53-1) != 1-0x1p-53 || Float53(0) != 0 {
		t.Fatalf("Float53 at the ends: %v %v", Float53(1<<53-1), Float53(0))
	}
}
