//go:build !standin_orig_bigint

// Package bigint holds integers of any size and sign with only what the
// calculators need: decimal text in and out, addition, multiplication,
// comparison, the 32-bit words of the magnitude (CPython's random.seed)
// and JSON numbers. It stands in for math/big in the code the browser's
// module links (package core/standin); code that never
// runs in the browser may use math/big.
//
// The numbers here are small (a seed has at most 4096 digits, a call count
// at most 21), so schoolbook algorithms are enough: Parse and String take
// time quadratic in the number of digits, Mul the product of the operands'
// lengths in words. Callers bound the sizes they accept.
package bigint

import (
	"math/bits"
	"strconv"
)

// Int is an integer of any size and sign. The zero Int is 0, ready to use.
//
// An Int is a value: no method changes its receiver or arguments, and the
// result of an operation may share memory with its operands, which is
// safe because that memory is never written again. Copy Ints freely;
// compare them with Cmp, not ==.
type Int struct {
	neg bool // x < 0; never set for 0
	abs nat  // |x|
}

// nat is a magnitude: 32-bit words, least significant first, with no
// zero word at the top (0 is the empty nat).
type nat []uint32

func (z nat) norm() nat {
	i := len(z)
	for i > 0 && z[i-1] == 0 {
		i--
	}
	return z[:i]
}

// FromInt64 returns v as an Int.
func FromInt64(v int64) Int {
	u := uint64(v)
	if v < 0 {
		u = -u
	}
	return Int{neg: v < 0, abs: nat{uint32(u), uint32(u >> 32)}.norm()}
}

// pow10 holds 10^n for n in [0, 9].
var pow10 = [10]uint32{1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9}

// Parse parses a decimal integer: an optional '+' or '-', then one or more
// ASCII digits '0'–'9' (leading zeros allowed, "-0" is 0). Nothing else is
// accepted: no spaces, no '_', no other base. ok is false for any other
// text. It accepts exactly the texts that math/big's SetString(s, 10)
// accepts, with the same value.
func Parse(s string) (x Int, ok bool) {
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if s == "" {
		return Int{}, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return Int{}, false
		}
	}
	z := make(nat, 0, len(s)/9+1) // 9 digits need less than 30 bits
	n := len(s) % 9
	if n == 0 {
		n = 9
	}
	for ; s != ""; s, n = s[n:], 9 {
		var chunk uint32
		for i := 0; i < n; i++ {
			chunk = chunk*10 + uint32(s[i]-'0')
		}
		z = z.mulAddWord(pow10[n], chunk)
	}
	z = z.norm()
	return Int{neg: neg && len(z) > 0, abs: z}, true
}

// mulAddWord sets z to z·m + a in place (appending a word if needed).
func (z nat) mulAddWord(m, a uint32) nat {
	carry := uint64(a)
	for i, w := range z {
		t := uint64(w)*uint64(m) + carry
		z[i], carry = uint32(t), t>>32
	}
	if carry != 0 {
		z = append(z, uint32(carry))
	}
	return z
}

// String returns x in decimal: a '-' for a negative x, then the digits
// without leading zeros ("0" for 0).
func (x Int) String() string { return string(x.appendDecimal(nil)) }

// MarshalJSON writes x as a JSON number, its decimal text (the bytes of
// math/big's (*Int).MarshalJSON).
func (x Int) MarshalJSON() ([]byte, error) { return x.appendDecimal(nil), nil }

// MarshalText writes x's decimal text (the bytes of math/big's
// (*Int).MarshalText).
func (x Int) MarshalText() ([]byte, error) { return x.appendDecimal(nil), nil }

func (x Int) appendDecimal(buf []byte) []byte {
	if len(x.abs) == 0 {
		return append(buf, '0')
	}
	if x.neg {
		buf = append(buf, '-')
	}
	// Divide a copy of |x| by 10^9 repeatedly: the remainders are the
	// 9-digit groups, least significant first.
	q := append(nat(nil), x.abs...)
	groups := make([]uint32, 0, len(q)*32/29+1)
	for len(q) > 0 {
		var r uint64
		for i := len(q) - 1; i >= 0; i-- {
			t := r<<32 | uint64(q[i])
			q[i], r = uint32(t/1e9), t%1e9
		}
		q = q.norm()
		groups = append(groups, uint32(r))
	}
	buf = strconv.AppendUint(buf, uint64(groups[len(groups)-1]), 10)
	for i := len(groups) - 2; i >= 0; i-- {
		g := groups[i]
		var d [9]byte
		for j := 8; j >= 0; j-- {
			d[j] = byte('0' + g%10)
			g /= 10
		}
		buf = append(buf, d[:]...)
	}
	return buf
}

// Sign returns -1, 0 or +1 as x is negative, zero or positive.
func (x Int) Sign() int {
	switch {
	case len(x.abs) == 0:
		return 0
	case x.neg:
		return -1
	}
	return 1
}

// Neg returns -x.
func (x Int) Neg() Int { return Int{neg: !x.neg && len(x.abs) > 0, abs: x.abs} }

// Abs returns |x|.
func (x Int) Abs() Int { return Int{abs: x.abs} }

// Cmp returns -1, 0 or +1 as x is less than, equal to or greater than y.
func (x Int) Cmp(y Int) int {
	switch {
	case x.neg && !y.neg:
		return -1
	case !x.neg && y.neg:
		return 1
	case x.neg:
		return cmpNat(y.abs, x.abs)
	}
	return cmpNat(x.abs, y.abs)
}

func cmpNat(a, b nat) int {
	if len(a) != len(b) {
		if len(a) < len(b) {
			return -1
		}
		return 1
	}
	for i := len(a) - 1; i >= 0; i-- {
		if a[i] != b[i] {
			if a[i] < b[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}

// Add returns x + y.
func (x Int) Add(y Int) Int {
	if x.neg == y.neg {
		return Int{neg: x.neg, abs: addNat(x.abs, y.abs)}
	}
	switch cmpNat(x.abs, y.abs) {
	case 1:
		return Int{neg: x.neg, abs: subNat(x.abs, y.abs)}
	case -1:
		return Int{neg: y.neg, abs: subNat(y.abs, x.abs)}
	}
	return Int{}
}

func addNat(a, b nat) nat {
	if len(a) < len(b) {
		a, b = b, a
	}
	z := make(nat, len(a)+1)
	var carry uint32
	for i := range a {
		var bi uint32
		if i < len(b) {
			bi = b[i]
		}
		z[i], carry = bits.Add32(a[i], bi, carry)
	}
	z[len(a)] = carry
	return z.norm()
}

// subNat returns a - b for a > b.
func subNat(a, b nat) nat {
	z := make(nat, len(a))
	var borrow uint32
	for i := range a {
		var bi uint32
		if i < len(b) {
			bi = b[i]
		}
		z[i], borrow = bits.Sub32(a[i], bi, borrow)
	}
	return z.norm()
}

// Mul returns x · y.
func (x Int) Mul(y Int) Int {
	if len(x.abs) == 0 || len(y.abs) == 0 {
		return Int{}
	}
	a, b := x.abs, y.abs
	z := make(nat, len(a)+len(b))
	for i, ai := range a {
		var carry uint64
		for j, bj := range b {
			// at most (2^32-1)^2 + 2·(2^32-1) = 2^64-1: no overflow
			t := uint64(ai)*uint64(bj) + uint64(z[i+j]) + carry
			z[i+j], carry = uint32(t), t>>32
		}
		z[i+len(b)] = uint32(carry)
	}
	return Int{neg: x.neg != y.neg, abs: z.norm()}
}

// Int64 returns x as an int64; ok is false, and v 0, when x is outside
// [math.MinInt64, math.MaxInt64].
func (x Int) Int64() (v int64, ok bool) {
	if len(x.abs) > 2 {
		return 0, false
	}
	var u uint64
	for i := len(x.abs) - 1; i >= 0; i-- {
		u = u<<32 | uint64(x.abs[i])
	}
	switch {
	case !x.neg && u <= 1<<63-1:
		return int64(u), true
	case x.neg && u <= 1<<63:
		return int64(-u), true
	}
	return 0, false
}

// Words returns the 32-bit words of |x|, least significant first, without
// zero words at the top: none for 0. The slice is the caller's.
func (x Int) Words() []uint32 { return append([]uint32(nil), x.abs...) }
