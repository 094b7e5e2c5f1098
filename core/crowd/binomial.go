// Package crowd computes how likely a crowded bin is when n clients each
// pick one of k bins uniformly and independently (the retries of one wave
// spread by full jitter, counted in fixed windows): the binomial tail of
// one bin, the union bound over the bins, the exact probability that some
// bin holds t or more, and the distribution of the largest bin.
//
// Every probability is computed so that tiny values keep their digits:
// the binomial terms with Loader's saddle-point expansion (the method of
// R's dbinom), the exact multinomial probabilities with positive
// polynomial arithmetic under an exact power-of-two scaling, and
// inclusion–exclusion where a complement would cancel. The functions are
// pure and deterministic.
package crowd

import (
	"math"

	"retrylab/core/standin/fmath"
)

const ln2pi = 1.8378770664093454835606594728112 // log(2π)

// stirlerr returns log(n!) - log(sqrt(2πn)·(n/e)^n), the error of
// Stirling's formula, for n >= 0 (0 for n = 0).
func stirlerr(n float64) float64 {
	const (
		s0 = 1.0 / 12
		s1 = 1.0 / 360
		s2 = 1.0 / 1260
		s3 = 1.0 / 1680
		s4 = 1.0 / 1188
	)
	if n <= 15 {
		if n == 0 {
			return 0
		}
		lg, _ := fmath.Lgamma(n + 1)
		return lg - (n+0.5)*fmath.Log(n) + n - ln2pi/2
	}
	nn := n * n
	switch {
	case n > 500:
		return (s0 - s1/nn) / n
	case n > 80:
		return (s0 - (s1-s2/nn)/nn) / n
	case n > 35:
		return (s0 - (s1-(s2-s3/nn)/nn)/nn) / n
	}
	return (s0 - (s1-(s2-(s3-s4/nn)/nn)/nn)/nn) / n
}

// bd0 returns x·log(x/np) + np - x, accurately also when x is close to
// np (Loader's deviance term).
func bd0(x, np float64) float64 {
	if math.Abs(x-np) < 0.1*(x+np) {
		v := (x - np) / (x + np)
		s := (x - np) * v
		ej := 2 * x * v
		v *= v
		for j := 1; j < 1000; j++ {
			ej *= v
			s1 := s + ej/float64(2*j+1)
			if s1 == s {
				return s1
			}
			s = s1
		}
		return s
	}
	return x*fmath.Log(x/np) + np - x
}

// LogBinomialPMF returns log P(X = x) for X ~ Binomial(n, p), with
// relative error of P near 1e-13 even when P is far below the smallest
// float64. p is in [0, 1]; x outside [0, n] gives -Inf.
func LogBinomialPMF(x, n int, p float64) float64 {
	return logPMF(x, n, p, 1-p)
}

func logPMF(xi, ni int, p, q float64) float64 {
	if xi < 0 || xi > ni {
		return math.Inf(-1)
	}
	if p == 0 {
		if xi == 0 {
			return 0
		}
		return math.Inf(-1)
	}
	if q == 0 {
		if xi == ni {
			return 0
		}
		return math.Inf(-1)
	}
	x, n := float64(xi), float64(ni)
	if xi == 0 {
		if ni == 0 {
			return 0
		}
		if p < 0.1 {
			return -bd0(n, n*q) - n*p
		}
		return n * fmath.Log(q)
	}
	if xi == ni {
		if q < 0.1 {
			return -bd0(n, n*p) - n*q
		}
		return n * fmath.Log(p)
	}
	lc := stirlerr(n) - stirlerr(x) - stirlerr(n-x) - bd0(x, n*p) - bd0(n-x, n*q)
	lf := ln2pi + fmath.Log(x) + math.Log1p(-x/n)
	return lc - 0.5*lf
}

// LogBinomialTail returns log P(X >= t) for X ~ Binomial(n, p), n >= 0,
// p in [0, 1]: 0 for t <= 0, -Inf for t > n. The tail keeps a relative
// error below 1e-9 (in practice near 1e-12) however small it is; its log
// stays finite where the tail itself underflows.
func LogBinomialTail(n int, p float64, t int) float64 {
	switch {
	case t <= 0:
		return 0
	case t > n || p <= 0:
		return math.Inf(-1)
	case p >= 1:
		return 0
	}
	q := 1 - p
	if float64(t) > float64(n)*p {
		// Upper terms decrease from t on: sum them relative to the first.
		r := p / q
		s, term := 1.0, 1.0
		for j := t; j < n; j++ {
			term *= float64(n-j) / float64(j+1) * r
			s += term
			if term < s*1e-17 {
				break
			}
		}
		return logPMF(t, n, p, q) + fmath.Log(s)
	}
	// t at or below the mean: the tail is large; take the complement of
	// the lower tail P(X <= t-1), whose terms decrease from t-1 down.
	r := q / p
	s, term := 1.0, 1.0
	for j := t - 1; j > 0; j-- {
		term *= float64(j) / float64(n-j+1) * r
		s += term
		if term < s*1e-17 {
			break
		}
	}
	lower := fmath.Exp(logPMF(t-1, n, p, q)) * s
	return math.Log1p(-lower)
}

// BinomialTail returns P(X >= t) for X ~ Binomial(n, p) (see
// LogBinomialTail): 1.30728e-5 for n = 100, p = 0.1, t = 25. It is 0 only
// where the tail is below the smallest float64.
func BinomialTail(n int, p float64, t int) float64 {
	return fmath.Exp(LogBinomialTail(n, p, t))
}

// UnionBound returns min(1, k·P(X >= t)), X ~ Binomial(n, 1/k): an upper
// bound on the probability that some of k bins receives t or more of n
// clients (1.30728e-4 for n = 100, k = 10, t = 25).
func UnionBound(n, k, t int) float64 {
	if k < 1 {
		return 0
	}
	return math.Min(1, float64(k)*BinomialTail(n, 1/float64(k), t))
}
