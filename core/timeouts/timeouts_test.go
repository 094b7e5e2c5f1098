package timeouts

import (
	"math"
	"math/rand/v2"
	"testing"
)

func rng(seed uint64) *rand.PCG { return rand.NewPCG(seed, 0x9e3779b97f4a7c15) }

func mustRun(t *testing.T, c Config) Result {
	t.Helper()
	r, err := Run(c, rng(1))
	if err != nil {
		t.Fatal(err)
	}
	sum := 0
	for _, n := range r.ByCut {
		sum += n
	}
	if sum != c.Calls || r.RetriesCaused != r.ByCut[CutConnect]+r.ByCut[CutFirstToken] ||
		r.HandedToUser != r.ByCut[CutIdle]+r.ByCut[CutTotal] {
		t.Fatalf("%+v: counts do not add up", r)
	}
	if r.TokensThrownAway != int64(r.HandedToUser*c.PromptTokens)+r.OutputThrownAway ||
		r.PromptMaybeBilled != int64(r.ByCut[CutFirstToken]*c.PromptTokens) {
		t.Fatalf("%+v: tokens do not add up", r)
	}
	return r
}

// Without timeouts every call completes; each timeout alone cuts about
// the share its distribution's tail predicts.
func TestEachTimeout(t *testing.T) {
	c := Default()
	c.Calls, c.OutputTokens = 20000, 200
	c.ConnectTimeout, c.FirstTokenTimeout, c.IdleTimeout, c.TotalTimeout = 0, 0, 0, 0
	none := mustRun(t, c)
	if none.ByCut[Completed] != c.Calls {
		t.Fatalf("no timeout: %v", none.ByCut)
	}
	for _, tt := range []struct {
		set  func(*Config)
		cut  Cut
		want float64 // expected share
	}{
		{func(c *Config) { c.ConnectTimeout = 0.3 }, CutConnect, c.Connect.Tail(0.3)},
		{func(c *Config) { c.FirstTokenTimeout = 3 }, CutFirstToken, c.FirstToken.Tail(3)},
		// Only stalls exceed 2 s between tokens (an exponential gap of
		// mean 20 ms essentially never does); calls of one token have none.
		{func(c *Config) { c.IdleTimeout = 2 }, CutIdle, c.PStall * c.Stall.Tail(2)},
	} {
		d := c
		tt.set(&d)
		r := mustRun(t, d)
		got := float64(r.ByCut[tt.cut]) / float64(c.Calls)
		sd := math.Sqrt(tt.want * (1 - tt.want) / float64(c.Calls))
		if math.Abs(got-tt.want) > 5*sd+1e-9 {
			t.Errorf("cut %d: share %v, want %v ± %v", tt.cut, got, tt.want, 5*sd)
		}
	}
}

// A timeout changes which calls are cut, not the calls: the first-token
// times are the same whatever the idle and total timeouts, and a longer
// first-token timeout never cuts more.
func TestSameCalls(t *testing.T) {
	a := Default()
	b := a
	b.IdleTimeout, b.TotalTimeout = 0, 0
	ra, rb := mustRun(t, a), mustRun(t, b)
	if len(ra.FirstTokenS) != len(rb.FirstTokenS) {
		t.Fatal("different connected calls")
	}
	for i := range ra.FirstTokenS {
		if ra.FirstTokenS[i] != rb.FirstTokenS[i] {
			t.Fatalf("call %d: first token %v and %v", i, ra.FirstTokenS[i], rb.FirstTokenS[i])
		}
	}
	prev := a.Calls + 1
	for _, ft := range []float64{1, 2, 4, 8, 16, 0} {
		c := a
		c.FirstTokenTimeout = ft
		r := mustRun(t, c)
		if r.ByCut[CutFirstToken] > prev {
			t.Errorf("first-token timeout %v cuts %d, more than a shorter one (%d)", ft, r.ByCut[CutFirstToken], prev)
		}
		prev = r.ByCut[CutFirstToken]
	}
}

// The first-token rule: cuts before the first token are retried, cuts
// after it are handed to the user with their tokens thrown away.
func TestFirstTokenRule(t *testing.T) {
	r := mustRun(t, Default())
	if r.HandedToUser == 0 || r.OutputThrownAway == 0 || r.ByCut[Completed] < 900 {
		t.Errorf("defaults: %+v", r.ByCut)
	}
	c := Default()
	c.FirstTokenTimeout = 1 // half the calls or so
	r = mustRun(t, c)
	if r.RetriesCaused < 300 || r.PromptMaybeBilled == 0 {
		t.Errorf("first-token timeout 1 s: %d retries", r.RetriesCaused)
	}
}

func TestDist(t *testing.T) {
	d := Dist{2, 3}
	if d.Tail(2) != 0.5 || d.Tail(0) != 1 || math.Abs(d.Tail(4)-1.0/9) > 1e-15 {
		t.Errorf("tail: %v %v %v", d.Tail(2), d.Tail(0), d.Tail(4))
	}
	r := rand.New(rng(7))
	below := 0
	for range 100000 {
		if d.Draw(r) < 2 {
			below++
		}
	}
	if below < 49000 || below > 51000 {
		t.Errorf("%d of 100000 draws below the median", below)
	}
}

func TestValidate(t *testing.T) {
	for _, f := range []func(*Config){
		func(c *Config) { c.Calls = 0 }, func(c *Config) { c.OutputTokens = 0 }, func(c *Config) { c.Rate = 0 },
		func(c *Config) { c.PStall = 2 }, func(c *Config) { c.IdleTimeout = -1 }, func(c *Config) { c.Stall.Shape = 0 },
		func(c *Config) { c.Calls, c.OutputTokens = 10000, 1000 },
	} {
		c := Default()
		f(&c)
		if c.Validate() == nil {
			t.Errorf("%+v accepted", c)
		}
	}
}

// BenchmarkDefaults is the timeouts calculator's run at its defaults.
func BenchmarkDefaults(b *testing.B) {
	for b.Loop() {
		if _, err := Run(Default(), rng(20261017)); err != nil {
			b.Fatal(err)
		}
	}
}
