package calc

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"retrylab/core/standin/query"
)

// benchScale is the share of ServerWork the benchmark's server accepts:
// 1 natively, the Worker's workScale (wasm/worker) when the benchmark runs
// as WebAssembly (core/bench/serverwork.sh).
var benchScale = flag.Float64("serverwork.scale", 1, "the share of ServerWork accepted (BenchmarkServerWork, TestServerWorkQueries)")

// queriesOut is where TestServerWorkQueries writes the API requests of
// serverWorkCandidates, one "NAME QUERY" line each: make bench's workerd
// section (wasm/worker/bench.sh, workerbench -worst) sends them to the
// Worker.
var queriesOut = flag.String("serverwork.queries", "", "write the worst accepted requests, one \"NAME QUERY\" line each, to this file (TestServerWorkQueries)")

// serverWorkCandidates are the requests BenchmarkServerWork times for c
// at scale: its worst accepted requests by declared work (worstAccepted)
// and the probes of its costliest shapes (serverProbes) that the server
// accepts.
func serverWorkCandidates(tb testing.TB, c *Calculator, scale float64) []Args {
	cands := worstAccepted(tb, c, 3, scale)
	for _, p := range serverProbes {
		f := strings.Fields(p)
		if f[0] != c.Name {
			continue
		}
		if a, err := c.ParsePairs(f[1:]); err == nil && c.ServerCheck(a, scale, "/") == nil {
			cands = append(cands, a)
		}
	}
	return cands
}

// TestServerWorkQueries: every calculator's serverWorkCandidates, written
// as the API's query (Args.Query, encoded), read back as the server reads
// it gives the same canonical values and declared work, and the server
// accepts it: the requests make bench sends to the Worker on workerd are
// the ones BenchmarkServerWork times natively. With -serverwork.queries
// FILE it writes them there, one "NAME QUERY" line each (at
// -serverwork.scale, the Worker's workScale).
func TestServerWorkQueries(t *testing.T) {
	var b strings.Builder
	for _, c := range New().List() {
		if c.Work == nil {
			continue // TestEveryCalculatorBounded
		}
		cands := serverWorkCandidates(t, c, *benchScale)
		if len(cands) == 0 {
			t.Errorf("%s: no accepted request to measure", c.Name)
		}
		for _, a := range cands {
			q := query.Encode(a.Query())
			vals, err := query.Parse(q)
			if err != nil {
				t.Fatalf("%s?%.100s: %v", c.Name, q, err)
			}
			back, err := c.Parse(vals)
			if err != nil || back.Canonical() != a.Canonical() || c.Work(back) != c.Work(a) || c.ServerCheck(back, *benchScale, "/") != nil {
				t.Errorf("%s?%.100s read back: %v, canonical %.100q (want %.100q), work %g (want %g)", c.Name, q, err, back.Canonical(), a.Canonical(), c.Work(back), c.Work(a))
			}
			fmt.Fprintf(&b, "%s %s\n", c.Name, q)
		}
	}
	if *queriesOut != "" {
		if err := os.WriteFile(*queriesOut, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// BenchmarkServerWork is the calibration of the shared server's bounds
// (make bench: core/bench/serverwork.sh prints it against the 50 ms
// goal). For each calculator it times the API's work, the computation
// and the JSON encoding of its answer, in CPU time of the process
// (cpuTime: getrusage natively, Node's process.cpuUsage as WebAssembly;
// the
// least of five runs: what the request costs, not what the machine's
// other work adds), its worst accepted requests by declared work
// (worstAccepted) and its probes (serverProbes, the costliest shapes),
// and reports the slowest: worst_ms, the CPU time of that request;
// ns/work, the most CPU time per unit of declared work among them (what
// ServerWork divides the goal by); work and bound, that request's Work
// and the calculator's ServerWork.
func BenchmarkServerWork(b *testing.B) {
	for _, c := range New().List() {
		if c.Work == nil {
			continue
		}
		b.Run(c.Name, func(b *testing.B) {
			cands := serverWorkCandidates(b, c, *benchScale)
			var worst time.Duration
			var perWork, work float64
			for b.Loop() {
				for _, a := range cands {
					best := time.Duration(1 << 62)
					for range 5 {
						before := cpuTime()
						res, err := c.Run(a)
						if err != nil {
							b.Fatalf("%s: %v", c.CommandLine(a), err)
						}
						if _, err := json.Marshal(res); err != nil {
							b.Fatal(err)
						}
						best = min(best, cpuTime()-before)
					}
					if best > worst {
						worst, work = best, c.Work(a)
					}
					if w := c.Work(a); w > 0 {
						perWork = max(perWork, float64(best.Nanoseconds())/w)
					}
				}
			}
			b.ReportMetric(float64(worst.Microseconds())/1000, "worst_ms")
			b.ReportMetric(perWork, "ns/work")
			b.ReportMetric(work, "work")
			b.ReportMetric(math.Floor(c.ServerWork**benchScale), "bound")
		})
	}
}
