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
	mt  [n]uint32
	mti int
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
	var a, b uint32
	if i := r.mti; i >= 0 && i < n-1 { // both words at hand: the usual case
		a, b = temper(r.mt[i])>>5, temper(r.mt[i+1])>>6
		r.mti = i + 2
	} else {
		a, b = r.Uint32()>>5, r.Uint32()>>6
	}
	// a·2^26 is exact (a < 2^27), so the sum is rounded once, as in C.
	return (float64(a)*67108864.0 + float64(b)) * (1.0 / 9007199254740992.0)
}

// Fill sets dst[i] to successive Random() values: the same floats as
// len(dst) calls of Random, faster (the tempering runs in one loop over
// the state).
func (r *Random) Fill(dst []float64) {
	for len(dst) > 0 {
		if r.mti < 0 || r.mti >= n-1 { // a refill is due (or one odd word is left)
			dst[0] = r.Random()
			dst = dst[1:]
			continue
		}
		m := min((n-r.mti)/2, len(dst))
		mt := r.mt[r.mti : r.mti+2*m]
		out := dst[:m]
		for i := range out {
			a := temper(mt[2*i]) >> 5
			b := temper(mt[2*i+1]) >> 6
			out[i] = (float64(a)*67108864.0 + float64(b)) * (1.0 / 9007199254740992.0)
		}
		r.mti += 2 * m
		dst = dst[m:]
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
