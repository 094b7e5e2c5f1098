// Package pyrand reproduces CPython's random.Random bit for bit: the
// Mersenne Twister MT19937 seeded from an integer exactly as CPython 3
// seeds it (random.seed(n) for an int n of any size and sign), random()
// built from two 32-bit outputs, and uniform(a, b).
//
// The same seed gives the same sequence of floats as
//
//	r = random.Random(seed); r.random(); r.uniform(a, b)
//
// in CPython 3 (checked against vectors CPython wrote, see
// core/pyrand/testdata/pyrand.py). A Random is not safe for concurrent use;
// it holds its own state, so two Randoms never share a sequence.
package pyrand

import "retrylab/core/standin/bigint"

const (
	n         = 624
	m         = 397
	matrixA   = 0x9908b0df
	upperMask = 0x80000000
	lowerMask = 0x7fffffff
)

// Random is one MT19937 generator. The zero Random is not usable: build it
// with New or NewInt64.
type Random struct {
	mt   [n]uint32
	mti  int       // the next word of mt to hand out; n: the state is used up
	pair [2]uint32 // Words' copy of a pair that straddles a refill
}

// New returns a generator seeded as CPython's random.Random(seed) for the
// int seed: the absolute value is split into 32-bit words, least
// significant first, and fed to init_by_array; zero (the zero Int) is the
// key [0]. There is no counterpart of CPython's None, which would use the
// OS entropy: this package is deterministic.
func New(seed bigint.Int) *Random {
	key := seed.Words() // |seed|, little-endian, no zero word at the top
	if len(key) == 0 {
		key = []uint32{0}
	}
	r := new(Random)
	r.initByArray(key)
	return r
}

// NewInt64 is New for a seed that fits in an int64.
func NewInt64(seed int64) *Random { return New(bigint.FromInt64(seed)) }

func (r *Random) initGenrand(s uint32) {
	r.mt[0] = s
	for i := 1; i < n; i++ {
		r.mt[i] = 1812433253*(r.mt[i-1]^(r.mt[i-1]>>30)) + uint32(i)
	}
	r.mti = n
}

func (r *Random) initByArray(key []uint32) {
	r.initGenrand(19650218)
	i, j := 1, 0
	k := n
	if len(key) > k {
		k = len(key)
	}
	for ; k > 0; k-- {
		r.mt[i] = (r.mt[i] ^ ((r.mt[i-1] ^ (r.mt[i-1] >> 30)) * 1664525)) + key[j] + uint32(j)
		i++
		j++
		if i >= n {
			r.mt[0] = r.mt[n-1]
			i = 1
		}
		if j >= len(key) {
			j = 0
		}
	}
	for k = n - 1; k > 0; k-- {
		r.mt[i] = (r.mt[i] ^ ((r.mt[i-1] ^ (r.mt[i-1] >> 30)) * 1566083941)) - uint32(i)
		i++
		if i >= n {
			r.mt[0] = r.mt[n-1]
			i = 1
		}
	}
	r.mt[0] = 0x80000000
}

// generate refills the state with the next 624 words.
func (r *Random) generate() {
	mt := r.mt[:]
	lo, hi := mt[:n-m+1], mt[m:] // mt[k] and mt[k+1] for k < n-m; mt[k+m]
	for k := 0; k < n-m; k++ {
		y := (lo[k] & upperMask) | (lo[k+1] & lowerMask)
		lo[k] = hi[k] ^ (y >> 1) ^ (-(y & 1) & matrixA)
	}
	a, b := mt[n-m:], mt[:m] // mt[k], mt[k+1] for n-m <= k < n-1; mt[k+m-n]
	for k := 0; k < m-1; k++ {
		y := (a[k] & upperMask) | (a[k+1] & lowerMask)
		a[k] = b[k] ^ (y >> 1) ^ (-(y & 1) & matrixA)
	}
	y := (mt[n-1] & upperMask) | (mt[0] & lowerMask)
	mt[n-1] = mt[m-1] ^ (y >> 1) ^ (-(y & 1) & matrixA)
	r.mti = 0
}

// Uint32 returns the next 32-bit output of MT19937 (CPython's
// genrand_uint32, as getrandbits(32) returns it).
func (r *Random) Uint32() uint32 {
	if r.mti >= n {
		r.generate()
	}
	y := r.mt[r.mti]
	r.mti++
	return temper(y)
}

func temper(y uint32) uint32 {
	y ^= y >> 11
	y ^= (y << 7) & 0x9d2c5680
	y ^= (y << 15) & 0xefc60000
	y ^= y >> 18
	return y
}

// Random returns the next float in [0, 1) with 53 random bits, as
// CPython's random(): a = Uint32()>>5, b = Uint32()>>6,
// (a·2^26 + b) / 2^53.
func (r *Random) Random() float64 {
	if i := r.mti; i >= 0 && i < n-1 { // both words at hand: the usual case
		r.mti = i + 2
		return Float53(Bits53(r.mt[i], r.mt[i+1]))
	}
	a, b := r.Uint32()>>5, r.Uint32()>>6
	return Float53(uint64(a)<<26 | uint64(b))
}

// Words advances r by k Random() values, 1 <= k <= max, and returns the
// 2k words of the state they are made of, untempered: value i is
// Float53(Bits53(w[2i], w[2i+1])). k is below max when the state runs
// out first (at most 312 values a call); max <= 0 returns nil and draws
// nothing. The slice is r's own state (or, for a pair that straddles a
// refill, a copy): read it before r's next call, never write it. It lets
// a caller use each value where it is made, without a buffer of floats
// (core/jitter's histogram).
func (r *Random) Words(max int) []uint32 {
	if max <= 0 {
		return nil
	}
	i := r.mti
	switch {
	case i >= n: // the state is used up
		r.generate()
		i = 0
	case i == n-1: // one word left (after an odd number of Uint32s)
		r.pair[0] = r.mt[n-1]
		r.generate()
		r.pair[1] = r.mt[0]
		r.mti = 1
		return r.pair[:]
	}
	k := min((n-i)/2, max)
	r.mti = i + 2*k
	return r.mt[i : i+2*k]
}

// Bits53 returns the integer k in [0, 2^53) of the value k/2^53 that the
// untempered state words w0, w1 make (Words): the top 27 bits of the
// first tempered word, then the top 26 of the second.
func Bits53(w0, w1 uint32) uint64 {
	return uint64(temper(w0)>>5)<<26 | uint64(temper(w1)>>6)
}

// Float53 returns k/2^53 for k in [0, 2^53): with k = Bits53(w0, w1), the
// value CPython's random() makes of those words. Both steps are exact (k
// has at most 53 bits), so this is C's (a·2^26 + b) · (1/2^53), rounded
// nowhere.
func Float53(k uint64) float64 { return float64(int64(k)) * 0x1p-53 }

// Fill sets dst[i] to successive Random() values: the same floats as
// len(dst) calls of Random, faster (one loop over the state words).
func (r *Random) Fill(dst []float64) {
	for len(dst) > 0 {
		w := r.Words(len(dst))
		out := dst[:len(w)/2]
		for i := range out {
			out[i] = Float53(Bits53(w[2*i], w[2*i+1]))
		}
		dst = dst[len(out):]
	}
}

// Uniform returns a + (b-a)·Random(), exactly as CPython's uniform(a, b)
// computes it: a float in [a, b] (b itself can appear through rounding);
// a > b is allowed and draws from [b, a].
func (r *Random) Uniform(a, b float64) float64 {
	// The explicit conversion forbids a fused multiply-add, which would
	// round once instead of twice and differ from CPython.
	return a + float64((b-a)*r.Random())
}
