//go:build unix

package calc

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// serverBudget is the most CPU one request of the shared server may cost
// natively.
const serverBudget = 50 * time.Millisecond

// serverProbes are requests at or near each calculator's ServerWork, in
// the shapes that cost the most: the fallback, every call failing, the
// longest waits, the most bins, the arrivals listed.
var serverProbes = []string{
	"dispatch jobs=5000 max_attempts=4 headroom=2 max_output_tokens=13 prompt_tokens=0 tpm_limit=18937700 max_concurrency=160 latency_s=14 base_s=3600 cap_s=86400 p_5xx=1 reconcile_s=0",
	"dispatch jobs=5000 max_attempts=4 p_5xx=1 p_drop=1 samples=2000",
	"dispatch jobs=10000 max_attempts=4 fallback=false rpm_limit=2 max_concurrency=10000",
	"dispatch jobs=2000 max_attempts=20 fallback=false mode=naive workers=10000 rpm_limit=10 p_5xx=0.5",
	"dispatch jobs=40000 max_attempts=1 fallback=false arrival_per_min=1000000 max_concurrency=1 latency_s=3600 samples=2000",
	"jitter clients=990000 waves=2 width_ms=10",
	"jitter clients=100000 waves=19 strategy=decorrelated base_ms=1 cap_ms=1000 width_ms=100",
	"jitter clients=10000 base_ms=19800 width_ms=1",
	"jitter clients=60000 waves=30 strategy=equal base_ms=1 width_ms=1e6",
	"backoff workers=34000 max_attempts=30 max_elapsed_s=86400 cap_s=86400 width_s=1000",
	"backoff workers=70000 max_attempts=15 max_elapsed_s=86400 cap_s=86400 width_s=1000 retry_after_s=3600",
	"backoff workers=10000 max_attempts=2 base_s=90 cap_s=90 max_elapsed_s=200 width_s=0.01",
	"peak clients=2000 bins=100 threshold=40",
	"budget requests=1000000 attempts=100 tokens=1000000000 processes=1000",
	"budget requests=1000000 attempts=100 tokens=1000000000 order=depth processes=1000",
	"amplification attempts=100,100,100,100,100,100,100,100,100,100",
	"deadline attempts=100",
	"idempotency-key payload=[" + strings.Repeat("1.5e300,", 2047) + "1]",
	"idempotency-key payload=" + strings.Repeat("[", 500) + strings.Repeat("]", 500),
	"idempotency-key payload=\"" + strings.Repeat("\\ud83d\\ude00", 1300) + "\"",
}

// TestServerWorkBudget holds the declared work bounds to the server's
// budget: every probe and random values near each ServerWork, which
// ServerCheck accepts, cost at most serverBudget of CPU (the process's,
// garbage collection included; the least of three runs, so that other
// processes on the machine matter little) and answer at most
// MaxAnswerBytes. The random values of a calculator with Work are within
// a factor two of its bound, and so are most probes (peak's n=2000,
// k=100, t=40 is there because the article promises it): the bound
// itself is what is measured.
func TestServerWorkBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("measures CPU time")
	}
	reg := New()
	var probes [][]string
	for _, p := range serverProbes {
		probes = append(probes, strings.Fields(p))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range reg.List() {
		if c.Work != nil {
			probes = append(probes, nearBound(t, c, rng, 6)...)
		}
	}
	for _, f := range probes {
		c, _ := reg.Lookup(f[0])
		a, err := c.ParsePairs(f[1:])
		if err != nil {
			t.Fatalf("%.80s: %v", strings.Join(f, " "), err)
		}
		if e := c.ServerCheck(a, 1, "/"); e != nil {
			t.Errorf("%.80s: refused: %v", strings.Join(f, " "), e)
			continue
		}
		best, size := time.Duration(math.MaxInt64), 0
		for range 3 {
			before := cpuTime()
			res, err := c.Run(a)
			if err != nil {
				t.Fatalf("%.80s: %v", strings.Join(f, " "), err)
			}
			b, _ := json.Marshal(res)
			best, size = min(best, cpuTime()-before), len(b)
		}
		if best > serverBudget || size > MaxAnswerBytes {
			t.Errorf("%.100s: %v of CPU, %d bytes; want at most %v and %d", strings.Join(f, " "), best, size, serverBudget, MaxAnswerBytes)
		}
		if testing.Verbose() {
			t.Logf("%-10s %8.0f work %7.2f ms %7d bytes  %.90s", c.Name, workOf(c, a), best.Seconds()*1000, size, strings.Join(f[1:], " "))
		}
	}
}

func workOf(c *Calculator, a Args) float64 {
	if c.Work == nil {
		return 0
	}
	return c.Work(a)
}

// nearBound draws random values of c's parameters (log-uniform over each
// numeric range) until it has n that Run accepts whose Work is between
// half of ServerWork and ServerWork.
func nearBound(t *testing.T, c *Calculator, rng *rand.Rand, n int) [][]string {
	var out [][]string
	for try := 0; try < 200000 && len(out) < n; try++ {
		f := []string{c.Name}
		for _, p := range c.Params {
			if v, ok := randomValue(p, rng); ok {
				f = append(f, p.Name+"="+v)
			}
		}
		a, err := c.ParsePairs(f[1:])
		if err != nil {
			continue
		}
		if w := c.Work(a); w < c.ServerWork/2 || w > c.ServerWork {
			continue
		}
		if _, err := c.Run(a); err != nil {
			continue
		}
		out = append(out, f)
	}
	if len(out) < n {
		t.Errorf("%s: found %d random values near the bound, want %d", c.Name, len(out), n)
	}
	return out
}

// randomValue draws a value of an Int, Float, Bool or Choice parameter
// (false for the others and, at times, to leave it at its default).
func randomValue(p Param, rng *rand.Rand) (string, bool) {
	if rng.IntN(4) == 0 {
		return "", false
	}
	switch p.Kind {
	case Bool:
		return strconv.FormatBool(rng.IntN(2) == 0), true
	case Choice:
		return p.Choices[rng.IntN(len(p.Choices))], true
	case Int, Float:
		lo, hi := 0.0, 1e6
		if p.Min.Set {
			lo = p.Min.V
		}
		if p.Max.Set {
			hi = p.Max.V
		}
		v := lo + (hi-lo)*rng.Float64()
		if lo >= 0 && rng.IntN(2) == 0 { // log-uniform, so that small values come up too
			v = math.Exp(math.Log(lo+1)+(math.Log(hi+1)-math.Log(lo+1))*rng.Float64()) - 1
		}
		if p.Kind == Int {
			return strconv.Itoa(int(math.Round(v))), true
		}
		return FormatFloat(v), true
	}
	return "", false
}

// cpuTime is the CPU time of the process so far, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
