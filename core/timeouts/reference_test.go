package timeouts

import (
	"math"
	"math/rand/v2"
	"testing"

	"retrylab/core/standin/fmath"
	"retrylab/core/standin/heapsort"
)

// reference is Run as it was before the fast sum of the gaps (every gap
// added in order, every duration kept and sorted): Run must return exactly
// what it returns.
func reference(c Config, r *rand.Rand) (Result, error) {
	if err := c.Validate(); err != nil {
		return Result{}, err
	}
	cut := func(timeout, t float64) bool { return timeout > 0 && t > timeout }
	var res Result
	res.FirstTokenS = make([]float64, 0, c.Calls)
	var durations []float64
	lo := max(1, c.OutputTokens/5)
	for range c.Calls {
		// Every call draws the same things in the same order, cut or not,
		// so that a timeout changes which calls are cut, not the calls.
		conn := c.Connect.Draw(r)
		first := c.FirstToken.Draw(r)
		n := lo + r.IntN(c.OutputTokens-lo+1)
		stallAt, stall := -1, 0.0
		if c.PStall > 0 && r.Float64() < c.PStall && n > 1 {
			stallAt = r.IntN(n - 1) // the gap before token stallAt+2
			stall = c.Stall.Draw(r)
		}
		switch {
		case cut(c.ConnectTimeout, conn) || cut(c.TotalTimeout, conn):
			res.ByCut[CutConnect]++
			res.RetriesCaused++
			for k := 1; k < n; k++ { // the gaps, drawn to keep the stream aligned
				refGap(r)
			}
			continue
		}
		res.FirstTokenS = append(res.FirstTokenS, first)
		t := conn + first
		if cut(c.FirstTokenTimeout, first) || cut(c.TotalTimeout, t) {
			res.ByCut[CutFirstToken]++
			res.RetriesCaused++
			res.PromptMaybeBilled += int64(c.PromptTokens)
			for k := 1; k < n; k++ {
				refGap(r)
			}
			continue
		}
		got, end := 1, Completed
		for k := 1; k < n; k++ {
			gap := refGap(r) / c.Rate
			if k-1 == stallAt {
				gap = stall
			}
			if end != Completed {
				continue
			}
			switch {
			case cut(c.IdleTimeout, gap):
				end = CutIdle
			case cut(c.TotalTimeout, t+gap):
				end = CutTotal
			default:
				t += gap
				got++
			}
		}
		res.ByCut[end]++
		if end != Completed {
			res.HandedToUser++
			res.OutputThrownAway += int64(got)
			res.TokensThrownAway += int64(c.PromptTokens + got)
			continue
		}
		durations = append(durations, t)
	}
	heapsort.Float64s(durations) // not slices.Sort (core/standin/heapsort)
	res.DurationP50, res.DurationP95 = refPercentile(durations, 0.5), refPercentile(durations, 0.95)
	return res, nil
}

func refGap(r *rand.Rand) float64 { return -fmath.Log(1 - r.Float64()) }

func refPercentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	k := int(math.Ceil(p*float64(len(xs)))) - 1
	return xs[max(0, min(k, len(xs)-1))]
}

// TestSameAsReference runs Run and reference on defaults, on timeouts set
// at the edges of the durations (a total timeout equal to one, an idle
// timeout that cuts often, none), on extreme rates and on random
// configurations: the results must be the same to the bit.
func TestSameAsReference(t *testing.T) {
	d := Default()
	type tc struct {
		name string
		c    Config
		seed uint64
	}
	with := func(f func(*Config)) Config { c := d; f(&c); return c }
	cases := []tc{
		{"defaults", d, 20261017},
		{"defaults seed 1", d, 1},
		{"no timeouts", with(func(c *Config) { c.ConnectTimeout, c.FirstTokenTimeout, c.IdleTimeout, c.TotalTimeout = 0, 0, 0, 0 }), 2},
		{"total 10 s", with(func(c *Config) { c.TotalTimeout = 10 }), 3},
		{"total 12 s, stalls", with(func(c *Config) { c.TotalTimeout, c.PStall = 12, 0.5 }), 4},
		{"idle 0.05 s", with(func(c *Config) { c.IdleTimeout = 0.05 }), 5},
		{"idle 0.2 s, every call stalls", with(func(c *Config) { c.IdleTimeout, c.PStall = 0.2, 1 }), 6},
		{"idle tiny", with(func(c *Config) { c.IdleTimeout = 1e-300 }), 7},
		{"slow stream", with(func(c *Config) { c.Rate, c.TotalTimeout = 0.001, 1e6 }), 8},
		{"fast stream", with(func(c *Config) { c.Rate, c.IdleTimeout = 1e5, 1e-4 }), 9},
		{"one token", with(func(c *Config) { c.OutputTokens, c.PStall = 1, 1 }), 10},
		{"two tokens", with(func(c *Config) { c.OutputTokens, c.PStall = 2, 1 }), 11},
		{"one call", with(func(c *Config) { c.Calls = 1 }), 12},
		{"long calls", with(func(c *Config) { c.Calls, c.OutputTokens, c.TotalTimeout = 40, 100000, 0 }), 13},
	}
	// A total timeout equal to a duration: that call completes, the
	// margin of the fast sum must not decide it.
	base := with(func(c *Config) { c.Calls, c.TotalTimeout = 200, 0 })
	want, _ := reference(base, rand.New(rng(14)))
	for _, p := range []float64{want.DurationP50, want.DurationP95} {
		cases = append(cases, tc{"total at a duration", with(func(c *Config) { *c = base; c.TotalTimeout = p }), 14})
		cases = append(cases, tc{"total just below a duration", with(func(c *Config) { *c = base; c.TotalTimeout = math.Nextafter(p, 0) }), 14})
	}
	r := rand.New(rand.NewPCG(15, 16))
	for i := range 300 {
		c := Config{
			Calls: 1 + r.IntN(60), PromptTokens: r.IntN(3000), OutputTokens: 1 + r.IntN(400),
			Rate:       math.Pow(10, r.Float64()*6-2),
			Connect:    Dist{0.01 + r.Float64(), 0.5 + 3*r.Float64()},
			FirstToken: Dist{0.1 + 3*r.Float64(), 0.5 + 5*r.Float64()},
			PStall:     r.Float64(), Stall: Dist{0.5 + 10*r.Float64(), 0.5 + 3*r.Float64()},
		}
		set := func() float64 {
			if r.IntN(3) == 0 {
				return 0
			}
			return math.Pow(10, r.Float64()*4-2)
		}
		c.ConnectTimeout, c.FirstTokenTimeout, c.IdleTimeout, c.TotalTimeout = set(), set(), set(), set()
		cases = append(cases, tc{"random", c, uint64(i)})
	}
	for _, tc := range cases {
		want, err := reference(tc.c, rand.New(rng(tc.seed)))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		got, err := Run(tc.c, rng(tc.seed))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !same(got, want) {
			t.Errorf("%s %+v seed %d:\n got %+v\nwant %+v", tc.name, tc.c, tc.seed, short(got), short(want))
		}
	}
}

// same compares two results to the bit.
func same(a, b Result) bool {
	bits := math.Float64bits
	if a.ByCut != b.ByCut || a.RetriesCaused != b.RetriesCaused || a.HandedToUser != b.HandedToUser ||
		a.TokensThrownAway != b.TokensThrownAway || a.OutputThrownAway != b.OutputThrownAway ||
		a.PromptMaybeBilled != b.PromptMaybeBilled || bits(a.DurationP50) != bits(b.DurationP50) ||
		bits(a.DurationP95) != bits(b.DurationP95) || len(a.FirstTokenS) != len(b.FirstTokenS) {
		return false
	}
	for i := range a.FirstTokenS {
		if bits(a.FirstTokenS[i]) != bits(b.FirstTokenS[i]) {
			return false
		}
	}
	return true
}

func short(r Result) Result { r.FirstTokenS = r.FirstTokenS[:min(3, len(r.FirstTokenS))]; return r }
