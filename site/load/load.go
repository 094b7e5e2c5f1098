// Package load sends a bounded number of HTTP requests, a bounded number at
// a time, and counts what went wrong. It is the load test of the Worker and
// of the native server (wasm/worker/e2e, `make bench`): loopback only, bounded in
// count and in time.
package load

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

// Target is one request of the mix: a path (with its query) and the status
// it must answer.
type Target struct {
	Path   string
	Status int
}

// Config bounds a run. Requests and Concurrency must be positive; the run
// stops at Timeout even if requests remain (they count as errors).
type Config struct {
	BaseURL     string   // http://127.0.0.1:PORT
	Targets     []Target // requested round-robin
	Requests    int      // requests in total
	Concurrency int      // requests in flight at most
	Timeout     time.Duration
}

// Result is what a run saw.
type Result struct {
	Requests int           // requests answered with the expected status
	Errors   int           // transport errors, wrong statuses, requests not sent in time
	Failures []string      // the first few errors, for the report
	Elapsed  time.Duration // wall time of the run
	Bytes    int64         // body bytes read
	P50, P99 time.Duration // latency percentiles of the answered requests
	// Latencies are those of the answered requests, shortest first.
	Latencies []time.Duration
}

// Merge returns the results of several runs as one: the counts and the
// wall times added, the latencies pooled, the percentiles of the pool.
func Merge(rs ...Result) Result {
	var m Result
	for _, r := range rs {
		m.Requests += r.Requests
		m.Errors += r.Errors
		m.Failures = append(m.Failures, r.Failures...)
		m.Elapsed += r.Elapsed
		m.Bytes += r.Bytes
		m.Latencies = append(m.Latencies, r.Latencies...)
	}
	sort.Slice(m.Latencies, func(i, j int) bool { return m.Latencies[i] < m.Latencies[j] })
	m.P50, m.P99 = percentiles(m.Latencies)
	return m
}

// percentiles returns the 50th and 99th percentiles of sorted latencies.
func percentiles(l []time.Duration) (p50, p99 time.Duration) {
	if len(l) == 0 {
		return 0, 0
	}
	return l[len(l)*50/100], l[min(len(l)-1, len(l)*99/100)]
}

// PerSecond returns the answered requests per second.
func (r Result) PerSecond() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Requests) / r.Elapsed.Seconds()
}

func (r Result) String() string {
	return fmt.Sprintf("%d requests in %.2fs: %.0f req/s, p50 %.1fms, p99 %.1fms, %d errors",
		r.Requests, r.Elapsed.Seconds(), r.PerSecond(),
		float64(r.P50.Microseconds())/1000, float64(r.P99.Microseconds())/1000, r.Errors)
}

// Run sends cfg.Requests requests over cfg.Concurrency connections.
func Run(ctx context.Context, cfg Config) (Result, error) {
	if cfg.Requests <= 0 || cfg.Concurrency <= 0 || len(cfg.Targets) == 0 || cfg.Timeout <= 0 {
		return Result{}, fmt.Errorf("load: need requests, concurrency, targets and a timeout (got %d, %d, %d, %v)",
			cfg.Requests, cfg.Concurrency, len(cfg.Targets), cfg.Timeout)
	}
	ctx, cancel := context.WithTimeout(ctx, cfg.Timeout)
	defer cancel()
	tr := &http.Transport{MaxIdleConnsPerHost: cfg.Concurrency, DisableCompression: true}
	defer tr.CloseIdleConnections()
	client := &http.Client{
		Transport: tr,
		// A redirect is an answer of its own: its status is checked.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	var (
		next     atomic.Int64
		mu       sync.Mutex
		res      Result
		latency  = make([]time.Duration, 0, cfg.Requests)
		wg       sync.WaitGroup
		failures []string
	)
	fail := func(msg string) {
		mu.Lock()
		res.Errors++
		if len(failures) < 5 {
			failures = append(failures, msg)
		}
		mu.Unlock()
	}
	start := time.Now()
	for w := 0; w < cfg.Concurrency; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1) - 1
				if i >= int64(cfg.Requests) {
					return
				}
				t := cfg.Targets[i%int64(len(cfg.Targets))]
				if ctx.Err() != nil {
					fail(fmt.Sprintf("%s: not sent: %v", t.Path, ctx.Err()))
					continue
				}
				t0 := time.Now()
				req, _ := http.NewRequestWithContext(ctx, "GET", cfg.BaseURL+t.Path, nil)
				r, err := client.Do(req)
				if err != nil {
					fail(fmt.Sprintf("%s: %v", t.Path, err))
					continue
				}
				n, err := io.Copy(io.Discard, r.Body)
				r.Body.Close()
				d := time.Since(t0)
				switch {
				case err != nil:
					fail(fmt.Sprintf("%s: reading the body: %v", t.Path, err))
				case r.StatusCode != t.Status:
					fail(fmt.Sprintf("%s: status %d, want %d", t.Path, r.StatusCode, t.Status))
				default:
					mu.Lock()
					res.Requests++
					res.Bytes += n
					latency = append(latency, d)
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	res.Elapsed = time.Since(start)
	res.Failures = failures
	sort.Slice(latency, func(i, j int) bool { return latency[i] < latency[j] })
	res.P50, res.P99 = percentiles(latency)
	res.Latencies = latency
	return res, nil
}
