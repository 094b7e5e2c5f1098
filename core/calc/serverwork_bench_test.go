package calc

import (
	"encoding/json"
	"flag"
	"math"
	"strings"
	"testing"
	"time"
)

// benchScale is the share of ServerWork the benchmark's server accepts:
// 1 natively, the Worker's workScale (wasm/worker) when the benchmark runs
// as WebAssembly (core/bench/serverwork.sh).
var benchScale = flag.Float64("serverwork.scale", 1, "the share of ServerWork accepted (BenchmarkServerWork)")

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
			cands := worstAccepted(b, c, 3, *benchScale)
			for _, p := range serverProbes {
				f := strings.Fields(p)
				if f[0] != c.Name {
					continue
				}
				if a, err := c.ParsePairs(f[1:]); err == nil && c.ServerCheck(a, *benchScale, "/") == nil {
					cands = append(cands, a)
				}
			}
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
