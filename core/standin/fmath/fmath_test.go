package fmath

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/golden.txt (on amd64 only)")

// fn is one function of one argument checked by the tests: the portable
// ones of this package, their standard-library counterparts, and the
// standard-library functions the package comment calls portable.
type fn struct {
	name string
	f    func(float64) float64
	// std is the math function that fmath mirrors; nil for the entries
	// that are math functions already.
	std func(float64) float64
	// inputs returns the values the function is checked on.
	inputs func() []float64
}

func lgamma(x float64) float64 { v, _ := Lgamma(x); return v }

func stdLgamma(x float64) float64 { v, _ := math.Lgamma(x); return v }

// powInt is math.Pow with an integer exponent, as core/retry uses it (q^n):
// the argument encodes q = frac(|x|) and n = int(|x|) mod 4096.
func powInt(x float64) float64 {
	i, f := math.Modf(math.Abs(x))
	return math.Pow(f, math.Mod(i, 4096)) // no int conversion: out of range, it is GOARCH-specific

}

var fns = []fn{
	{"Exp", Exp, math.Exp, expInputs},
	{"Log", Log, math.Log, logInputs},
	{"Log10", Log10, math.Log10, logInputs},
	{"Lgamma", lgamma, stdLgamma, lgammaInputs},
	{"math.Log1p", math.Log1p, nil, log1pInputs},
	{"math.Expm1", math.Expm1, nil, expInputs},
	{"math.Sqrt", math.Sqrt, nil, logInputs},
	{"math.PowInt", powInt, nil, powInputs},
}

// edges are the special and boundary values every function is checked on.
func edges() []float64 {
	const (
		overflow  = 7.09782712893383973096e+02
		underflow = -7.45133219101941108420e+02
		nearZero  = 1.0 / (1 << 28)
	)
	v := []float64{
		0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(),
		1, -1, 0.5, 2, 10, 100, math.E, math.Ln2, math.Sqrt2 / 2, math.Pi,
		math.SmallestNonzeroFloat64, 2 * math.SmallestNonzeroFloat64,
		math.Float64frombits(0x000fffffffffffff), // largest subnormal
		0x1p-1022, math.MaxFloat64, 1e-300, 1e300, 1e-320, 1e-10, 1e10,
		overflow, underflow, nearZero, -nearZero, 2 * nearZero,
		-708.3964185322641, -708.4, -709, -744, -745, 709, 709.7, 710,
		1e-15, 1 + 0x1p-52, 1 - 0x1p-53, 0x1p52, 0x1p53, 4503599627370497,
		1.4616321449683622, 2.5, 3, 7.5, 8, 171, 172, 1e17, 0x1p58, 1e306,
	}
	out := make([]float64, 0, 3*len(v))
	for _, x := range v {
		out = append(out, x, -x)
		if !math.IsInf(x, 0) && !math.IsNaN(x) {
			out = append(out, math.Nextafter(x, math.Inf(1)), math.Nextafter(x, math.Inf(-1)))
		}
	}
	return out
}

// anyBits is a float64 with uniformly random bits: every exponent,
// subnormals, infinities and NaNs.
func anyBits(r *rand.Rand) float64 { return math.Float64frombits(r.Uint64()) }

// randomInputs returns edges() and n values from gen, seeded by seed.
func randomInputs(seed uint64, n int, gen func(r *rand.Rand) float64) []float64 {
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	v := edges()
	for range n {
		v = append(v, gen(r))
	}
	return v
}

const nRandom = 150

func expInputs() []float64 {
	return randomInputs(1, nRandom, func(r *rand.Rand) float64 {
		switch r.IntN(4) {
		case 0:
			return anyBits(r)
		case 1:
			return -746 + 1457*r.Float64() // the whole finite range
		case 2:
			return (r.Float64() - 0.5) * 1e-6 // near 0
		default:
			return -40 + 41*r.Float64() // tails of probabilities
		}
	})
}

func logInputs() []float64 {
	return randomInputs(2, nRandom, func(r *rand.Rand) float64 {
		switch r.IntN(4) {
		case 0:
			return anyBits(r)
		case 1:
			return math.Abs(anyBits(r))
		case 2:
			return 1 + (r.Float64()-0.5)*1e-3 // near 1
		default:
			return r.Float64() // probabilities
		}
	})
}

func lgammaInputs() []float64 {
	return randomInputs(3, nRandom, func(r *rand.Rand) float64 {
		switch r.IntN(4) {
		case 0:
			return anyBits(r)
		case 1:
			return float64(1 + r.IntN(200001)) // n+1 as core/crowd uses it
		case 2:
			return 10 * r.Float64()
		default:
			return -10 * r.Float64()
		}
	})
}

func log1pInputs() []float64 {
	return randomInputs(4, nRandom, func(r *rand.Rand) float64 {
		switch r.IntN(3) {
		case 0:
			return anyBits(r)
		case 1:
			return -r.Float64()
		default:
			return (r.Float64() - 0.5) * 1e-9
		}
	})
}

func powInputs() []float64 {
	return randomInputs(5, nRandom, func(r *rand.Rand) float64 {
		return float64(r.IntN(4096)) + r.Float64()
	})
}

// sameBits reports whether a and b are the same float64, counting every
// NaN as equal (a NaN's payload is not part of the contract).
func sameBits(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
}

// ulps is the distance between a and b in units in the last place.
func ulps(a, b float64) uint64 {
	if math.Signbit(a) != math.Signbit(b) {
		return math.Float64bits(math.Abs(a)) + math.Float64bits(math.Abs(b))
	}
	x, y := math.Float64bits(math.Abs(a)), math.Float64bits(math.Abs(b))
	if x > y {
		return x - y
	}
	return y - x
}

// pureGoMath reports whether the standard library runs its pure-Go Exp
// and Log on this GOARCH (no assembly: see exp_asm.go and log_asm.go in
// $GOROOT/src/math), so math.Exp and math.Log are the reference fmath must
// equal bit for bit.
func pureGoMath() bool {
	switch runtime.GOARCH {
	case "amd64", "arm64", "loong64", "s390x":
		return false
	}
	return true
}

// TestPureGoReference: where the standard library runs its pure-Go code
// (wasm, 386, …), fmath equals it bit for bit. On amd64 the same fact is
// checked through the cross-architecture golden file (TestCrossArchGolden).
func TestPureGoReference(t *testing.T) {
	if !pureGoMath() {
		t.Skipf("math.Exp is assembly on %s; run GOOS=js GOARCH=wasm or GOARCH=386 to compare with the pure-Go code", runtime.GOARCH)
	}
	for _, c := range fns {
		if c.std == nil {
			continue
		}
		for _, x := range c.inputs() {
			if got, want := c.f(x), c.std(x); !sameBits(got, want) {
				t.Errorf("%s(%v): fmath %v (%#016x), math %v (%#016x)", c.name, x, got, math.Float64bits(got), want, math.Float64bits(want))
			}
		}
	}
}

// TestNearStd: on every GOARCH, Exp, Log and Log10 are within 1 ulp of
// the math package (assembly or not), and Lgamma within 1e-15 relative
// (its result goes through Log and can be near 0).
func TestNearStd(t *testing.T) {
	for _, c := range fns {
		if c.std == nil {
			continue
		}
		for _, x := range c.inputs() {
			if asmWrong(c.name, x) {
				continue
			}
			got, want := c.f(x), c.std(x)
			if math.IsNaN(got) || math.IsNaN(want) {
				if math.IsNaN(got) != math.IsNaN(want) {
					t.Errorf("%s(%v) = %v, math says %v", c.name, x, got, want)
				}
				continue
			}
			if c.name == "Lgamma" {
				if math.Abs(got-want) > 1e-15*max(1, math.Abs(want)) && got != want {
					t.Errorf("%s(%v) = %v, math says %v", c.name, x, got, want)
				}
				continue
			}
			if d := ulps(got, want); d > 1 {
				t.Errorf("%s(%v) = %v, math says %v: %d ulps apart", c.name, x, got, want, d)
			}
		}
	}
}

// asmWrong reports the inputs where the amd64 assembly of math.Exp and
// math.Log is far from the true value, so TestNearStd cannot use it as a
// reference there (TestKnownValues checks fmath on them): math.Exp
// overflows to +Inf from x ≈ 709.436 instead of 709.78 (go.dev/issue/14932
// documents "very large values overflow"), and math.Log of a subnormal x
// returns about -709.09 whatever x (log(5e-324) is -744.44), which
// Log10 and Lgamma inherit.
func asmWrong(name string, x float64) bool {
	if runtime.GOARCH != "amd64" {
		return false
	}
	switch name {
	case "Exp":
		return x > 709.43 && x <= 7.09782712893383973096e+02
	case "Log", "Log10", "Lgamma":
		return x != 0 && math.Abs(x) < 0x1p-1022
	}
	return false
}

// TestKnownValues checks fmath where the amd64 assembly is wrong, against
// values computed independently (Python's mpmath to 30 digits, rounded).
func TestKnownValues(t *testing.T) {
	tests := []struct {
		name string
		f    func(float64) float64
		x    float64
		want float64
	}{
		{"Log", Log, math.SmallestNonzeroFloat64, -744.4400719213812},
		{"Log", Log, 0x1p-1030, -713.9415959767437},
		{"Log", Log, 0x1p-1022, -708.3964185322641},
		{"Log10", Log10, math.SmallestNonzeroFloat64, -323.3062153431158},
		{"Exp", Exp, 709.7, 1.6549840276802644e+308},
		{"Exp", Exp, 709.782712893384, 1.7976931348622732e+308},
		{"Exp", Exp, -745, 5e-324},
		{"Exp", Exp, -740, 4.2e-322},
		{"Lgamma", lgamma, math.SmallestNonzeroFloat64, 744.4400719213812},
	}
	for _, tt := range tests {
		if got := tt.f(tt.x); ulps(got, tt.want) > 1 {
			t.Errorf("%s(%v) = %v, want %v", tt.name, tt.x, got, tt.want)
		}
	}
}

// TestDiffersFromAssembly shows why the package exists: on amd64 some
// inputs give a different last bit from math.Exp or math.Log. If this
// ever fails, the standard library changed and fmath may be unnecessary.
func TestDiffersFromAssembly(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("the assembly is amd64's")
	}
	diff := 0
	for _, x := range expInputs() {
		if !sameBits(Exp(x), math.Exp(x)) {
			diff++
		}
	}
	for _, x := range logInputs() {
		if !sameBits(Log(x), math.Log(x)) {
			diff++
		}
	}
	if diff == 0 {
		t.Error("fmath.Exp and Log equal math.Exp and Log on every input: has amd64 stopped using assembly?")
	}
	t.Logf("%d inputs differ in the last bit from the amd64 assembly", diff)
}

// nDigest is how many random-bit inputs per function go into the digest
// line of the golden file, on top of the listed inputs.
const nDigest = 1 << 15

// digest hashes the results of f on nDigest inputs of gen (NaNs counted
// as one value).
func digest(f func(float64) float64, seed uint64, gen func(r *rand.Rand) float64) string {
	r := rand.New(rand.NewPCG(seed, 0xd16e57))
	h := sha256.New()
	var b [16]byte
	for range nDigest {
		x := gen(r)
		y := f(x)
		if math.IsNaN(y) {
			y = math.NaN()
		}
		binary.LittleEndian.PutUint64(b[:8], math.Float64bits(x))
		binary.LittleEndian.PutUint64(b[8:], math.Float64bits(y))
		h.Write(b[:])
	}
	return hex.EncodeToString(h.Sum(nil))
}

func digestGen(name string) func(r *rand.Rand) float64 {
	switch name {
	case "Exp", "math.Expm1":
		return func(r *rand.Rand) float64 { return -746 + 1457*r.Float64() }
	case "Lgamma":
		return func(r *rand.Rand) float64 { return 200 * (r.Float64() - 0.25) }
	case "math.PowInt":
		return func(r *rand.Rand) float64 { return float64(r.IntN(4096)) + r.Float64() }
	case "math.Log1p":
		return func(r *rand.Rand) float64 { return -1 + 10*r.Float64() }
	}
	return func(r *rand.Rand) float64 { return math.Abs(anyBits(r)) }
}

// golden renders every function on its inputs: one line per input,
// "name xbits ybits" (ybits "nan" for any NaN), then one "name digest
// sha256" line.
func golden() []byte {
	var b strings.Builder
	b.WriteString("# fmath cross-architecture golden: written on amd64 by `go test ./core/standin/fmath -update`,\n")
	b.WriteString("# checked on every GOARCH (make wasmtest runs it under GOOS=js GOARCH=wasm).\n")
	b.WriteString("# name input-bits result-bits\n")
	for i, c := range fns {
		for _, x := range c.inputs() {
			y := c.f(x)
			ys := fmt.Sprintf("%016x", math.Float64bits(y))
			if math.IsNaN(y) {
				ys = "nan"
			}
			fmt.Fprintf(&b, "%s %016x %s\n", c.name, math.Float64bits(x), ys)
		}
		fmt.Fprintf(&b, "%s digest %s\n", c.name, digest(c.f, uint64(100+i), digestGen(c.name)))
	}
	return []byte(b.String())
}

// TestCrossArchGolden compares this GOARCH's results with the ones written
// on amd64. Under wasm, where math.Exp and math.Log are the pure-Go code,
// TestPureGoReference has also checked fmath against them: together they
// prove fmath on amd64 equals the pure-Go reference bit for bit.
func TestCrossArchGolden(t *testing.T) {
	path := filepath.Join("testdata", "golden.txt")
	got := golden()
	if *update {
		if runtime.GOARCH != "amd64" {
			t.Fatalf("the golden file is written on amd64, this is %s", runtime.GOARCH)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run on amd64 with -update to create it)", err)
	}
	g := bufio.NewScanner(strings.NewReader(string(got)))
	w := bufio.NewScanner(strings.NewReader(string(want)))
	line, bad := 0, 0
	for {
		gok, wok := g.Scan(), w.Scan()
		line++
		if !gok || !wok {
			if gok != wok {
				t.Fatalf("%s: line %d: one of the two ends early (regenerate with -update on amd64)", path, line)
			}
			break
		}
		if g.Text() != w.Text() {
			bad++
			if bad <= 20 {
				t.Errorf("%s:%d on %s:\n got %s\nwant %s", path, line, runtime.GOARCH, describe(g.Text()), describe(w.Text()))
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d lines differ", bad)
	}
}

// describe adds the decimal values to a golden line.
func describe(s string) string {
	f := strings.Fields(s)
	if len(f) != 3 || f[1] == "digest" {
		return s
	}
	out := s
	for _, h := range f[1:] {
		if u, err := strconv.ParseUint(h, 16, 64); err == nil {
			out += " " + strconv.FormatFloat(math.Float64frombits(u), 'g', -1, 64)
		}
	}
	return out
}

func TestGoldenUpToDate(t *testing.T) {
	// The inputs must include the special values in the package comment.
	for _, x := range []float64{0, math.Inf(1), math.Inf(-1), math.SmallestNonzeroFloat64, math.MaxFloat64} {
		found := false
		for _, y := range edges() {
			if sameBits(x, y) {
				found = true
			}
		}
		if !found {
			t.Errorf("edges() misses %v", x)
		}
	}
}

func ExampleExp() {
	fmt.Println(Exp(1), Exp(0), Exp(-800), Exp(math.Inf(1)))
	// Output: 2.718281828459045 1 0 +Inf
}

func ExampleLog() {
	fmt.Println(Log(math.E), Log(1), Log(0), Log(-1))
	// Output: 1 0 -Inf NaN
}
