// Copyright 2009 The Go Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.
// (In retrylab, that LICENSE file is LICENSE.golang in this directory.)

package pcgrand

import (
	"math/bits"
	"math/rand/v2"
)

// Fill draws len(dst) values into dst: the next len(dst) values of
// Uint64, in order. The state stays in locals for the whole loop: in
// WebAssembly, where Uint64 is a call (bits.Mul64 is not one
// instruction there, so the compiler does not inline it), a loop of
// Fill draws about twice as fast as a loop of Uint64 (BenchmarkFill);
// core/timeouts draws a call's token gaps with it.
func (p *PCG) Fill(dst []uint64) {
	h, l := p.hi, p.lo
	for i := range dst {
		// state = state * mul + inc (Uint64)
		hi, lo := bits.Mul64(l, mulLo)
		hi += h*mulLo + l*mulHi
		lo, c := bits.Add64(lo, incLo, 0)
		hi, _ = bits.Add64(hi, incHi, c)
		h, l = hi, lo
		// DXSM
		hi ^= hi >> 32
		hi *= cheapMul
		hi ^= hi >> 48
		dst[i] = hi * (lo | 1)
	}
	p.hi, p.lo = h, l
}

// Skip moves p past its next n values (none if n <= 0), as n calls of
// Uint64 whose values are not needed: the state's step alone, without
// the output's mixing.
func (p *PCG) Skip(n int) {
	h, l := p.hi, p.lo
	for range max(0, n) {
		hi, lo := bits.Mul64(l, mulLo)
		hi += h*mulLo + l*mulHi
		lo, c := bits.Add64(lo, incLo, 0)
		hi, _ = bits.Add64(hi, incHi, c)
		h, l = hi, lo
	}
	p.hi, p.lo = h, l
}

// IntN is rand.Rand.IntN over p on a 64-bit platform (WebAssembly
// included): a value in [0, n) from one draw, or more in the rare case
// Lemire's method rejects one. It panics if n <= 0.
func (p *PCG) IntN(n int) int {
	if n <= 0 {
		panic("invalid argument to IntN")
	}
	u := uint64(n)
	if u&(u-1) == 0 { // a power of two: a mask
		return int(p.Uint64() & (u - 1))
	}
	hi, lo := bits.Mul64(p.Uint64(), u)
	if lo < u {
		thresh := -u % u
		for lo < thresh {
			hi, lo = bits.Mul64(p.Uint64(), u)
		}
	}
	return int(hi)
}

// FromRand returns a PCG in src's state: its next draws are src's.
func FromRand(src *rand.PCG) PCG {
	b, _ := src.AppendBinary(make([]byte, 0, 20)) // "pcg:", hi, lo (big-endian); never fails
	return PCG{hi: beUint64(b[4:]), lo: beUint64(b[12:])}
}

// Store puts p's state into dst: dst's next draws are p's.
func (p PCG) Store(dst *rand.PCG) {
	b := append([]byte("pcg:"), make([]byte, 16)...)
	for i := range 8 {
		b[4+i], b[12+i] = byte(p.hi>>(56-8*i)), byte(p.lo>>(56-8*i))
	}
	if err := dst.UnmarshalBinary(b); err != nil {
		panic(err) // the encoding above is rand.PCG's own
	}
}

// beUint64 is the big-endian uint64 of b[:8] (encoding/binary's
// BigEndian.Uint64, without linking that package into the modules).
func beUint64(b []byte) uint64 {
	var v uint64
	for _, c := range b[:8] {
		v = v<<8 | uint64(c)
	}
	return v
}
