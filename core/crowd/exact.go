package crowd

import (
	"errors"
	"math"
	"strconv"

	"retrylab/core/standin/errwrap"
	"retrylab/core/standin/fmath"
)

// ErrTooLarge is returned (wrapped) when a computation would need more
// than the work it was allowed.
var ErrTooLarge = errors.New("crowd: too much work")

// DefaultMaxWork is a work bound (in multiply-adds) that answers in well
// under a second on one core: it admits n = 2000 clients in k = 100 bins.
const DefaultMaxWork = 3e8

// badSize is the error for n < 1 or k < 1.
func badSize(n, k int) error {
	return errors.New("crowd: need n >= 1 and k >= 1, got n=" + strconv.Itoa(n) + " k=" + strconv.Itoa(k))
}

// g3 formats x as fmt's %.3g does.
func g3(x float64) string { return strconv.FormatFloat(x, 'g', 3, 64) }

// poly is exp(logScale)·Σ c[j]·y^j, with max c = 1 or c empty (zero).
// Scaling is kept in powers of two, so normalizing is exact.
type poly struct {
	c        []float64
	logScale float64
}

// flush is the smallest coefficient kept, relative to the largest: it
// keeps the products clear of subnormal numbers, and what it drops is far
// below the precision of any result (see the package tests).
const flush = 0x1p-500

func (p *poly) normalize() {
	mx := 0.0
	for _, v := range p.c {
		if v > mx { // coefficients are finite and >= 0: no NaN, no -0 to order
			mx = v
		}
	}
	if mx == 0 {
		p.c = p.c[:0]
		return
	}
	_, e := math.Frexp(mx)
	s := math.Ldexp(1, -e)
	last := -1
	for i, v := range p.c {
		v *= s
		if v < flush {
			v = 0
		} else {
			last = i
		}
		p.c[i] = v
	}
	p.c = p.c[:last+1]
	p.logScale += float64(e) * math.Ln2
}

// mulCost is the number of multiply-adds of a product of lengths la, lb
// truncated to length d.
func mulCost(la, lb, d int) float64 {
	var w float64
	for i := 0; i < la && i < d; i++ {
		w += float64(min(lb, d-i))
	}
	return w
}

// mul returns a·b truncated to degree < d.
func mul(a, b poly, d int) poly {
	n := min(len(a.c)+len(b.c)-1, d)
	if len(a.c) == 0 || len(b.c) == 0 || n <= 0 {
		return poly{}
	}
	out := make([]float64, n)
	for i, ai := range a.c {
		if i >= n {
			break
		}
		if ai == 0 {
			continue
		}
		bj := b.c[:min(len(b.c), n-i)]
		o := out[i : i+len(bj)]
		for j, v := range bj {
			o[j] += ai * v
		}
	}
	p := poly{c: out, logScale: a.logScale + b.logScale}
	p.normalize()
	return p
}

// coef returns log [y^d](a·b), or -Inf when it is zero.
func coefOfProduct(a, b poly, d int) float64 {
	var s float64
	for i, ai := range a.c {
		if j := d - i; j >= 0 && j < len(b.c) {
			s += ai * b.c[j]
		}
	}
	return a.logScale + b.logScale + fmath.Log(s)
}

// terms memoizes, for one μ, the logarithms that ExactAnyBin needs again
// and again: log(μ^j/j!) and log j!. MaxDistribution asks for dozens of
// thresholds at the same μ; each value is computed once, by the same
// function as without the memo, so results are the same to the bit. The
// zero terms is not usable: make one with newTerms.
type terms struct {
	mu        float64
	logc, lgf []float64 // NaN: not yet computed
}

func newTerms(mu float64, n int) *terms {
	tm := &terms{mu: mu, logc: make([]float64, n+1), lgf: make([]float64, n+1)}
	for i := range tm.logc {
		tm.logc[i], tm.lgf[i] = math.NaN(), math.NaN()
	}
	return tm
}

// logCoef returns log(μ^j/j!), j in [0, n]. μ^j/j! = e^μ·P(Poisson(μ) = j);
// Loader's form of the Poisson term keeps each coefficient to a few ulps
// where j·log μ - log j! would lose digits to cancellation for large j.
func (tm *terms) logCoef(j int) float64 {
	v := tm.logc[j]
	if v != v {
		v = tm.mu + logPoisson(j, tm.mu)
		tm.logc[j] = v
	}
	return v
}

// logFact returns log j!, j in [0, n].
func (tm *terms) logFact(j int) float64 {
	v := tm.lgf[j]
	if v != v {
		v, _ = fmath.Lgamma(float64(j) + 1)
		tm.lgf[j] = v
	}
	return v
}

// expSeries returns Σ_{j in [lo, hi)} μ^j/j! y^j as a normalized poly,
// dropping the terms below flush·max; hi is at most n+1.
func expSeries(tm *terms, lo, hi int) poly {
	if hi <= lo {
		return poly{}
	}
	// the largest term is at j = floor(μ) clamped to [lo, hi)
	jm := min(max(int(tm.mu), lo), hi-1)
	mx := tm.logCoef(jm)
	c := make([]float64, hi)
	for j := lo; j < hi; j++ {
		c[j] = fmath.Exp(tm.logCoef(j) - mx)
	}
	p := poly{c: c, logScale: mx}
	p.normalize()
	return p
}

// powerCost estimates the work of powerCoef(a of length la, k, d).
func powerCost(la, k, d int) float64 {
	var w float64
	lr := la
	bits := 0
	for b := k; b > 1; b >>= 1 {
		bits++
	}
	for i := bits - 1; i >= 0; i-- {
		last := i == 0
		if last && k&1 == 0 {
			w += float64(min(lr, d)) // only one coefficient
			break
		}
		w += mulCost(lr, lr, d)
		lr = min(2*lr-1, d)
		if k>>uint(i)&1 == 1 {
			if last {
				w += float64(min(lr, la))
				break
			}
			w += mulCost(lr, la, d)
			lr = min(lr+la-1, d)
		}
	}
	return w
}

// powerCoef returns log [y^(d-1)] a^k, computing the powers truncated to
// degree < d by repeated squaring; only one coefficient of the last
// product is formed.
func powerCoef(a poly, k, d int) float64 {
	if k == 1 {
		if d-1 < len(a.c) && a.c[d-1] > 0 {
			return a.logScale + fmath.Log(a.c[d-1])
		}
		return math.Inf(-1)
	}
	bits := 0
	for b := k; b > 1; b >>= 1 {
		bits++
	}
	r := a
	for i := bits - 1; i >= 0; i-- {
		last := i == 0
		bit := k>>uint(i)&1 == 1
		if last && !bit {
			return coefOfProduct(r, r, d-1)
		}
		r = mul(r, r, d)
		if bit {
			if last {
				return coefOfProduct(r, a, d-1)
			}
			r = mul(r, a, d)
		}
	}
	return math.Inf(-1) // not reached: the last bit returns
}

// logNorm is log(n!/n^n) = stirlerr(n) + log(2πn)/2 - n, the factor that
// turns [y^n] of the series scaled by μ = n/k into a probability.
func logNorm(n int) float64 {
	x := float64(n)
	return stirlerr(x) + 0.5*(ln2pi+fmath.Log(x)) - x
}

// work estimates the multiply-adds of ExactAnyBin(n, k, t).
func work(n, k, t int) float64 {
	if trivial(n, k, t) {
		return 1
	}
	if UnionBound(n, k, t) >= ieThreshold {
		return powerCost(t, k, n+1)
	}
	// inclusion–exclusion: a few products of the short tail series, then
	// one pass over n per term.
	// Products of T^(m-1) (length about (m-1)·l) by T for m up to about
	// 8 (the terms fall like 0.005^m/m!), and per term one pass with a
	// log-gamma (about 20 multiply-adds) per coefficient.
	l := float64(tailLen(n, k, t))
	return 32*l*l + 800*l + 6*float64(n)
}

// tailTrim is the relative size below which the terms of the tail
// series are dropped in inclusion–exclusion. Past j = t the terms fall by
// at least r = μ/(t+1) < 1 each step, and so does the weight e^{(k-m)μy}
// gives them (it decreases in s because t > n/k), so what is dropped from
// P(m bins >= t) is below m·tailTrim/(1-r)^m of it; and these terms, for
// m >= 2, are themselves below the union bound (< 0.005) times the sum.
const tailTrim = 1e-25

// tailLen is the number of terms of the tail series kept.
func tailLen(n, k, t int) int {
	mu := float64(n) / float64(k)
	r := mu / float64(t+1)
	if r >= 1 {
		return n - t + 1
	}
	return min(n-t+1, int(math.Ceil(fmath.Log(tailTrim)/fmath.Log(r)))+1)
}

// ieThreshold is the union bound below which the exact probability is
// computed by inclusion–exclusion instead of as a complement.
const ieThreshold = 0.005

// trivial reports whether the answer is 0 or 1 by counting alone.
func trivial(n, k, t int) bool {
	return t <= 0 || t > n || k == 1 || (t-1)*k < n
}

// ExactAnyBin returns the probability that, when n >= 1 clients each pick
// one of k >= 1 bins uniformly and independently, some bin receives t or
// more of them. The result has relative error below 1e-6 (in practice
// near 1e-10) whenever it is at least 1e-15; it never exceeds UnionBound.
// When the work would exceed maxWork multiply-adds it returns an error
// wrapping ErrTooLarge without computing (Work tells in advance).
//
// Method: with μ = n/k, P(all bins < t) = n!/n^n·[y^n] A(y)^k where
// A = Σ_{j<t} μ^j y^j/j!, computed by repeated squaring of positive
// series truncated at degree n; when the union bound is at least 0.005 the
// answer is its complement (then at least 1-e^{-0.005}, so no digits are
// lost). Below, it is Σ_m (-1)^{m+1} C(k,m)·P(m given bins all >= t)
// with P(m bins >= t) = n!/n^n [y^n] T(y)^m·e^{(k-m)μy}, T the tail
// series Σ_{j>=t} μ^j y^j/j!: alternating terms that fall at least as
// fast as the union bound's powers, summed until they no longer matter.
func ExactAnyBin(n, k, t int, maxWork float64) (float64, error) {
	return exactAnyBin(n, k, t, maxWork, nil)
}

// exactAnyBin is ExactAnyBin with the memo tm of μ = n/k (nil: a new one).
func exactAnyBin(n, k, t int, maxWork float64, tm *terms) (float64, error) {
	if n < 1 || k < 1 {
		return 0, badSize(n, k)
	}
	switch {
	case t <= 0:
		return 1, nil
	case t > n:
		return 0, nil
	case k == 1 || (t-1)*k < n: // pigeonhole: some bin must reach t
		return 1, nil
	}
	if w := work(n, k, t); w > maxWork {
		return 0, errwrap.Detail(ErrTooLarge, "about "+g3(w)+" multiply-adds for n="+strconv.Itoa(n)+
			", k="+strconv.Itoa(k)+", t="+strconv.Itoa(t)+" (at most "+g3(maxWork)+")")
	}
	mu := float64(n) / float64(k)
	if tm == nil {
		tm = newTerms(mu, n)
	}
	if UnionBound(n, k, t) >= ieThreshold {
		a := expSeries(tm, 0, t)
		lp := logNorm(n) + powerCoef(a, k, n+1)
		return -math.Expm1(lp), nil
	}
	return inclusionExclusion(n, k, t, tm), nil
}

// inclusionExclusion sums (-1)^{m+1} C(k,m) P(m given bins >= t).
func inclusionExclusion(n, k, t int, memo *terms) float64 {
	mu := memo.mu
	tail := expSeries(memo, t, min(n+1, t+tailLen(n, k, t)))
	sum := float64(k) * BinomialTail(n, 1/float64(k), t)
	tm := tail
	lk, _ := fmath.Lgamma(float64(k) + 1)
	for m := 2; m <= k && m*t <= n && m <= 200; m++ {
		tm = mul(tm, tail, n+1)
		// log of P(m given bins >= t) = n!/n^n [y^n] T^m e^{(k-m)μy}
		rest := float64(k-m) * mu
		best := math.Inf(-1)
		logs := make([]float64, 0, len(tm.c))
		for s, c := range tm.c {
			if c == 0 {
				continue
			}
			d := n - s
			var le float64
			if rest == 0 {
				if d != 0 {
					continue
				}
			} else {
				le = float64(d)*fmath.Log(rest) - memo.logFact(d)
			}
			v := fmath.Log(c) + le
			logs = append(logs, v)
			if v > best { // v is finite: c > 0
				best = v
			}
		}
		if math.IsInf(best, -1) {
			break
		}
		var s float64
		for _, v := range logs {
			s += fmath.Exp(v - best)
		}
		lm1, _ := fmath.Lgamma(float64(m) + 1)
		lkm, _ := fmath.Lgamma(float64(k-m) + 1)
		term := fmath.Exp(lk - lm1 - lkm + logNorm(n) + tm.logScale + best + fmath.Log(s))
		if m%2 == 0 {
			sum -= term
		} else {
			sum += term
		}
		if term <= 1e-16*sum {
			break
		}
	}
	return sum
}

// Work returns the estimated multiply-adds of ExactAnyBin(n, k, t), to
// refuse a request before computing it.
func Work(n, k, t int) float64 {
	if n < 1 || k < 1 {
		return 0
	}
	return work(n, k, t)
}

// MaxDistribution returns P(max >= m) for m = 0, 1, …, last, where max is
// the largest of the k bin counts of n clients, and last is the first m
// whose probability is below 1e-15 (or n): the values beyond are smaller
// still. P(max >= m) is 1 up to ceil(n/k). For n = 100, k = 10 it gives
// P(max >= 14) ≈ 0.83 and P(max >= 25) ≈ 1.3e-4. The total work is
// bounded by maxWork (an error wrapping ErrTooLarge otherwise).
func MaxDistribution(n, k int, maxWork float64) ([]float64, error) {
	if n < 1 || k < 1 {
		return nil, badSize(n, k)
	}
	total, last := maxDistributionWork(n, k, maxWork)
	if total > maxWork {
		return nil, errwrap.Detail(ErrTooLarge, "the distribution of the largest bin for n="+strconv.Itoa(n)+
			", k="+strconv.Itoa(k)+" needs more than "+g3(maxWork)+" multiply-adds")
	}
	out := make([]float64, 0, last+1)
	tm := newTerms(float64(n)/float64(k), n)
	for m := 0; m <= last; m++ {
		p, err := exactAnyBin(n, k, m, math.Inf(1), tm)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
		if p < 1e-15 {
			break
		}
	}
	return out, nil
}

// MaxDistributionWork returns the estimated multiply-adds of
// MaxDistribution(n, k, limit): its total, or a number above limit as
// soon as the count passes it (then MaxDistribution refuses).
func MaxDistributionWork(n, k int, limit float64) float64 {
	if n < 1 || k < 1 {
		return 0
	}
	total, _ := maxDistributionWork(n, k, limit)
	return total
}

// maxDistributionWork sums the work of every m that MaxDistribution
// computes, stopping once the sum passes limit; last is the largest m it
// computes (n when no m has a negligible probability).
func maxDistributionWork(n, k int, limit float64) (total float64, last int) {
	last = n
	for m := 0; m <= n; m++ {
		if trivial(n, k, m) {
			continue
		}
		total += work(n, k, m)
		if total > limit {
			return total, last
		}
		if UnionBound(n, k, m) < 1e-15 {
			return total, m
		}
	}
	return total, last
}

// logPoisson returns log P(Y = j) for Y ~ Poisson(mu), mu > 0.
func logPoisson(j int, mu float64) float64 {
	if j == 0 {
		return -mu
	}
	x := float64(j)
	return -stirlerr(x) - bd0(x, mu) - 0.5*(ln2pi+fmath.Log(x))
}
