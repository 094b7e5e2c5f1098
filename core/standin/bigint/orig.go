//go:build standin_orig_bigint

// The original in the stand-in's place, for core/standin/bench.sh (what
// bigint saves); its tests read the stand-in's fields, so they run only
// against the stand-in.

package bigint

import (
	"math/big"
	"math/bits"
)

// Int is an immutable *big.Int; the zero Int (nil) is 0.
type Int struct{ x *big.Int }

func (x Int) b() *big.Int {
	if x.x == nil {
		return new(big.Int)
	}
	return x.x
}

// FromInt64 is big.NewInt.
func FromInt64(v int64) Int { return Int{big.NewInt(v)} }

// Parse is SetString(s, 10).
func Parse(s string) (Int, bool) {
	z, ok := new(big.Int).SetString(s, 10)
	if !ok {
		return Int{}, false
	}
	return Int{z}, true
}

// String is big.Int.String.
func (x Int) String() string { return x.b().String() }

// MarshalJSON is big.Int.MarshalJSON.
func (x Int) MarshalJSON() ([]byte, error) { return x.b().MarshalJSON() }

// MarshalText is big.Int.MarshalText.
func (x Int) MarshalText() ([]byte, error) { return x.b().MarshalText() }

// Sign is big.Int.Sign.
func (x Int) Sign() int { return x.b().Sign() }

// Neg is big.Int.Neg.
func (x Int) Neg() Int { return Int{new(big.Int).Neg(x.b())} }

// Abs is big.Int.Abs.
func (x Int) Abs() Int { return Int{new(big.Int).Abs(x.b())} }

// Cmp is big.Int.Cmp.
func (x Int) Cmp(y Int) int { return x.b().Cmp(y.b()) }

// Add is big.Int.Add.
func (x Int) Add(y Int) Int { return Int{new(big.Int).Add(x.b(), y.b())} }

// Mul is big.Int.Mul.
func (x Int) Mul(y Int) Int { return Int{new(big.Int).Mul(x.b(), y.b())} }

// Int64 is big.Int.Int64 when big.Int.IsInt64.
func (x Int) Int64() (int64, bool) {
	if !x.b().IsInt64() {
		return 0, false
	}
	return x.b().Int64(), true
}

// Words is the magnitude's 32-bit words, least significant first.
func (x Int) Words() []uint32 {
	var w []uint32
	for _, d := range x.b().Bits() {
		for i := 0; i < bits.UintSize; i += 32 {
			w = append(w, uint32(uint64(d)>>i))
		}
	}
	for len(w) > 0 && w[len(w)-1] == 0 {
		w = w[:len(w)-1]
	}
	return w
}
