package crowd

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestMessages pins every error message byte for byte (they were written
// with fmt; the package builds them with strconv so that the browser's
// module does not link fmt) and that the refusals of work still wrap
// ErrTooLarge.
func TestMessages(t *testing.T) {
	for _, c := range []struct {
		name    string
		err     error
		want    string
		tooMuch bool
	}{
		{"ExactAnyBin n=0", second(ExactAnyBin(0, 5, 3, DefaultMaxWork)), "crowd: need n >= 1 and k >= 1, got n=0 k=5", false},
		{"ExactAnyBin k=-2", second(ExactAnyBin(7, -2, 3, DefaultMaxWork)), "crowd: need n >= 1 and k >= 1, got n=7 k=-2", false},
		{"MaxDistribution n=-1", second(MaxDistribution(-1, 0, DefaultMaxWork)), "crowd: need n >= 1 and k >= 1, got n=-1 k=0", false},
		{"ExactAnyBin default bound", second(ExactAnyBin(100000, 10000, 12, DefaultMaxWork)),
			"crowd: too much work: about 1.01e+09 multiply-adds for n=100000, k=10000, t=12 (at most 3e+08)", true},
		{"ExactAnyBin bound 0.5", second(ExactAnyBin(100, 10, 14, 0.5)),
			"crowd: too much work: about 1.73e+03 multiply-adds for n=100, k=10, t=14 (at most 0.5)", true},
		{"ExactAnyBin bound 123456.7", second(ExactAnyBin(2000, 100, 40, 123456.7)),
			"crowd: too much work: about 2.93e+05 multiply-adds for n=2000, k=100, t=40 (at most 1.23e+05)", true},
		{"MaxDistribution default bound", second(MaxDistribution(100000, 10000, DefaultMaxWork)),
			"crowd: too much work: the distribution of the largest bin for n=100000, k=10000 needs more than 3e+08 multiply-adds", true},
		{"MaxDistribution bound 100", second(MaxDistribution(100, 10, 100)),
			"crowd: too much work: the distribution of the largest bin for n=100, k=10 needs more than 100 multiply-adds", true},
		{"MaxDistribution bound 1e-7", second(MaxDistribution(100, 10, 1e-7)),
			"crowd: too much work: the distribution of the largest bin for n=100, k=10 needs more than 1e-07 multiply-adds", true},
	} {
		if c.err == nil {
			t.Errorf("%s: no error, want %q", c.name, c.want)
			continue
		}
		if got := c.err.Error(); got != c.want {
			t.Errorf("%s:\n got  %q\n want %q", c.name, got, c.want)
		}
		if errors.Is(c.err, ErrTooLarge) != c.tooMuch {
			t.Errorf("%s: errors.Is(err, ErrTooLarge) = %v", c.name, !c.tooMuch)
		}
	}
}

func second[T any](_ T, err error) error { return err }

// TestMessagesFmt checks the refusals of work against fmt.Errorf with the
// formats they were written with (%.3g of the work and the bound, %d), for
// bounds of every magnitude below the work, so that nothing is computed.
func TestMessagesFmt(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	checked := 0
	for _, n := range []int{20, 100, 2000, 100000} {
		for _, k := range []int{2, 10, 100, 10000} {
			for _, th := range []int{3, 14, 40, 400} {
				w := Work(n, k, th)
				for range 20 {
					mw := w * math.Pow(10, -20*r.Float64()) * (1 - 1e-9) // in [w·1e-20, w)
					_, err := ExactAnyBin(n, k, th, mw)
					if !errors.Is(err, ErrTooLarge) {
						continue
					}
					checked++
					want := fmt.Errorf("%w: about %.3g multiply-adds for n=%d, k=%d, t=%d (at most %.3g)", ErrTooLarge, w, n, k, th, mw).Error()
					if got := err.Error(); got != want {
						t.Fatalf("ExactAnyBin(%d, %d, %d, %v):\n got  %q\n want %q", n, k, th, mw, got, want)
					}
					_, err = MaxDistribution(n, k, mw)
					if !errors.Is(err, ErrTooLarge) {
						continue
					}
					want = fmt.Errorf("%w: the distribution of the largest bin for n=%d, k=%d needs more than %.3g multiply-adds", ErrTooLarge, n, k, mw).Error()
					if got := err.Error(); got != want {
						t.Fatalf("MaxDistribution(%d, %d, %v):\n got  %q\n want %q", n, k, mw, got, want)
					}
				}
			}
		}
	}
	if checked < 500 {
		t.Errorf("only %d refusals checked", checked)
	}
}
