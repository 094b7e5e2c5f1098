package calc

import (
	"cmp"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"retrylab/core/meter"
)

// serverProbes are requests at or near each calculator's ServerWork, in
// the shapes that cost the most: the fallback, every call failing, the
// longest waits, the most bins, the arrivals listed; for policies the
// issue's corners (a high arrival rate, a tiny timeout, a long trigger,
// ten attempts) and for timeouts the longest streams with every gap
// replayed. The search of worstAccepted starts from them.
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
	"policies rate_per_s=25000 horizon_s=6 timeout_ms=0.001 trigger_s=3 trigger_start_s=1 attempts=10 bin_s=0.01",
	"policies rate_per_s=2500 horizon_s=60 trigger_start_s=10 timeout_ms=1 trigger_s=40 trigger_factor=1000 attempts=10",
	"policies loop=closed clients=100000 think_ms=1000 horizon_s=1 timeout_ms=0.001 attempts=10 bin_s=0.001 trigger_start_s=0.002 trigger_s=0.5",
	"policies rate_per_s=1000 horizon_s=20 trigger=capacity trigger_factor=1000 queue_cap=0 attempts=10 bin_s=0.01",
	"timeouts calls=500 max_output_tokens=5000 idle_timeout_s=0.0001",
	"timeouts calls=100000 max_output_tokens=30 total_timeout_s=0.5 p_stall=1",
	"timeouts calls=3000 max_output_tokens=1000 output_tokens_per_s=1 total_timeout_s=600",
}

// boundHelp is what a calculator without a bound must declare: the
// message of TestEveryCalculatorBounded, for the calculators to come.
const boundHelp = "declare Work (func(Args) float64: the work its values imply, in its own unit — random draws, simulated calls or attempts, " +
	"multiply-adds, itemWork per number listed in the answer — counted before computing, 0 where Run refuses the values), " +
	"ServerWork (the most Work the shared server computes: 0.7 × 50 ms / the ns per unit that `make bench` prints in core/bench/serverwork.sh) " +
	"and WorkParam (the parameter a refusal names); a simulation also counts its work through a.meter() (core/meter), so that the server can stop it"

// TestEveryCalculatorBounded: every calculator declares its work and the
// shared server's bound, names a parameter it declares, and accepts its
// defaults on the server.
func TestEveryCalculatorBounded(t *testing.T) {
	for _, c := range New().List() {
		if c.Work == nil || !(c.ServerWork > 0) {
			t.Errorf("calculator %s has no server work bound: %s", c.Name, boundHelp)
			continue
		}
		if c.WorkParam != "" && c.Param(c.WorkParam) == nil {
			t.Errorf("calculator %s: WorkParam %q is none of its parameters (%s)", c.Name, c.WorkParam, c.paramNames())
		}
		a, err := c.Parse(nil)
		if err != nil {
			t.Fatalf("%s: defaults: %v", c.Name, err)
		}
		if e := c.ServerCheck(a, 1, "/"); e != nil {
			t.Errorf("calculator %s: the shared server refuses its defaults (Work %g > ServerWork %g): %v", c.Name, c.Work(a), c.ServerWork, e)
		}
	}
}

// TestServerWorkBudget holds each calculator's worst accepted requests
// (worstAccepted: the probes, random values and a boundary search, by
// declared work) to the server's budget without timing them: the work
// the simulation reports through its meter is at most the declared Work
// (the declaration is an upper bound of the cost, which make bench
// calibrates against CPU time: core/bench/serverwork.sh), the answer is
// at most MaxAnswerBytes, and the search reaches at least half of
// ServerWork (the bound itself is what make bench measures) unless the
// largest values are a hundredth of it (microWork).
func TestServerWorkBudget(t *testing.T) {
	reg := New()
	for _, c := range reg.List() {
		if c.Work == nil {
			continue // TestEveryCalculatorBounded
		}
		worst := worstAccepted(t, c, 3, 1)
		if len(worst) == 0 {
			t.Errorf("%s: no accepted request found", c.Name)
			continue
		}
		// A bound out of reach is a calculator of microseconds
		// (microWork); the others' searches reach their bounds.
		if w := c.Work(worst[0]); w < c.ServerWork/2 && w > c.ServerWork/microWork {
			t.Errorf("%s: the worst accepted request found has work %g, less than half of ServerWork %g: the bound is out of reach (lower it) or the search misses it", c.Name, w, c.ServerWork)
		}
		for _, a := range worst {
			var counted int64
			res, err := c.Run(a.WithPoll(func(n int64) bool { counted += n; return false }))
			if err != nil {
				t.Fatalf("%s: %v", c.CommandLine(a), err)
			}
			b, _ := json.Marshal(res)
			w := c.Work(a)
			if float64(counted) > w || len(b) > MaxAnswerBytes {
				t.Errorf("%.200s: the simulation counted %d units of work and answered %d bytes; want at most its declared work %g and %d bytes",
					c.CommandLine(a), counted, len(b), w, MaxAnswerBytes)
			}
			if testing.Verbose() {
				t.Logf("%-15s work %10.0f of %10.0f, counted %10d, %7d bytes  %.120s", c.Name, w, c.ServerWork, counted, len(b), c.CommandLine(a))
			}
		}
	}
}

// TestPollStops: a Poll that answers stop ends every simulation of a
// worst accepted request at its first call, with meter.ErrStopped, after
// at most meter.Every units of work and the current step's (the server's
// work after a client hangs up).
func TestPollStops(t *testing.T) {
	for _, c := range New().List() {
		if c.Work == nil {
			continue
		}
		worst := worstAccepted(t, c, 3, 1)
		if len(worst) == 0 {
			continue
		}
		a := worst[0]
		calls, counted := 0, int64(0)
		_, err := c.Run(a.WithPoll(func(n int64) bool { calls++; counted += n; return true }))
		if calls == 0 {
			if err != nil {
				t.Errorf("%s: %v", c.Name, err)
			}
			continue // too small a run to poll, or not a simulation
		}
		if !errors.Is(err, meter.ErrStopped) || calls != 1 {
			t.Errorf("%.120s: poll called %d times, error %v; want once and meter.ErrStopped", c.CommandLine(a), calls, err)
		}
		// a step is one chunk of draws (jitter: 1,024) or one retry of
		// every worker (backoff: workers), or one call's tokens (timeouts)
		if step := int64(max(meter.Every, 100000)); counted > 2*step {
			t.Errorf("%.120s: %d units of work before the first poll", c.CommandLine(a), counted)
		}
		if testing.Verbose() {
			t.Logf("%-15s stopped after %d units of %.0f", c.Name, counted, c.Work(a))
		}
	}
}

// worstAccepted returns up to n values of c that the shared server
// accepts at scale (ServerCheck's: 1 natively, the Worker's less) and Run
// computes, the largest declared Work first: the best of
// c's serverProbes, 3,000 random values (randomValue) and a boundary
// search from the best of them (each numeric parameter set in turn to its
// extremes and to values between, keeping what raises the work within
// the bound), by declared work, never by time.
func worstAccepted(t testing.TB, c *Calculator, n int, scale float64) []Args {
	t.Helper()
	k := c.Name + "/" + strconv.Itoa(n) + "/" + FormatFloat(scale)
	if v, ok := worstCache.Load(k); ok {
		return v.([]Args)
	}
	out := searchWorst(t, c, n, scale)
	worstCache.Store(k, out)
	return out
}

// worstCache holds worstAccepted's answers by calculator and n: the
// tests and the benchmark of one run share them.
var worstCache sync.Map

func searchWorst(t testing.TB, c *Calculator, n int, scale float64) []Args {
	rng := rand.New(rand.NewPCG(27, 28))
	type cand struct {
		m map[string]string
		a Args
		w float64
	}
	var cands []cand
	seen := map[string]bool{}
	try := func(m map[string]string) (cand, bool) {
		pairs := make([]string, 0, len(m))
		for k, v := range m {
			pairs = append(pairs, k+"="+v)
		}
		slices.Sort(pairs)
		key := strings.Join(pairs, " ")
		if seen[key] {
			return cand{}, false
		}
		seen[key] = true
		a, err := c.ParsePairs(pairs)
		if err != nil || c.ServerCheck(a, scale, "/") != nil {
			return cand{}, false
		}
		w := c.Work(a)
		if !(w > 0) {
			return cand{}, false
		}
		x := cand{m: m, a: a, w: w}
		cands = append(cands, x)
		return x, true
	}
	for _, p := range serverProbes {
		f := strings.Fields(p)
		if f[0] != c.Name {
			continue
		}
		m := map[string]string{}
		for _, kv := range f[1:] {
			k, v, _ := strings.Cut(kv, "=")
			m[k] = v
		}
		if _, ok := try(m); !ok {
			fit(c, m, scale, try)
		}
	}
	try(map[string]string{})
	for range 3000 {
		m := map[string]string{}
		for _, p := range c.Params {
			if v, ok := randomValue(p, rng); ok {
				m[p.Name] = v
			}
		}
		try(m)
	}
	byWork := func(a, b cand) int { return cmp.Compare(b.w, a.w) }
	slices.SortStableFunc(cands, byWork)
	starts := cands[:min(len(cands), 8)]
	for _, s := range slices.Clone(starts) {
		best := s
		for range 3 {
			for _, p := range c.Params {
				for _, v := range boundaryValues(p) {
					m := maps(best.m)
					m[p.Name] = v
					if x, ok := try(m); ok && x.w > best.w {
						best = x
					}
				}
			}
		}
	}
	slices.SortStableFunc(cands, byWork)
	var out []Args
	for _, x := range cands {
		if len(out) == n {
			break
		}
		if _, err := c.Run(x.a); err == nil {
			out = append(out, x.a)
		}
	}
	return out
}

// fit scales down the WorkParam of a probe that is above the bound until
// the server accepts it (bisection, by declared work): the probe's shape
// at the bound.
func fit[T any](c *Calculator, m map[string]string, scale float64, try func(map[string]string) (T, bool)) {
	p := c.Param(c.WorkParam)
	if p == nil || (p.Kind != Int && p.Kind != Float) {
		return
	}
	hiText, ok := m[p.Name]
	if !ok {
		hiText = p.Default
	}
	hi, err := strconv.ParseFloat(hiText, 64)
	if err != nil {
		return
	}
	lo := 0.0
	if p.Min.Set {
		lo = p.Min.V
	}
	text := func(v float64) string {
		if p.Kind == Int {
			return strconv.Itoa(int(v))
		}
		return FormatFloat(v)
	}
	accepted := func(v float64) bool {
		x := maps(m)
		x[p.Name] = text(v)
		a, err := c.ParsePairs(pairsOf(x))
		return err == nil && c.ServerCheck(a, scale, "/") == nil && c.Work(a) > 0
	}
	for range 40 {
		mid := lo + (hi-lo)/2
		if p.Kind == Int {
			mid = math.Floor(mid)
		}
		if mid <= lo || mid >= hi {
			break
		}
		if accepted(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	x := maps(m)
	x[p.Name] = text(lo)
	try(x)
}

func pairsOf(m map[string]string) []string {
	pairs := make([]string, 0, len(m))
	for k, v := range m {
		pairs = append(pairs, k+"="+v)
	}
	return pairs
}

func maps(m map[string]string) map[string]string {
	out := make(map[string]string, len(m)+1)
	for k, v := range m {
		out[k] = v
	}
	return out
}

// boundaryValues are values of a numeric parameter for the boundary
// search: its extremes and twelve log-spaced values between (at most
// 1e9 where it has no maximum), and for a Choice or a Bool every value.
func boundaryValues(p Param) []string {
	switch p.Kind {
	case Bool:
		return []string{"true", "false"}
	case Choice:
		return p.Choices
	case Int, Float:
	default:
		return nil
	}
	lo, hi := 0.0, 1e9
	if p.Min.Set {
		lo = p.Min.V
	}
	if p.Max.Set {
		hi = p.Max.V
	}
	var vs []float64
	for i := 0; i <= 12; i++ {
		vs = append(vs, math.Exp(math.Log(lo+1)+(math.Log(hi+1)-math.Log(lo+1))*float64(i)/12)-1)
	}
	vs = append(vs, lo, hi, lo+1e-3, hi/2)
	var out []string
	for _, v := range vs {
		if p.Kind == Int {
			out = append(out, strconv.Itoa(int(math.Round(v))))
		} else {
			out = append(out, FormatFloat(v))
		}
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
