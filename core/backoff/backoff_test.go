package backoff

import (
	"fmt"
	"math"
	"testing"

	"retrylab/core/pyrand"
)

func article(workers int, jitter bool) Config {
	return Config{Base: 0.5, Cap: 20, MaxAttempts: 4, MaxElapsed: 20, Jitter: jitter, Workers: workers}
}

// Without jitter all 100 workers retry together at every wave: at 0.5 s,
// 1.5 s and 3.5 s, the whole crowd in one bin each time.
func TestWithoutJitterAllWorkersRetryTogether(t *testing.T) {
	res, err := Run(article(100, false), pyrand.NewInt64(20261017), 0.1, true)
	if err != nil {
		t.Fatal(err)
	}
	waves := map[float64]int{}
	for _, a := range res.Arrivals {
		waves[a]++
	}
	if len(waves) != 3 || waves[0.5] != 100 || waves[1.5] != 100 || waves[3.5] != 100 {
		t.Fatalf("arrivals by time %v, want 100 at each of 0.5, 1.5, 3.5", waves)
	}
	if res.Peak != 100 || res.Retries != 300 || res.GaveUp != 0 || res.MaxElapsedUsed != 3.5 {
		t.Errorf("peak %d retries %d gave up %d last %v", res.Peak, res.Retries, res.GaveUp, res.MaxElapsedUsed)
	}
	nonzero := 0
	for _, n := range res.Counts {
		if n > 0 {
			nonzero++
			if n != 100 {
				t.Errorf("a bin holds %d, want 100", n)
			}
		}
	}
	if nonzero != 3 {
		t.Errorf("%d bins hold arrivals, want 3", nonzero)
	}
	for _, j := range []int{5, 15, 35} {
		if res.Counts[j] != 100 {
			t.Errorf("bin %d (from %v s) holds %d, want 100", j, float64(j)*0.1, res.Counts[j])
		}
	}
}

// With jitter the same 300 retries spread out: no bin holds more than a
// fraction of them.
func TestJitterSpreads(t *testing.T) {
	res, err := Run(article(100, true), pyrand.NewInt64(20261017), 0.1, false)
	if err != nil {
		t.Fatal(err)
	}
	if res.Retries != 300 || res.Peak >= 40 || res.Peak < 5 {
		t.Errorf("retries %d peak %d: want 300 retries and a peak far below 100", res.Retries, res.Peak)
	}
	// Horizon 0.5+1+2 = 3.5 s, in the bin that starts at 35 × 0.1 = 3.5.
	if len(res.Counts) != 36 {
		t.Errorf("%d bins, want 36", len(res.Counts))
	}
	if res.Ceilings[0] != 0.5 || res.Ceilings[1] != 1 || res.Ceilings[2] != 2 {
		t.Errorf("ceilings %v", res.Ceilings)
	}
}

// The retry times CPython 3.11 gives, printed by
// core/backoff/testdata/backoff.py: the article's loop played by every worker,
// drawing attempt by attempt and, within an attempt, worker by worker.
func TestCPythonReference(t *testing.T) {
	tests := []struct {
		c      Config
		seed   int64
		want   []float64
		gaveUp int
		// gaveUpRA counts those of gaveUp stopped by Retry-After.
		gaveUpRA int
	}{
		{Config{Base: 0.5, Cap: 20, MaxAttempts: 4, MaxElapsed: 20, Jitter: true, Workers: 5}, 20261017,
			[]float64{0.14024614926551626, 0.21892602064731792, 0.33173862144923993, 0.24225328449987138, 0.39657192499756855,
				1.0795917588895858, 0.7404920745251723, 0.8868367672194765, 0.7956520415972623, 0.7263774823314247,
				1.4322146773406739, 2.590973465160864, 1.9128178566455079, 1.895559641932281, 0.8991616048343872}, 0, 0},
		{Config{Base: 0.5, Cap: 20, MaxAttempts: 8, MaxElapsed: 6, RetryAfter: 1.2, Jitter: true, Workers: 4}, 20261017,
			[]float64{1.2, 1.2, 1.2, 1.2, 2.4, 2.4, 2.4, 2.4, 3.5999999999999996, 3.5999999999999996, 3.5999999999999996,
				4.2504813906356915, 5.651962178852062, 5.799815200670038, 4.8, 6, 6}, 4, 2},
		{Config{Base: 0.5, Cap: 20, MaxAttempts: 6, MaxElapsed: 300, Jitter: true, Workers: 3}, -7,
			[]float64{0.16191638241658118, 0.07542458696225096, 0.3254672365199269, 0.23435266908412394, 0.6113065912689402,
				0.6911561534325124, 0.35035051863353756, 1.6261780576477807, 0.7661474703164821, 2.084933253283081,
				1.9055997519462564, 1.1289995236919423, 5.481086766423193, 8.52041674932256, 2.1194152128891073}, 0, 0},
		// The issue's case: a Retry-After of 12 s within 20 s. Each worker
		// calls once at 12 s; with 8 s left it gives up instead of calling
		// at 20 s, 8 s after a 429 that asked for 12.
		{Config{Base: 0.5, Cap: 20, MaxAttempts: 4, MaxElapsed: 20, RetryAfter: 12, Jitter: true, Workers: 6}, 20261017,
			[]float64{12, 12, 12, 12, 12, 12}, 6, 6},
		{Config{Base: 0.5, Cap: 20, MaxAttempts: 5, MaxElapsed: 9, RetryAfter: 0.7, Jitter: true, Workers: 6}, 20261017,
			[]float64{0.7, 0.7, 0.7, 0.7, 0.7, 0.7, 1.4, 1.4, 1.4, 1.4, 1.4, 1.6252406953178458, 2.425981089426031,
				2.4999076003350185, 2.0999999999999996, 2.8180860696031456, 2.0999999999999996, 2.325240695317846,
				4.223767884432404, 4.758950761504808, 4.936906488221403, 3.5180860696031457, 6.008132260385985,
				5.520597362732131}, 0, 0},
	}
	for i, tt := range tests {
		res, err := Run(tt.c, pyrand.NewInt64(tt.seed), 0.1, true)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Arrivals) != len(tt.want) || res.GaveUp != tt.gaveUp || res.GaveUpRetryAfter != tt.gaveUpRA {
			t.Fatalf("case %d: %d arrivals, %d gave up (%d on Retry-After); want %d, %d (%d)", i, len(res.Arrivals),
				res.GaveUp, res.GaveUpRetryAfter, len(tt.want), tt.gaveUp, tt.gaveUpRA)
		}
		for k, a := range res.Arrivals {
			if a != tt.want[k] {
				t.Errorf("case %d arrival %d = %v, CPython %v", i, k, a, tt.want[k])
			}
		}
	}
}

func TestPolicies(t *testing.T) {
	tests := []struct {
		p              Policy
		retries        int
		gaveUp         int
		maxUsedAtMost  float64
		maxUsedAtLeast float64
	}{
		// 2 retries each, waits below 0.5 and 1 s: nobody reaches 8 s.
		{Interactive, 200, 0, 1.5, 0.5},
		// 7 retries each, ceilings 0.5 … 20 (capped), sum < 300: all 700.
		{Batch, 700, 0, 300, 10},
	}
	for _, tt := range tests {
		c := article(100, true)
		c.MaxAttempts, c.MaxElapsed = tt.p.MaxAttempts, tt.p.MaxElapsed
		res, err := Run(c, pyrand.NewInt64(20261017), 0.1, false)
		if err != nil {
			t.Fatal(err)
		}
		if res.Retries != tt.retries || res.GaveUp != tt.gaveUp || res.MaxElapsedUsed > tt.maxUsedAtMost || res.MaxElapsedUsed < tt.maxUsedAtLeast {
			t.Errorf("%s: retries %d gave up %d max used %v", tt.p.Name, res.Retries, res.GaveUp, res.MaxElapsedUsed)
		}
	}
	// A Retry-After of 5 s with the interactive limit: every worker
	// retries at 5 s; with 3 s left, shorter than the floor, it gives up
	// rather than call at 8 s.
	c := article(100, true)
	c.MaxAttempts, c.MaxElapsed, c.RetryAfter = 4, 8, 5
	res, _ := Run(c, pyrand.NewInt64(1), 0.1, true)
	if res.GaveUp != 100 || res.GaveUpRetryAfter != 100 || res.MaxElapsedUsed != 5 || res.Retries != 100 {
		t.Errorf("Retry-After 5 within 8 s: gave up %d (%d on Retry-After), last %v, retries %d", res.GaveUp,
			res.GaveUpRetryAfter, res.MaxElapsedUsed, res.Retries)
	}
}

func TestBin(t *testing.T) {
	tests := []struct {
		t, w float64
		j    int
	}{{0, 0.1, 0}, {0.5, 0.1, 5}, {0.49999, 0.1, 4}, {3.5, 0.1, 35}, {0.3, 0.1, 2}, {0.30000000000000004, 0.1, 3},
		{5, 0.1, 50}, {7.5, 2.5, 3}, {1e6, 0.3, 3333333}}
	for _, tt := range tests {
		j := Bin(tt.t, tt.w)
		if j != tt.j {
			t.Errorf("Bin(%v, %v) = %d, want %d", tt.t, tt.w, j, tt.j)
		}
		if float64(j)*tt.w > tt.t || float64(j+1)*tt.w <= tt.t {
			t.Errorf("Bin(%v, %v) = %d: outside [j·w, (j+1)·w)", tt.t, tt.w, j)
		}
	}
}

func TestCeilingAndWait(t *testing.T) {
	c := Config{Base: 0.5, Cap: 20, Jitter: true}
	want := []float64{0.5, 1, 2, 4, 8, 16, 20, 20}
	for a, w := range want {
		if got := c.Ceiling(a); got != w {
			t.Errorf("Ceiling(%d) = %v, want %v", a, got, w)
		}
	}
	if c.Ceiling(5000) != 20 {
		t.Error("a huge attempt must stay at the cap")
	}
	if got := c.Wait(2, 0.25); got != 0.5 {
		t.Errorf("Wait(2, 0.25) = %v, want 0.5", got)
	}
	c.RetryAfter = 12
	if got := c.Wait(2, 0.25); got != 12 {
		t.Errorf("Retry-After is a floor: got %v", got)
	}
}

func TestValidate(t *testing.T) {
	good := article(1, true)
	bad := []func(*Config){
		func(c *Config) { c.Base = 0 }, func(c *Config) { c.Cap = math.Inf(1) }, func(c *Config) { c.MaxAttempts = 0 },
		func(c *Config) { c.MaxElapsed = math.NaN() }, func(c *Config) { c.RetryAfter = -1 }, func(c *Config) { c.Workers = 0 },
	}
	for i, f := range bad {
		c := good
		f(&c)
		if _, err := Run(c, pyrand.NewInt64(1), 0.1, false); err == nil {
			t.Errorf("bad config %d accepted", i)
		}
	}
	if _, err := Run(good, pyrand.NewInt64(1), 1e-9, false); err == nil {
		t.Error("a billion bins accepted")
	}
}

func ExampleRun() {
	res, _ := Run(Config{Base: 0.5, Cap: 20, MaxAttempts: 4, MaxElapsed: 20, Workers: 100}, pyrand.NewInt64(1), 0.5, false)
	fmt.Println(res.Ceilings, res.Retries, res.Peak)
	// Output: [0.5 1 2] 300 100
}

func BenchmarkHundredThousandWorkers(b *testing.B) {
	c := Config{Base: 0.5, Cap: 20, MaxAttempts: 8, MaxElapsed: 300, Jitter: true, Workers: 100000}
	for b.Loop() {
		if _, err := Run(c, pyrand.NewInt64(20261017), 0.1, false); err != nil {
			b.Fatal(err)
		}
	}
}

// TestRetryAfterIsAFloor plays many policies and checks the rule on every
// worker's calls: no call comes sooner than Retry-After after the failure
// before it, none after MaxElapsed, and a worker that stops with attempts
// left either reached MaxElapsed or had less than Retry-After left.
func TestRetryAfterIsAFloor(t *testing.T) {
	for i := range 400 {
		c := Config{
			Base: 0.1 + float64(i%7)*0.3, Cap: 1 + float64(i%11), MaxAttempts: 2 + i%9,
			MaxElapsed: 1 + float64(i%23), RetryAfter: float64(i%13) * 0.75, Jitter: i%5 != 0, Workers: 1 + i%17,
		}
		res, err := Run(c, pyrand.NewInt64(int64(i)), 0.25, true)
		if err != nil {
			t.Fatal(err)
		}
		// Arrivals are in draw order: retry by retry, worker by worker
		// among those still retrying. Rebuild each worker's calls.
		last := make([]float64, c.Workers)
		alive := make([]bool, c.Workers)
		for w := range alive {
			alive[w] = true
		}
		k, gaveUp, gaveUpRA := 0, 0, 0
		for a := 0; a < c.MaxAttempts-1; a++ {
			for w := range last {
				if !alive[w] {
					continue
				}
				if last[w] >= c.MaxElapsed || c.MaxElapsed-last[w] < c.RetryAfter {
					if !(last[w] >= c.MaxElapsed) {
						gaveUpRA++
					}
					alive[w] = false
					gaveUp++
					continue
				}
				at := res.Arrivals[k]
				k++
				if at < last[w]+c.RetryAfter || at > c.MaxElapsed {
					t.Fatalf("%+v: worker %d called at %v after a failure at %v", c, w, at, last[w])
				}
				last[w] = at
			}
		}
		if k != len(res.Arrivals) || gaveUp != res.GaveUp || gaveUpRA != res.GaveUpRetryAfter {
			t.Fatalf("%+v: %d of %d arrivals, gave up %d/%d, on Retry-After %d/%d", c, k, len(res.Arrivals),
				gaveUp, res.GaveUp, gaveUpRA, res.GaveUpRetryAfter)
		}
	}
}
