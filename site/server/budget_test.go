package server

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"retrylab/core/calc"
)

// svgBudgetTargets are charts at the largest values the API accepts, in
// the costliest shapes (calc's serverProbes).
var svgBudgetTargets = []string{
	"/api/v1/jitter.svg?lang=zh&clients=890000&waves=2&width_ms=10",
	"/api/v1/jitter.svg?lang=it&clients=10000&base_ms=17800&width_ms=1",
	"/api/v1/jitter.svg?clients=90000&waves=19&strategy=decorrelated&base_ms=1&cap_ms=1000&width_ms=100",
	"/api/v1/backoff.svg?lang=es&workers=10000&max_attempts=2&base_s=90&cap_s=90&max_elapsed_s=180&width_s=0.011",
	"/api/v1/backoff.svg?workers=65000&max_attempts=14&max_elapsed_s=86400&cap_s=86400&width_s=1000&retry_after_s=3600",
	"/api/v1/dispatch.svg?jobs=5000&max_attempts=4&p_5xx=1&p_drop=1&samples=2000",
	"/api/v1/peak.svg?clients=1025&bins=11&threshold=43",
	"/api/v1/amplification.svg?attempts=100,100,100,100,100,100,100,100,100,100",
	"/api/v1/budget.svg?requests=200&attempts=100&tokens=1000000000",
	"/api/v1/deadline.svg?attempts=100",
	"/api/v1/policies.svg?rate_per_s=700&horizon_s=30&trigger_start_s=10&timeout_ms=1&attempts=10",
	"/api/v1/timeouts.svg?calls=1800&max_output_tokens=1000&idle_timeout_s=0.001",
}

// TestSVGBudget: a chart at the largest values the API accepts is
// answered (200), in at most calc.MaxAnswerBytes, and the work its
// computation reports (Stats.Work, the simulations' meters) is at most
// what its calculator declares for those values: the bound that make
// bench calibrates against CPU time (core/bench/serverwork.sh) holds the
// chart too. Nothing is timed.
func TestSVGBudget(t *testing.T) {
	for _, target := range svgBudgetTargets {
		stats := new(Stats)
		h := New(Config{Dist: langDist(t), Stats: stats}).(*handler)
		declared := h.weigh(httptest.NewRequest("GET", target, nil))
		if !(declared > 0 && declared <= 1) {
			t.Errorf("%s: declared work %g of its ServerWork; want a request the server accepts", target, declared)
			continue
		}
		w := do(t, h, "GET", target)
		if w.Code != 200 {
			t.Fatalf("%s: %d %.300s", target, w.Code, w.Body.String())
		}
		name := strings.TrimSuffix(strings.TrimPrefix(strings.Split(target, "?")[0], "/api/v1/"), ".svg")
		c, _ := h.registry().Lookup(name)
		if work := float64(stats.Work.Load()); work > declared*c.ServerWork*(1+1e-9) || w.Body.Len() > calc.MaxAnswerBytes {
			t.Errorf("%s: %g units of work reported, %d bytes; want at most the declared %g and %d", target, work, w.Body.Len(), declared*c.ServerWork, calc.MaxAnswerBytes)
		}
		if stats.Computed.Load() != 1 || stats.Computing.Load() != 0 {
			t.Errorf("%s: stats %d computed, %d computing; want 1, 0", target, stats.Computed.Load(), stats.Computing.Load())
		}
		if testing.Verbose() {
			t.Logf("%10d work of %10.0f %7d bytes  %.100s", stats.Work.Load(), declared*c.ServerWork, w.Body.Len(), target)
		}
	}
}

// TestStopWhenNobodyWaits: a computation whose client has gone stops at
// its first poll (meter.Every units of work and the step under way) and
// writes nothing; one past the compute deadline stops and answers 503
// with Retry-After; both are counted as stopped, and the work the server
// did is far below the request's declared work. JSON and SVG alike.
func TestStopWhenNobodyWaits(t *testing.T) {
	for _, target := range []string{
		"/api/v1/policies?rate_per_s=700&horizon_s=30&trigger_start_s=10&timeout_ms=1&attempts=10",
		"/api/v1/policies.svg?rate_per_s=700&horizon_s=30&trigger_start_s=10&timeout_ms=1&attempts=10",
		"/api/v1/jitter?clients=890000&waves=2&width_ms=10",
		"/api/v1/timeouts.svg?calls=1800&max_output_tokens=1000&idle_timeout_s=0.001",
	} {
		for _, gone := range []bool{true, false} {
			stats := new(Stats)
			cfg := Config{Dist: langDist(t), Stats: stats}
			if !gone {
				cfg.ComputeDeadline = time.Nanosecond
			}
			h := New(cfg).(*handler)
			r := httptest.NewRequest("GET", target, nil)
			declared := h.weigh(r)
			ctx, cancel := context.WithCancel(r.Context())
			if gone {
				cancel()
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r.WithContext(ctx))
			cancel()
			name := strings.TrimSuffix(strings.TrimPrefix(strings.Split(target, "?")[0], "/api/v1/"), ".svg")
			c, _ := h.registry().Lookup(name)
			work := float64(stats.Work.Load())
			if stats.Stopped.Load() != 1 || stats.Computing.Load() != 0 || work > declared*c.ServerWork/4 {
				t.Errorf("%s, client gone %v: %d stopped, %d computing, %g work of %g declared; want 1, 0, under a quarter",
					target, gone, stats.Stopped.Load(), stats.Computing.Load(), work, declared*c.ServerWork)
			}
			if gone && w.Body.Len() != 0 {
				t.Errorf("%s: %d bytes written to a client that has gone", target, w.Body.Len())
			}
			if !gone && (w.Code != 503 || w.Header().Get("Retry-After") != "1" || !strings.Contains(w.Body.String(), `"deadline"`)) {
				t.Errorf("%s past the deadline: %d %s", target, w.Code, w.Body.String())
			}
		}
	}
}

// TestStats: GET api/stats answers the counters as JSON, not cached.
func TestStats(t *testing.T) {
	h := New(Config{Dist: langDist(t)})
	do(t, h, "GET", "/api/v1/jitter?clients=5000")
	w := do(t, h, "GET", "/api/stats")
	if w.Code != 200 || w.Header().Get("Cache-Control") != "no-store" ||
		w.Body.String() != `{"work":5000,"computing":0,"computed":1,"stopped":0}`+"\n" {
		t.Errorf("%d %v %s", w.Code, w.Header(), w.Body.String())
	}
}
