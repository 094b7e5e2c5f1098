package crowd

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"testing"
	"time"
)

func relErr(got, want float64) float64 {
	if want == 0 {
		return math.Abs(got)
	}
	return math.Abs(got-want) / math.Abs(want)
}

// ratTail is P(X >= t), X ~ Bin(n, p), in exact rationals.
func ratTail(n int, p *big.Rat, t int) *big.Rat {
	q := new(big.Rat).Sub(big.NewRat(1, 1), p)
	s := new(big.Rat)
	for j := max(t, 0); j <= n; j++ {
		term := new(big.Rat).SetInt(new(big.Int).Binomial(int64(n), int64(j)))
		term.Mul(term, ratPow(p, j))
		term.Mul(term, ratPow(q, n-j))
		s.Add(s, term)
	}
	return s
}

// ratTails returns P(X >= t) for t = 0..n+1.
func ratTails(n int, p *big.Rat) []*big.Rat {
	q := new(big.Rat).Sub(big.NewRat(1, 1), p)
	out := make([]*big.Rat, n+2)
	out[n+1] = new(big.Rat)
	pj := ratPow(p, n) // p^j q^(n-j), from j = n down
	for j := n; j >= 0; j-- {
		term := new(big.Rat).SetInt(new(big.Int).Binomial(int64(n), int64(j)))
		term.Mul(term, pj)
		out[j] = new(big.Rat).Add(out[j+1], term)
		if j > 0 {
			pj = new(big.Rat).Mul(pj, q)
			pj.Quo(pj, p)
		}
	}
	return out
}

func ratPow(x *big.Rat, e int) *big.Rat {
	r := big.NewRat(1, 1)
	for i := 0; i < e; i++ {
		r.Mul(r, x)
	}
	return r
}

func TestBinomialTailExact(t *testing.T) {
	for _, c := range []struct {
		n int
		p *big.Rat
	}{
		{100, big.NewRat(1, 10)}, {7, big.NewRat(1, 2)}, {300, big.NewRat(1, 3)},
		{500, big.NewRat(1, 1000)}, {300, big.NewRat(99, 100)}, {60, big.NewRat(1, 7)}, {1, big.NewRat(1, 5)},
	} {
		pf, _ := c.p.Float64()
		tails := ratTails(c.n, c.p)
		for tt := -1; tt <= c.n+1; tt++ {
			want, _ := tails[min(max(tt, 0), c.n+1)].Float64()
			got := BinomialTail(c.n, pf, tt)
			if want < 1e-300 {
				continue
			}
			// p itself is rounded to float64: allow for that (n·|Δp/p|).
			tol := 1e-9 + 4*float64(c.n)*1.2e-16*float64(c.n)
			if e := relErr(got, want); e > tol {
				t.Errorf("n=%d p=%v t=%d: %v, exact %v (rel %.2g)", c.n, c.p, tt, got, want, e)
			}
		}
	}
}

func TestBinomialTailTiny(t *testing.T) {
	// Tails far below the float64 range keep their logarithm: P(X = n) for
	// n = 5000, p = 0.1 is 10^-5000.
	lt := LogBinomialTail(5000, 0.1, 5000)
	if want := -5000 * math.Ln10; relErr(lt, want) > 1e-12 {
		t.Fatalf("log tail %v, want %v", lt, want)
	}
	// A tiny but representable tail, against exact rationals.
	want, _ := ratTail(400, big.NewRat(1, 20), 120).Float64()
	if got := BinomialTail(400, 0.05, 120); relErr(got, want) > 1e-9 {
		t.Fatalf("tail %v, exact %v", got, want)
	}
}

func TestArticle(t *testing.T) {
	tail := BinomialTail(100, 0.1, 25)
	ub := UnionBound(100, 10, 25)
	if relErr(tail, 1.307281743125037e-05) > 1e-12 || relErr(ub, 1.3072817431250368e-04) > 1e-12 {
		t.Fatalf("tail %v, union %v", tail, ub)
	}
	if s := fmt.Sprintf("%.6g %.6g", tail, ub); s != "1.30728e-05 0.000130728" {
		t.Fatalf("printed %s", s)
	}
	ex, err := ExactAnyBin(100, 10, 25, DefaultMaxWork)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := exactRat(100, 10, 25).Float64()
	if ex >= ub || relErr(ex, want) > 1e-9 {
		t.Fatalf("exact %v (rational %v), union %v", ex, want, ub)
	}
	d, err := MaxDistribution(100, 10, DefaultMaxWork)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(d[14]-0.83) > 0.01 {
		t.Fatalf("P(max >= 14) = %v, want about 0.83", d[14])
	}
}

// exactRat is P(some of k bins >= t) for n clients, in exact integers:
// 1 - (assignments with every bin below t)/k^n, where the assignments are
// counted bin by bin: ways[s+j] += ways[s]·C(s+j, j).
func exactRat(n, k, t int) *big.Rat {
	if t <= 0 {
		return big.NewRat(1, 1)
	}
	binom := make([][]*big.Int, n+1)
	for i := range binom {
		binom[i] = make([]*big.Int, i+1)
		for j := range binom[i] {
			binom[i][j] = new(big.Int).Binomial(int64(i), int64(j))
		}
	}
	ways := make([]*big.Int, n+1)
	for i := range ways {
		ways[i] = new(big.Int)
	}
	ways[0].SetInt64(1)
	tmp := new(big.Int)
	for b := 0; b < k; b++ {
		next := make([]*big.Int, n+1)
		for i := range next {
			next[i] = new(big.Int)
		}
		for s, w := range ways {
			if w.Sign() == 0 {
				continue
			}
			for j := 0; j < t && s+j <= n; j++ {
				next[s+j].Add(next[s+j], tmp.Mul(w, binom[s+j][j]))
			}
		}
		ways = next
	}
	kn := new(big.Int).Exp(big.NewInt(int64(k)), big.NewInt(int64(n)), nil)
	all := new(big.Rat).SetFrac(ways[n], kn)
	return new(big.Rat).Sub(big.NewRat(1, 1), all)
}

// bruteForce enumerates all k^n assignments.
func bruteForce(n, k, t int) float64 {
	counts := make([]int, k)
	hits, total := 0, 0
	var rec func(i int)
	rec = func(i int) {
		if i == n {
			total++
			for _, c := range counts {
				if c >= t {
					hits++
					return
				}
			}
			return
		}
		for b := 0; b < k; b++ {
			counts[b]++
			rec(i + 1)
			counts[b]--
		}
	}
	rec(0)
	return float64(hits) / float64(total)
}

func TestExactAgainstEnumeration(t *testing.T) {
	for n := 1; n <= 8; n++ {
		for k := 1; k <= 4; k++ {
			for tt := 0; tt <= n+1; tt++ {
				want := bruteForce(n, k, tt)
				r, _ := exactRat(n, k, tt).Float64()
				got, err := ExactAnyBin(n, k, tt, DefaultMaxWork)
				if err != nil {
					t.Fatal(err)
				}
				if relErr(r, want) > 1e-15 || relErr(got, want) > 1e-9 {
					t.Errorf("n=%d k=%d t=%d: got %v, rational %v, enumeration %v", n, k, tt, got, r, want)
				}
			}
		}
	}
}

// TestExactAgainstRationals covers both methods (complement and
// inclusion–exclusion), down to probabilities near 1e-40.
func TestExactAgainstRationals(t *testing.T) {
	for _, c := range []struct{ n, k int }{{20, 3}, {40, 10}, {100, 10}, {60, 7}, {60, 30}, {50, 2}} {
		lo, hi := 0, c.n+1
		if c.n > 50 { // the interesting range; the rest is 1 by pigeonhole or below 1e-40
			lo, hi = max(0, c.n/c.k-3), min(c.n+1, c.n/c.k+30)
		}
		for tt := lo; tt <= hi; tt++ {
			w, _ := exactRat(c.n, c.k, tt).Float64()
			got, err := ExactAnyBin(c.n, c.k, tt, DefaultMaxWork)
			if err != nil {
				t.Fatal(err)
			}
			ub := UnionBound(c.n, c.k, tt)
			if got > ub*(1+1e-9) { // equal when the events are disjoint (k = 2, 2t > n): allow rounding
				t.Errorf("n=%d k=%d t=%d: exact %v above union bound %v", c.n, c.k, tt, got, ub)
			}
			if w < 1e-40 {
				continue
			}
			if e := relErr(got, w); e > 1e-8 {
				t.Errorf("n=%d k=%d t=%d: %v, rational %v (rel %.2g)", c.n, c.k, tt, got, w, e)
			}
		}
	}
}

func TestMaxDistribution(t *testing.T) {
	for _, c := range []struct{ n, k int }{{100, 10}, {30, 4}, {7, 7}, {1, 1}, {500, 50}} {
		d, err := MaxDistribution(c.n, c.k, DefaultMaxWork)
		if err != nil {
			t.Fatal(err)
		}
		last := len(d) - 1
		if d[0] != 1 || (last < c.n && d[last] >= 1e-15) {
			t.Fatalf("n=%d k=%d: %v", c.n, c.k, d)
		}
		for m := 1; m < len(d); m++ {
			if d[m] > d[m-1] {
				t.Fatalf("n=%d k=%d: not decreasing at %d: %v", c.n, c.k, m, d)
			}
			if (m-1)*c.k < c.n && d[m] != 1 {
				t.Fatalf("n=%d k=%d: P(max >= %d) = %v, pigeonhole says 1", c.n, c.k, m, d[m])
			}
		}
	}
}

func TestLargeWithinBound(t *testing.T) {
	start := time.Now()
	p, err := ExactAnyBin(2000, 100, 40, DefaultMaxWork)
	if err != nil {
		t.Fatal(err)
	}
	ub := UnionBound(2000, 100, 40)
	if !(p > 0 && p <= ub) {
		t.Fatalf("p %v, union %v", p, ub)
	}
	t.Logf("n=2000 k=100 t=40: %v (union %v) in %v", p, ub, time.Since(start))
	if _, err := MaxDistribution(2000, 100, DefaultMaxWork); err != nil {
		t.Fatal(err)
	}
}

func TestTooLarge(t *testing.T) {
	_, err := ExactAnyBin(100000, 10000, 12, DefaultMaxWork)
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err %v, want ErrTooLarge", err)
	}
	if Work(100000, 10000, 12) <= DefaultMaxWork {
		t.Fatal("Work does not predict the refusal")
	}
	if _, err := MaxDistribution(100000, 10000, DefaultMaxWork); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err %v, want ErrTooLarge", err)
	}
}

// TestWorkEstimate: powerCost, the bound checked before computing, is
// never below the multiply-adds powerCoef really does (counted here on
// the same schedule with the actual, trimmed, lengths).
func TestWorkEstimate(t *testing.T) {
	for _, c := range []struct{ n, k, t int }{{2000, 100, 40}, {2000, 100, 25}, {100, 10, 14}, {500, 7, 90}, {3000, 1024, 4}, {50, 2, 30}, {10, 3, 5}} {
		d := c.n + 1
		a := expSeries(newTerms(float64(c.n)/float64(c.k), c.n), 0, c.t)
		var actual float64
		r := a
		bits := 0
		for b := c.k; b > 1; b >>= 1 {
			bits++
		}
		for i := bits - 1; i >= 0; i-- {
			last := i == 0
			bit := c.k>>uint(i)&1 == 1
			if last && !bit {
				actual += float64(len(r.c))
				break
			}
			actual += mulCost(len(r.c), len(r.c), d)
			r = mul(r, r, d)
			if bit {
				if last {
					actual += float64(len(a.c))
					break
				}
				actual += mulCost(len(r.c), len(a.c), d)
				r = mul(r, a, d)
			}
		}
		if est := powerCost(c.t, c.k, d); est < actual {
			t.Errorf("n=%d k=%d t=%d: estimate %v below the %v multiply-adds done", c.n, c.k, c.t, est, actual)
		}
	}
	if w := powerCost(40, 100, 2001); w > 2e7 {
		t.Fatalf("n=2000 k=100 t=40 costs %v", w)
	}
}

func ExampleUnionBound() {
	fmt.Printf("%.6g %.6g\n", BinomialTail(100, 0.1, 25), UnionBound(100, 10, 25))
	// Output: 1.30728e-05 0.000130728
}

func ExampleMaxDistribution() {
	d, _ := MaxDistribution(100, 10, DefaultMaxWork)
	fmt.Printf("P(max >= 14) = %.2f\n", d[14])
	// Output: P(max >= 14) = 0.83
}

func BenchmarkExact2000x100(b *testing.B) {
	for b.Loop() {
		if _, err := ExactAnyBin(2000, 100, 40, DefaultMaxWork); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMaxDistribution2000x100(b *testing.B) {
	for b.Loop() {
		if _, err := MaxDistribution(2000, 100, DefaultMaxWork); err != nil {
			b.Fatal(err)
		}
	}
}

// TestMethodsAgree checks, for large n where no rational reference is
// affordable, that the complement and inclusion–exclusion agree where
// both are accurate (union bound between 0.005 and 0.05).
func TestMethodsAgree(t *testing.T) {
	checked := 0
	for _, c := range []struct{ n, k int }{{2000, 100}, {20000, 100}, {5000, 1000}, {30000, 30}, {3000, 7}} {
		mu := float64(c.n) / float64(c.k)
		for tt := int(mu) + 1; tt <= c.n; tt++ {
			ub := UnionBound(c.n, c.k, tt)
			if ub > 0.05 {
				continue
			}
			if ub < 0.005 {
				break
			}
			if powerCost(tt, c.k, c.n+1) > DefaultMaxWork {
				break
			}
			a := expSeries(newTerms(mu, c.n), 0, tt)
			comp := -math.Expm1(logNorm(c.n) + powerCoef(a, c.k, c.n+1))
			ie := inclusionExclusion(c.n, c.k, tt, newTerms(mu, c.n))
			if e := relErr(comp, ie); e > 1e-8 {
				t.Errorf("n=%d k=%d t=%d: complement %v, inclusion–exclusion %v (rel %.2g)", c.n, c.k, tt, comp, ie, e)
			}
			checked++
		}
	}
	if checked < 5 {
		t.Fatalf("only %d cases checked", checked)
	}
}

// TestEveryThresholdN2000K100: every threshold of n = 2000, k = 100 is
// within the work bound, decreasing in t, and never above the union bound.
func TestEveryThresholdN2000K100(t *testing.T) {
	prev := 1.0
	for tt := 0; tt <= 2000; tt++ {
		p, err := ExactAnyBin(2000, 100, tt, DefaultMaxWork)
		if err != nil {
			t.Fatalf("t=%d: %v", tt, err)
		}
		if p > prev || p > UnionBound(2000, 100, tt)*(1+1e-9) || p < 0 {
			t.Fatalf("t=%d: %v after %v (union %v)", tt, p, prev, UnionBound(2000, 100, tt))
		}
		prev = p
	}
}

// TestDecimalReference compares with 40-digit decimal arithmetic
// (python3 core/crowd/testdata/crowd_decimal.py N K T ...), at sizes where
// exact rationals are too slow, on both methods.
func TestDecimalReference(t *testing.T) {
	for _, c := range []struct {
		n, k, t int
		want    float64
	}{
		{2000, 100, 40, 0.0048024030136689015350133519209818259994},
		{2000, 100, 30, 0.9020476118736475099481956884275852105739},
		{2000, 100, 55, 6.6596031529274680271661132321202e-9},
		{1000, 20, 70, 0.0681962333618344561040600504812163588714},
		{1000, 20, 90, 0.0000019487928298688833214879174448951641},
		{3000, 7, 480, 0.0305657846127312464981408687332034891435},
	} {
		got, err := ExactAnyBin(c.n, c.k, c.t, DefaultMaxWork)
		if err != nil {
			t.Fatal(err)
		}
		if e := relErr(got, c.want); e > 1e-10 {
			t.Errorf("n=%d k=%d t=%d: %v, decimal %v (rel %.2g)", c.n, c.k, c.t, got, c.want, e)
		}
	}
}

func ExampleExactAnyBin() {
	// 100 clients in 10 bins: some bin gets 25 or more slightly less often
	// than the union bound says.
	p, _ := ExactAnyBin(100, 10, 25, DefaultMaxWork)
	fmt.Printf("%.9g < %.9g\n", p, UnionBound(100, 10, 25))
	// Output: 0.000130728034 < 0.000130728174
}

// TestMaxDistributionMemo: MaxDistribution shares one memo of log terms
// across its thresholds; every value must be, to the bit, what
// ExactAnyBin computes for that threshold alone.
func TestMaxDistributionMemo(t *testing.T) {
	for _, c := range []struct{ n, k int }{{100, 10}, {1000, 100}, {57, 3}, {2000, 100}, {30, 30}} {
		d, err := MaxDistribution(c.n, c.k, DefaultMaxWork)
		if err != nil {
			t.Fatal(err)
		}
		for m, got := range d {
			want, err := ExactAnyBin(c.n, c.k, m, math.Inf(1))
			if err != nil {
				t.Fatal(err)
			}
			if math.Float64bits(got) != math.Float64bits(want) {
				t.Errorf("n=%d k=%d: P(max >= %d) = %v in the distribution, %v alone", c.n, c.k, m, got, want)
			}
		}
	}
}
