// Package fmath holds portable versions of the math functions whose
// standard-library result depends on the GOARCH: [Exp], [Log], [Log10] and
// [Lgamma] return the same bits on amd64, 386 and wasm (and, but for the
// FMA caveat below, on every architecture).
//
// On amd64, math.Exp and math.Log are assembly ($GOROOT/src/math/exp_amd64.s,
// log_amd64.s) and math.Log10 and math.Lgamma are built on math.Log; on
// GOARCH=wasm (the browser playground and the Cloudflare Worker) the same
// functions run the standard library's pure-Go code. Both are accurate to
// within 1 ulp but their last bits differ, so a number computed by the
// native server and by the Worker could print differently
// (1.4295263822214711e-8 against 1.429526382221471e-8). The functions here
// mirror the standard library's portable code (exp.go, log.go, log10.go and
// lgamma.go of Go 1.26, themselves from FreeBSD's msun), so that amd64 and
// wasm agree bit for bit; on wasm they equal math.Exp, math.Log,
// math.Log10 and math.Lgamma exactly. The Go and FreeBSD notices are kept
// in the files; LICENSE.golang is the Go license they refer to.
//
// Functions that are already the same pure-Go code on amd64 and wasm are
// not repeated: math.Log1p, math.Expm1, math.Sqrt (exact, IEEE 754),
// math.Floor, math.Ceil, math.Trunc, math.Min, math.Max, math.Frexp,
// math.Ldexp, and math.Pow with an integer exponent (repeated squaring; a
// fractional exponent goes through math.Exp and math.Log and is not
// portable). math.Hypot is assembly on amd64 and 386 and is not used by
// retrylab. The cross-architecture golden test of this package
// (testdata/golden.txt) checks those too.
//
// One caveat stays: the Go compiler may fuse x*y+z into one FMA
// instruction on arm64, ppc64le, riscv64 and s390x (never on amd64 at the
// default GOAMD64=v1, 386 or wasm), which changes the last bit there; the
// guarantee is for the architectures retrylab ships: amd64 and wasm. In
// lgamma, the reflection for negative x uses math.Sin and math.Cos, which
// are pure Go everywhere but s390x.
package fmath
