package calc

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"testing"
)

// TestInexactRefusals: a number a float64 cannot hold as written is
// refused, never rounded (issue 28): a seed past 2^53 (2^53+1 would be
// 2^53), a float that underflows (1e-400 would be 0, 1e-310 a subnormal
// with a few bits), a fraction that rounds to an integer; one that
// overflows is outside the range.
func TestInexactRefusals(t *testing.T) {
	checkRefusals(t, func(name string, pairs []string) error {
		_, err := New().Compute(name, pairsValues(pairs))
		return err
	}, []refusal{
		{"dispatch", []string{"seed=9007199254740993"}, "seed", CodeInexact},
		{"dispatch", []string{"seed=9007199254740993.0"}, "seed", CodeInexact},
		{"dispatch", []string{"seed=9007199254740992.5"}, "seed", CodeNotInteger},
		{"dispatch", []string{"seed=9007199254740994"}, "seed", CodeRange},
		{"dispatch", []string{"seed=7000000000000000.1"}, "seed", CodeNotInteger},
		{"attempts", []string{"n=1.0000000000000000001"}, "n", CodeNotInteger},
		{"attempts", []string{"q=1e-400"}, "q", CodeInexact},
		{"attempts", []string{"q=-1e-400"}, "q", CodeInexact},
		{"attempts", []string{"q=0.0000000001e-399"}, "q", CodeInexact},
		{"attempts", []string{"q=1e-310"}, "q", CodeInexact},
		{"attempts", []string{"q=1e400"}, "q", CodeRange},
		{"attempts", []string{"q=1e-99999999999999999999"}, "q", CodeInexact},
		{"amplification", []string{"attempts=3,1e-400"}, "attempts", CodeInexact},
	})
}

// TestExactAccepted: the values a float64 holds (zero in any spelling,
// 2^53 in any spelling, ordinary decimals) pass.
func TestExactAccepted(t *testing.T) {
	for _, tt := range []struct{ calc, pair, want string }{
		{"dispatch", "seed=9007199254740992", "9007199254740992"},
		{"dispatch", "seed=9.007199254740992e15", "9007199254740992"},
		{"dispatch", "seed=90071992547409920e-1", "9007199254740992"},
		{"dispatch", "seed=+0009007199254740991", "9007199254740991"},
		{"attempts", "q=0e-400", "0"},
		{"attempts", "q=-0.000", "-0"},
		{"attempts", "q=0.1", "0.1"},
		{"attempts", "q=2.2250738585072014e-308", ""},
	} {
		c, _ := New().Lookup(tt.calc)
		a, err := c.ParsePairs([]string{tt.pair})
		if err != nil {
			t.Errorf("%s %s: %v", tt.calc, tt.pair, err)
			continue
		}
		name, _, _ := strings.Cut(tt.pair, "=")
		if got := a.Query()[name]; tt.want != "" && (len(got) != 1 || got[0] != tt.want) {
			t.Errorf("%s %s: canonical %q, want %s", tt.calc, tt.pair, got, tt.want)
		}
	}
}

func TestDecimal(t *testing.T) {
	for in, want := range map[string]string{
		"-0.0120e3": "12 0", "100": "1 2", "0.001": "1 -3", "0": " 0", "+0.0e9": " 0",
		"1.5e-3": "15 -4", "9007199254740993": "9007199254740993 0",
	} {
		m, e := decimal(in)
		if got := fmt.Sprintf("%s %d", m, e); got != want {
			t.Errorf("decimal(%q) = %s, want %s", in, got, want)
		}
	}
}

// FuzzExact holds the numbers a parameter accepts to the exact value of
// their text (math/big, test-only): an accepted integer is exactly its
// text's value; an accepted float is zero only when its text is zero, and
// a nonzero one is a normal float64 (no underflow to 0 or a subnormal).
func FuzzExact(f *testing.F) {
	for _, s := range []string{"9007199254740993", "9007199254740992", "9.007199254740993e15", "1e-400", "-1e-400",
		"1e-310", "2.2250738585072014e-308", "0e-400", "0.000", "1e400", "12", "-0.5", "9007199254740992.5", "90071992547409920e-1"} {
		f.Add(s, true)
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, s string, integer bool) {
		if len(s) > 64 {
			return
		}
		p := &Param{Name: "x", Kind: Float}
		if integer {
			p.Kind = Int
		}
		v, code := p.number(s)
		if code != "" {
			return
		}
		// the text ParseFloat took: sign, digits, '.', exponent, or a name
		exact, ok := new(big.Rat).SetString(strings.TrimPrefix(s, "+"))
		if !ok || strings.ContainsAny(s, "nNiI") {
			return // a form big.Rat does not read (e.g. "1." or "Inf", refused anyway)
		}
		if e := strings.IndexAny(s, "eE"); e >= 0 {
			if n, err := strconv.Atoi(s[e+1:]); err != nil || n > 400 || n < -400 {
				return // big.Rat would build a huge number; decimal() has its own test
			}
		}
		got := new(big.Rat)
		got.SetFloat64(v)
		if integer && got.Cmp(exact) != 0 {
			t.Fatalf("Int %q accepted as %v, not its value %v", s, v, exact.RatString())
		}
		if !integer && exact.Sign() != 0 && (v == 0 || math.Abs(v) < smallestNormal) {
			t.Fatalf("Float %q (nonzero) accepted as %v", s, v)
		}
	})
}
