//go:build unix

package server

import (
	"math"
	"syscall"
	"testing"
	"time"

	"retrylab/core/calc"
)

// TestSVGBudget: a chart at the largest values the API accepts (the
// computation and the drawing) costs at most 50 ms of the process's CPU
// (the least of three runs) and its answer at most calc.MaxAnswerBytes,
// as calc's TestServerWorkBudget holds the JSON answers.
func TestSVGBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("measures CPU time")
	}
	h := New(Config{Dist: langDist(t)})
	for _, target := range []string{
		"/api/v1/jitter.svg?lang=zh&clients=990000&waves=2&width_ms=10",
		"/api/v1/jitter.svg?lang=it&clients=10000&base_ms=19800&width_ms=1",
		"/api/v1/jitter.svg?clients=100000&waves=19&strategy=decorrelated&base_ms=1&cap_ms=1000&width_ms=100",
		"/api/v1/backoff.svg?lang=es&workers=10000&max_attempts=2&base_s=90&cap_s=90&max_elapsed_s=200&width_s=0.01",
		"/api/v1/backoff.svg?workers=70000&max_attempts=15&max_elapsed_s=86400&cap_s=86400&width_s=1000&retry_after_s=3600",
		"/api/v1/dispatch.svg?jobs=5000&max_attempts=4&p_5xx=1&p_drop=1&samples=2000",
		"/api/v1/peak.svg?clients=1025&bins=11&threshold=43",
		"/api/v1/amplification.svg?attempts=100,100,100,100,100,100,100,100,100,100",
		"/api/v1/budget.svg?requests=200&attempts=100&tokens=1000000000",
		"/api/v1/deadline.svg?attempts=100",
	} {
		best, size := time.Duration(math.MaxInt64), 0
		for range 3 {
			before := cpuTime(t)
			w := do(t, h, "GET", target)
			if w.Code != 200 {
				t.Fatalf("%s: %d %.300s", target, w.Code, w.Body.String())
			}
			best, size = min(best, cpuTime(t)-before), w.Body.Len()
		}
		if testing.Verbose() {
			t.Logf("%7.2f ms %7d bytes  %.100s", best.Seconds()*1000, size, target)
		}
		if best > 50*time.Millisecond || size > calc.MaxAnswerBytes {
			t.Errorf("%s: %v of CPU, %d bytes", target, best, size)
		}
	}
}

// cpuTime is the CPU time of the process so far, user and system.
func cpuTime(t *testing.T) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
