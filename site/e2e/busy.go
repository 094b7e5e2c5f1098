package e2e

import (
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
)

// Spin starts n goroutines that keep a CPU busy each, as `yes >
// /dev/null` would, until stop is called: the load beside a measurement
// (site/e2e/cmd/lighthouse and longtasks -busy).
func Spin(n int) (stop func()) {
	var done atomic.Bool
	var wg sync.WaitGroup
	if n+1 > runtime.GOMAXPROCS(0) {
		runtime.GOMAXPROCS(n + 1)
	}
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			x := uint64(1)
			for !done.Load() {
				for range 1 << 16 {
					x = x*6364136223846793005 + 1442695040888963407
				}
			}
			spinSink.Add(x)
		}()
	}
	return func() { done.Store(true); wg.Wait() }
}

var spinSink atomic.Uint64 // keeps the loops' arithmetic

// LoadAvg is the machine's load average over 1, 5 and 15 minutes
// ("unknown" where /proc/loadavg cannot be read).
func LoadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}
