//go:build unix

package server

import (
	"net/http/httptest"
	"syscall"
	"testing"
	"time"
)

// BenchmarkSVGWorst computes and draws each chart of svgBudgetTargets
// (the largest the API accepts, in the costliest shapes) as the API does,
// and reports cpu_ms, the least CPU time of the process for one (not the
// wall time, which the machine's other work stretches): make bench
// (core/bench/serverwork.sh) prints each against the 50 ms goal.
func BenchmarkSVGWorst(b *testing.B) {
	h := New(Config{Dist: langDist(b)})
	for _, target := range svgBudgetTargets {
		b.Run(target[len("/api/v1/"):], func(b *testing.B) {
			best := time.Duration(1 << 62)
			for b.Loop() {
				before := cpuTime()
				w := httptest.NewRecorder()
				h.ServeHTTP(w, httptest.NewRequest("GET", target, nil))
				if w.Code != 200 {
					b.Fatalf("%d", w.Code)
				}
				best = min(best, cpuTime()-before)
			}
			b.ReportMetric(float64(best.Microseconds())/1000, "cpu_ms")
		})
	}
}

// cpuTime is the CPU time of the process so far, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
