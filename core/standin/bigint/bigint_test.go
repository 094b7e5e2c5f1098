package bigint

import (
	"encoding/json"
	"math"
	"math/big"
	"slices"
	"strings"
	"testing"
)

// toBig converts x through its words, independently of Parse and String.
func toBig(x Int) *big.Int {
	z := new(big.Int)
	for i := len(x.abs) - 1; i >= 0; i-- {
		z.Lsh(z, 32)
		z.Or(z, big.NewInt(int64(x.abs[i])))
	}
	if x.neg {
		z.Neg(z)
	}
	return z
}

// fromBytes builds an Int from a big-endian magnitude, independently of
// Parse.
func fromBytes(b []byte, neg bool) Int {
	var z nat
	for i := len(b); i > 0; i -= 4 {
		var w uint32
		for j := max(0, i-4); j < i; j++ {
			w = w<<8 | uint32(b[j])
		}
		z = append(z, w)
	}
	z = z.norm()
	return Int{neg: neg && len(z) > 0, abs: z}
}

func bigFromBytes(b []byte, neg bool) *big.Int {
	z := new(big.Int).SetBytes(b)
	if neg {
		z.Neg(z)
	}
	return z
}

// bigWords are the 32-bit words of |z|, least significant first.
func bigWords(z *big.Int) []uint32 {
	var out []uint32
	for _, w := range new(big.Int).Abs(z).Bits() {
		for s := 0; s < bits64(); s += 32 {
			out = append(out, uint32(uint64(w)>>s))
		}
	}
	for len(out) > 0 && out[len(out)-1] == 0 {
		out = out[:len(out)-1]
	}
	return out
}

func bits64() int { return 32 << (^big.Word(0) >> 63) }

// check fails unless x is z: same value (through the words), same text,
// JSON, words, sign and int64.
func check(t *testing.T, what string, x Int, z *big.Int) {
	t.Helper()
	if len(x.abs) > 0 && x.abs[len(x.abs)-1] == 0 || x.neg && len(x.abs) == 0 {
		t.Fatalf("%s: not normalized: %+v", what, x)
	}
	if toBig(x).Cmp(z) != 0 {
		t.Fatalf("%s = %v, math/big %v", what, toBig(x), z)
	}
	if got, want := x.String(), z.String(); got != want {
		t.Fatalf("%s: String %q, math/big %q", what, got, want)
	}
	gj, _ := x.MarshalJSON()
	wj, _ := z.MarshalJSON()
	gt, _ := x.MarshalText()
	wt, _ := z.MarshalText()
	if string(gj) != string(wj) || string(gt) != string(wt) {
		t.Fatalf("%s: JSON %s text %s, math/big %s %s", what, gj, gt, wj, wt)
	}
	if got, want := x.Words(), bigWords(z); !slices.Equal(got, want) {
		t.Fatalf("%s: Words %x, math/big %x", what, got, want)
	}
	if x.Sign() != z.Sign() {
		t.Fatalf("%s: Sign %d, math/big %d", what, x.Sign(), z.Sign())
	}
	if v, ok := x.Int64(); ok != z.IsInt64() || ok && v != z.Int64() || !ok && v != 0 {
		t.Fatalf("%s: Int64 %d %v, math/big %d %v", what, v, ok, z.Int64(), z.IsInt64())
	}
}

func TestParse(t *testing.T) {
	tests := []struct {
		in   string
		want string // "" when refused
	}{
		{"0", "0"},
		{"-0", "0"},
		{"+0", "0"},
		{"000", "0"},
		{"7", "7"},
		{"+7", "7"},
		{"-7", "-7"},
		{"007", "7"},
		{"-0042", "-42"},
		{"20261017", "20261017"},
		{"999999999", "999999999"},
		{"1000000000", "1000000000"},
		{"4294967295", "4294967295"},
		{"4294967296", "4294967296"},
		{"18446744073709551616", "18446744073709551616"},
		{"-100000000000000000000", "-100000000000000000000"},
		{strings.Repeat("9", 4096), strings.Repeat("9", 4096)},
		{"", ""},
		{"+", ""},
		{"-", ""},
		{"--1", ""},
		{"+-1", ""},
		{"-+1", ""},
		{" 5", ""},
		{"5 ", ""},
		{"1_000", ""},
		{"0x1f", ""},
		{"1e3", ""},
		{"1.0", ""},
		{"1,000", ""},
		{"٣", ""}, // Arabic-Indic three: not an ASCII digit
		{"12a", ""},
	}
	for _, tt := range tests {
		x, ok := Parse(tt.in)
		if ok != (tt.want != "") {
			t.Errorf("Parse(%q) ok = %v", tt.in, ok)
			continue
		}
		if got := x.String(); ok && got != tt.want {
			t.Errorf("Parse(%q) = %s, want %s", tt.in, got, tt.want)
		}
		if !ok && x.Sign() != 0 {
			t.Errorf("Parse(%q) refused but returned %s", tt.in, x)
		}
		z, bok := new(big.Int).SetString(tt.in, 10)
		if bok != ok {
			t.Errorf("Parse(%q) ok = %v, math/big %v", tt.in, ok, bok)
		} else if ok {
			check(t, "Parse("+tt.in+")", x, z)
		}
	}
}

func TestZeroValue(t *testing.T) {
	var x Int
	check(t, "Int{}", x, new(big.Int))
	if x.Cmp(FromInt64(0)) != 0 || x.Neg().Sign() != 0 || x.Abs().Sign() != 0 || x.Words() != nil {
		t.Fatalf("zero Int: %+v", x)
	}
	if got := x.Add(FromInt64(5)).Mul(FromInt64(-2)).String(); got != "-10" {
		t.Fatalf("(0+5)·-2 = %s", got)
	}
}

func TestFromInt64(t *testing.T) {
	for _, v := range []int64{0, 1, -1, 42, math.MaxInt32, math.MinInt32, 1 << 32, -1 << 32, math.MaxInt64, math.MinInt64, math.MinInt64 + 1} {
		check(t, "FromInt64", FromInt64(v), big.NewInt(v))
	}
}

func TestInt64Bounds(t *testing.T) {
	tests := []struct {
		in string
		ok bool
	}{
		{"9223372036854775807", true},
		{"9223372036854775808", false},
		{"-9223372036854775808", true},
		{"-9223372036854775809", false},
		{"18446744073709551616", false},
	}
	for _, tt := range tests {
		x, _ := Parse(tt.in)
		v, ok := x.Int64()
		if ok != tt.ok || ok && FromInt64(v).String() != tt.in {
			t.Errorf("Parse(%s).Int64() = %d, %v; want ok %v", tt.in, v, ok, tt.ok)
		}
	}
}

func TestArithmetic(t *testing.T) {
	tests := []struct {
		x, y, sum, prod string
		cmp             int
	}{
		{"0", "0", "0", "0", 0},
		{"3", "9", "12", "27", -1},
		{"-3", "3", "0", "-9", -1},
		{"3", "-3", "0", "-9", 1},
		{"-5", "-7", "-12", "35", 1},
		{"4294967295", "1", "4294967296", "4294967295", 1},
		{"4294967296", "-1", "4294967295", "-4294967296", 1},
		{"-4294967296", "4294967297", "1", "-18446744078004518912", -1},
		{"18446744073709551615", "18446744073709551615", "36893488147419103230",
			"340282366920938463426481119284349108225", 0},
		{"10000000000000000000", "100", "10000000000000000100", "1000000000000000000000", 1},
	}
	for _, tt := range tests {
		x, _ := Parse(tt.x)
		y, _ := Parse(tt.y)
		if got := x.Add(y).String(); got != tt.sum {
			t.Errorf("%s + %s = %s, want %s", tt.x, tt.y, got, tt.sum)
		}
		if got := y.Add(x).String(); got != tt.sum {
			t.Errorf("%s + %s = %s, want %s", tt.y, tt.x, got, tt.sum)
		}
		if got := x.Mul(y).String(); got != tt.prod {
			t.Errorf("%s · %s = %s, want %s", tt.x, tt.y, got, tt.prod)
		}
		if got := x.Cmp(y); got != tt.cmp {
			t.Errorf("Cmp(%s, %s) = %d, want %d", tt.x, tt.y, got, tt.cmp)
		}
		if got := y.Cmp(x); got != -tt.cmp {
			t.Errorf("Cmp(%s, %s) = %d, want %d", tt.y, tt.x, got, -tt.cmp)
		}
	}
}

// TestOperandsUnchanged: operations never write their operands' words.
func TestOperandsUnchanged(t *testing.T) {
	x, _ := Parse("-123456789012345678901234567890")
	y, _ := Parse("987654321098765432109876543210")
	before := x.String() + " " + y.String()
	_ = x.Add(y).Add(x).Mul(y).Mul(x).Abs().Neg().Add(y.Neg())
	w := x.Words()
	w[0] = 0
	if after := x.String() + " " + y.String(); after != before {
		t.Fatalf("operands changed: %s, were %s", after, before)
	}
}

func TestWords(t *testing.T) {
	tests := []struct {
		in   string
		want []uint32
	}{
		{"0", nil},
		{"-1", []uint32{1}},
		{"4294967296", []uint32{0, 1}},
		{"-18446744073709551615", []uint32{0xffffffff, 0xffffffff}},
		{"20261017", []uint32{20261017}},
	}
	for _, tt := range tests {
		x, _ := Parse(tt.in)
		if got := x.Words(); !slices.Equal(got, tt.want) {
			t.Errorf("Words(%s) = %x, want %x", tt.in, got, tt.want)
		}
	}
}

// TestJSON: in a struct, as a value, in a slice and behind a pointer, an
// Int encodes as *big.Int does.
func TestJSON(t *testing.T) {
	type ours struct {
		A Int   `json:"a"`
		L []Int `json:"l"`
		P *Int  `json:"p"`
		N *Int  `json:"n"`
		M map[string]Int
	}
	type theirs struct {
		A *big.Int   `json:"a"`
		L []*big.Int `json:"l"`
		P *big.Int   `json:"p"`
		N *big.Int   `json:"n"`
		M map[string]*big.Int
	}
	x, _ := Parse("-340282366920938463463374607431768211456")
	y := FromInt64(27)
	got, err := json.Marshal(ours{A: x, L: []Int{y, {}, x}, P: &y, M: map[string]Int{"k": x}})
	if err != nil {
		t.Fatal(err)
	}
	bx, by := toBig(x), big.NewInt(27)
	want, _ := json.Marshal(theirs{A: bx, L: []*big.Int{by, new(big.Int), bx}, P: by, M: map[string]*big.Int{"k": bx}})
	if string(got) != string(want) {
		t.Fatalf("json.Marshal:\n got %s\nwant %s", got, want)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"0", "-0", "+1", "20261017", "-20261017", "18446744073709551616", "0001", "", "-", "--1", " 5", "1_0", "0x1f", "1e3", "٣",
		strings.Repeat("9", 100), "-" + strings.Repeat("1", 50)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		x, ok := Parse(s)
		z, bok := new(big.Int).SetString(s, 10)
		if ok != bok {
			t.Fatalf("Parse(%q) ok = %v, math/big %v", s, ok, bok)
		}
		if !ok {
			return
		}
		check(t, "Parse", x, z)
		if y, ok := Parse(x.String()); !ok || y.Cmp(x) != 0 {
			t.Fatalf("String(Parse(%q)) = %q does not parse back", s, x.String())
		}
	})
}

func FuzzArithmetic(f *testing.F) {
	f.Add([]byte{}, false, []byte{}, false)
	f.Add([]byte{3}, false, []byte{9}, true)
	f.Add([]byte{0xff, 0xff, 0xff, 0xff}, false, []byte{1}, false)
	f.Add([]byte{1, 0, 0, 0, 0}, true, []byte{1}, false)
	f.Add([]byte{0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, true, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, true)
	f.Fuzz(func(t *testing.T, a []byte, an bool, b []byte, bn bool) {
		if len(a) > 512 || len(b) > 512 {
			return
		}
		x, y := fromBytes(a, an), fromBytes(b, bn)
		bx, by := bigFromBytes(a, an), bigFromBytes(b, bn)
		check(t, "x", x, bx)
		check(t, "y", y, by)
		check(t, "x+y", x.Add(y), new(big.Int).Add(bx, by))
		check(t, "x·y", x.Mul(y), new(big.Int).Mul(bx, by))
		check(t, "-x", x.Neg(), new(big.Int).Neg(bx))
		check(t, "|y|", y.Abs(), new(big.Int).Abs(by))
		if got, want := x.Cmp(y), bx.Cmp(by); got != want {
			t.Fatalf("Cmp(%v, %v) = %d, math/big %d", bx, by, got, want)
		}
		check(t, "x", x, bx) // unchanged by the operations
	})
}

func BenchmarkParse4096(b *testing.B) {
	s := strings.Repeat("9876543210", 409) + "987654"
	for b.Loop() {
		Parse(s)
	}
}

func BenchmarkString4096(b *testing.B) {
	x, _ := Parse(strings.Repeat("9876543210", 409) + "987654")
	for b.Loop() {
		_ = x.String()
	}
}
