//go:build !standin_orig_sha256sum

// Package sha256sum computes SHA-256 as FIPS 180-4 defines it, in plain
// Go and in one call. It stands in for crypto/sha256, which links Go's
// FIPS 140 module, in the code the browser's module links: the idempotency
// key of core/canonjson (package core/standin). The texts
// hashed there are small (the calculator's payload is at most 16 KB), so
// speed does not matter; BenchmarkSum sets it beside crypto/sha256 for the
// record. Code that never runs in the browser should keep using
// crypto/sha256.
package sha256sum

import "math/bits"

// Size is the length of a digest in bytes.
const Size = 32

const blockSize = 64

// k holds the first 32 bits of the fractional parts of the cube roots of
// the first 64 primes (FIPS 180-4, 4.2.2).
var k = [64]uint32{
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
}

// Sum returns the SHA-256 digest of data.
func Sum(data []byte) [Size]byte {
	// Initial hash value: the first 32 bits of the fractional parts of the
	// square roots of the first 8 primes (FIPS 180-4, 5.3.3).
	h := [8]uint32{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19}

	n := len(data) - len(data)%blockSize
	for i := 0; i < n; i += blockSize {
		block(&h, data[i:i+blockSize])
	}

	// Padding (5.1.1): the rest of the message, the bit 1, zeros, and the
	// length in bits as a 64-bit big-endian number, ending a block.
	var tail [2 * blockSize]byte
	rest := copy(tail[:], data[n:])
	tail[rest] = 0x80
	end := blockSize
	if rest+1+8 > blockSize {
		end = 2 * blockSize
	}
	bitLen := uint64(len(data)) << 3
	for i := range 8 {
		tail[end-1-i] = byte(bitLen >> (8 * i))
	}
	for i := 0; i < end; i += blockSize {
		block(&h, tail[i:i+blockSize])
	}

	var out [Size]byte
	for i, v := range h {
		out[4*i], out[4*i+1], out[4*i+2], out[4*i+3] = byte(v>>24), byte(v>>16), byte(v>>8), byte(v)
	}
	return out
}

// block processes one 64-byte block p (FIPS 180-4, 6.2.2).
func block(h *[8]uint32, p []byte) {
	var w [64]uint32
	_ = p[blockSize-1] // one bounds check
	for t := range 16 {
		w[t] = uint32(p[4*t])<<24 | uint32(p[4*t+1])<<16 | uint32(p[4*t+2])<<8 | uint32(p[4*t+3])
	}
	for t := 16; t < 64; t++ {
		v1, v2 := w[t-2], w[t-15]
		s1 := bits.RotateLeft32(v1, -17) ^ bits.RotateLeft32(v1, -19) ^ v1>>10
		s0 := bits.RotateLeft32(v2, -7) ^ bits.RotateLeft32(v2, -18) ^ v2>>3
		w[t] = s1 + w[t-7] + s0 + w[t-16]
	}
	a, b, c, d, e, f, g, hh := h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7]
	for t := range 64 {
		t1 := hh + (bits.RotateLeft32(e, -6) ^ bits.RotateLeft32(e, -11) ^ bits.RotateLeft32(e, -25)) +
			(e&f ^ ^e&g) + k[t] + w[t]
		t2 := (bits.RotateLeft32(a, -2) ^ bits.RotateLeft32(a, -13) ^ bits.RotateLeft32(a, -22)) +
			(a&b ^ a&c ^ b&c)
		hh, g, f, e, d, c, b, a = g, f, e, d+t1, c, b, a, t1+t2
	}
	h[0] += a
	h[1] += b
	h[2] += c
	h[3] += d
	h[4] += e
	h[5] += f
	h[6] += g
	h[7] += hh
}
