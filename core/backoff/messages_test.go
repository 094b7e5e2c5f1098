package backoff

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestBinsMessages pins Bins' refusal byte for byte (it was written with
// fmt's %g; the package builds it with strconv so that the browser's
// module does not link fmt): shortest representation, exponents as
// e+06 and e-07, NaN and ±Inf spelled as fmt spells them.
func TestBinsMessages(t *testing.T) {
	tenth := 0.1 // a variable: the constant 0.1 + 0.2 would be exactly 0.3
	one := func(h float64) Config { return Config{Base: h, Cap: h, MaxAttempts: 2, MaxElapsed: math.Inf(1)} }
	for _, c := range []struct {
		cfg  Config
		w    float64
		want string
	}{
		{article(100, true), 0, "backoff: 3.5 s in bins of 0 s is more than 1048576 bins"},
		{article(100, true), math.Copysign(0, -1), "backoff: 3.5 s in bins of -0 s is more than 1048576 bins"},
		{article(100, true), -0.25, "backoff: 3.5 s in bins of -0.25 s is more than 1048576 bins"},
		{article(100, true), math.NaN(), "backoff: 3.5 s in bins of NaN s is more than 1048576 bins"},
		{article(100, true), math.Inf(-1), "backoff: 3.5 s in bins of -Inf s is more than 1048576 bins"},
		{article(100, true), 1e-7, "backoff: 3.5 s in bins of 1e-07 s is more than 1048576 bins"},
		{one(1e6), 0.5, "backoff: 1e+06 s in bins of 0.5 s is more than 1048576 bins"},
		{one(123456.789), 0.1, "backoff: 123456.789 s in bins of 0.1 s is more than 1048576 bins"},
		{one(tenth + 0.2), 1e-21, "backoff: 0.30000000000000004 s in bins of 1e-21 s is more than 1048576 bins"},
		{one(1e21), 1, "backoff: 1e+21 s in bins of 1 s is more than 1048576 bins"},
		{one(1e20), 1, "backoff: 1e+20 s in bins of 1 s is more than 1048576 bins"},
		{one(math.MaxFloat64), 5e-324, "backoff: 1.7976931348623157e+308 s in bins of 5e-324 s is more than 1048576 bins"},
		{Config{Base: 1, Cap: 1, MaxAttempts: 2, MaxElapsed: math.Inf(1), RetryAfter: math.Inf(1)}, 1, "backoff: +Inf s in bins of 1 s is more than 1048576 bins"},
		{Config{Base: 1, Cap: 1, MaxAttempts: 2, MaxElapsed: math.NaN()}, 0, "backoff: NaN s in bins of 0 s is more than 1048576 bins"},
	} {
		_, err := c.cfg.Bins(c.w)
		if err == nil {
			t.Errorf("%+v, w=%v: no error, want %q", c.cfg, c.w, c.want)
			continue
		}
		if got := err.Error(); got != c.want {
			t.Errorf("%+v, w=%v:\n got  %q\n want %q", c.cfg, c.w, got, c.want)
		}
	}
}

// TestBinsMessagesFmt checks Bins' refusal against fmt with the format it
// was written with, for horizons and widths of random bits (every
// magnitude, subnormals, negatives, NaN and infinities).
func TestBinsMessagesFmt(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	checked := 0
	for range 20000 {
		h, w := math.Float64frombits(r.Uint64()), math.Float64frombits(r.Uint64())
		if r.IntN(4) == 0 {
			w = h * 1e-7 // a width just too small for the horizon
		}
		c := Config{Base: h, Cap: h, MaxAttempts: 2, MaxElapsed: math.Inf(1)}
		_, err := c.Bins(w)
		if err == nil {
			continue
		}
		checked++
		want := fmt.Sprintf("backoff: %g s in bins of %g s is more than %d bins", c.Horizon(), w, MaxBins)
		if got := err.Error(); got != want {
			t.Fatalf("h=%v w=%v:\n got  %q\n want %q", h, w, got, want)
		}
	}
	if checked < 10000 {
		t.Errorf("only %d refusals checked", checked)
	}
}
