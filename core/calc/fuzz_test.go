package calc

import (
	"errors"
	"math/big"
	"net/url"
	"strings"
	"testing"

	"retrylab/core/pyrand"
)

// FuzzParse feeds arbitrary values to every parameter of every calculator:
// parsing never panics, and every refusal is an *Error naming a parameter
// with a one-line message.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"", "0", "-1", "1e308", "1e309", "NaN", "-Inf", "0x10", "1_0", "3,3,3", ",", "3,,3",
		"  7 ", "9007199254740993", "1.5", "true", "full", "{\"a\":1}", "\xff", strings.Repeat("9", 5000)} {
		f.Add(s)
	}
	reg := New()
	f.Fuzz(func(t *testing.T, s string) {
		for _, c := range reg.List() {
			for _, p := range c.Params {
				_, err := c.Parse(url.Values{p.Name: {s}})
				if err == nil {
					continue
				}
				var e *Error
				if !errors.As(err, &e) {
					t.Fatalf("%s.%s(%q): %T %v", c.Name, p.Name, s, err, err)
				}
				if e.Param != p.Name || strings.ContainsAny(e.Message, "\n\r") || e.Message == "" {
					t.Fatalf("%s.%s(%q): %+v", c.Name, p.Name, s, e)
				}
			}
		}
	})
}

// FuzzSeed: a seed parses iff it is a decimal integer of at most 4096
// digits, and any parsed seed seeds a generator whose sign is ignored.
func FuzzSeed(f *testing.F) {
	for _, s := range []string{"0", "-0", "+1", "20261017", "-20261017", "18446744073709551616", "1e3", "1.0", "", "--1", " 5 ", "0x1f", "٣"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, ok := ParseBigInt(s)
		if !ok {
			return
		}
		trimmed := strings.TrimSpace(s)
		if want, ok2 := new(big.Int).SetString(trimmed, 10); !ok2 || want.String() != n.String() {
			t.Fatalf("ParseBigInt(%q) = %v", s, n)
		}
		a, b := pyrand.New(n), pyrand.New(n.Neg())
		for i := 0; i < 3; i++ {
			if x, y := a.Random(), b.Random(); x != y || x < 0 || x >= 1 {
				t.Fatalf("seed %v: %v vs %v", n, x, y)
			}
		}
	})
}

// FuzzRunArticle1 runs every article-1 calculator with one fuzzed value
// for one parameter: whatever parses must compute (or be refused with an
// *Error), never panic.
func FuzzRunArticle1(f *testing.F) {
	for _, s := range []string{"1", "0", "100", "3,3,3", "0.0001", "1e7", "30", "decorrelated", "-5", "99999"} {
		f.Add(uint8(0), s)
	}
	reg := New()
	var calcs []*Calculator
	for _, c := range reg.List() {
		if c.Article == 1 {
			calcs = append(calcs, c)
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, s string) {
		c := calcs[int(which)%len(calcs)]
		for _, p := range c.Params {
			if p.Name == "clients" && c.Name == "jitter" {
				continue // a million clients per exec would only slow the fuzzer
			}
			res, err := c.Compute(url.Values{p.Name: {s}})
			if err != nil {
				var e *Error
				if !errors.As(err, &e) {
					t.Fatalf("%s.%s(%q): %T %v", c.Name, p.Name, s, err, err)
				}
				continue
			}
			if res == nil {
				t.Fatalf("%s.%s(%q): nil result", c.Name, p.Name, s)
			}
		}
	})
}
