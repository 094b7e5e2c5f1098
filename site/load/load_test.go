package load

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestRun(t *testing.T) {
	var inFlight, peak atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := inFlight.Add(1)
		defer inFlight.Add(-1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		time.Sleep(time.Millisecond)
		if r.URL.Path == "/missing" {
			http.NotFound(w, r)
			return
		}
		w.Write([]byte("ok"))
	}))
	defer srv.Close()
	cfg := Config{
		BaseURL: srv.URL, Requests: 200, Concurrency: 4, Timeout: 30 * time.Second,
		Targets: []Target{{"/a", 200}, {"/missing", 404}},
	}
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Requests != 200 || res.Errors != 0 || res.Bytes != 100*2+100*int64(len("404 page not found\n")) {
		t.Errorf("result %+v", res)
	}
	if p := peak.Load(); p > 4 || p < 1 {
		t.Errorf("peak concurrency %d, want 1..4", p)
	}
	if res.PerSecond() <= 0 || res.P50 <= 0 || res.P99 < res.P50 {
		t.Errorf("rates %v", res)
	}

	// A wrong status is an error, reported with its path.
	cfg.Targets = []Target{{"/missing", 200}}
	cfg.Requests = 10
	res, _ = Run(context.Background(), cfg)
	if res.Errors != 10 || res.Requests != 0 || len(res.Failures) != 5 || !strings.Contains(res.Failures[0], "/missing: status 404") {
		t.Errorf("wrong statuses: %+v", res)
	}
}

func TestRunTimeout(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	res, err := Run(context.Background(), Config{BaseURL: srv.URL, Requests: 50, Concurrency: 2,
		Timeout: 200 * time.Millisecond, Targets: []Target{{"/", 200}}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Errors != 50 || res.Requests != 0 {
		t.Errorf("a hung server: %d answered, %d errors; want every request an error", res.Requests, res.Errors)
	}
}

func TestRunBadConfig(t *testing.T) {
	for _, cfg := range []Config{
		{Requests: 0, Concurrency: 1, Timeout: time.Second, Targets: []Target{{"/", 200}}},
		{Requests: 1, Concurrency: 0, Timeout: time.Second, Targets: []Target{{"/", 200}}},
		{Requests: 1, Concurrency: 1, Timeout: time.Second},
		{Requests: 1, Concurrency: 1, Targets: []Target{{"/", 200}}},
	} {
		if _, err := Run(context.Background(), cfg); err == nil {
			t.Errorf("Run(%+v): no error", cfg)
		}
	}
}

func TestMerge(t *testing.T) {
	ms := func(v ...int) []time.Duration {
		var d []time.Duration
		for _, x := range v {
			d = append(d, time.Duration(x)*time.Millisecond)
		}
		return d
	}
	a := Result{Requests: 2, Errors: 1, Elapsed: time.Second, Bytes: 10, Latencies: ms(1, 3)}
	b := Result{Requests: 3, Elapsed: 2 * time.Second, Bytes: 5, Latencies: ms(2, 4, 100)}
	m := Merge(a, b)
	if m.Requests != 5 || m.Errors != 1 || m.Elapsed != 3*time.Second || m.Bytes != 15 || len(m.Latencies) != 5 {
		t.Fatalf("Merge = %+v", m)
	}
	if m.P50 != 3*time.Millisecond || m.P99 != 100*time.Millisecond || m.Latencies[0] != time.Millisecond {
		t.Errorf("Merge: p50 %v, p99 %v, latencies %v", m.P50, m.P99, m.Latencies)
	}
	if z := Merge(); z.P50 != 0 || z.Requests != 0 {
		t.Errorf("Merge() = %+v", z)
	}
}

func TestBehind(t *testing.T) {
	ms := func(v ...int) []time.Duration {
		var d []time.Duration
		for _, x := range v {
			d = append(d, time.Duration(x)*time.Millisecond)
		}
		return d
	}
	for _, tt := range []struct {
		page, control []time.Duration
		want          int
	}{
		{nil, nil, 0},
		{ms(1, 2, 3), nil, 0},
		{ms(1, 60, 3), ms(1, 1, 1), 1},
		{ms(1, 60, 300), ms(1, 20, 200), 1},   // 40 and 100 ms behind
		{ms(50, 51, 52), ms(0, 0, 0), 2},      // more than 50 ms
		{ms(300, 1, 1), ms(300, 1, 1), 0},     // a stall both saw
		{ms(1, 1, 1), ms(500, 500, 500), 0},   // ahead is not behind
		{ms(100, 100, 100, 100), ms(1, 1), 2}, // only the ticks with both
	} {
		r := AbuseResult{PageTimes: tt.page, ControlTimes: tt.control}
		if got := r.Behind(50 * time.Millisecond); got != tt.want {
			t.Errorf("page %v, control %v: %d behind, want %d", tt.page, tt.control, got, tt.want)
		}
	}
}

// TestAbuseControl: with Control, the page is fetched from both servers at
// each tick, and a server whose page waits (here half a second in its handler,
// standing for a computation ahead of it) is behind at every tick.
func TestAbuseControl(t *testing.T) {
	page := func(delay time.Duration) *httptest.Server {
		return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			time.Sleep(delay)
			w.Write([]byte("page"))
		}))
	}
	// The slow server sleeps half a second before each page: the idle one
	// is behind it, or it fails to be 50 ms behind the idle one, only if
	// a page that costs nothing takes 450 ms (a stall, not a busy machine).
	slow, idle := page(500*time.Millisecond), page(0)
	defer slow.Close()
	defer idle.Close()
	res, err := Abuse(context.Background(), AbuseConfig{
		BaseURL: slow.URL, Control: idle.URL, Page: "/", PageEvery: 100 * time.Millisecond,
		Duration: 1700 * time.Millisecond, Bound: 10 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Errors > 0 || res.Pages < 3 || len(res.ControlTimes) != res.Pages {
		t.Fatalf("want the page from both servers at every tick: %v", res)
	}
	if n := res.Behind(50 * time.Millisecond); n != res.Pages {
		t.Errorf("the slow server is behind at %d of %d ticks, want all: %v %v", n, res.Pages, res.PageTimes, res.ControlTimes)
	}
	if res.PageP50 < 500*time.Millisecond || res.ControlP50 >= res.PageP50 || !strings.Contains(res.String(), "control page: p50") {
		t.Errorf("percentiles: %v", res)
	}
	// Swapped, the idle server is never behind.
	res, err = Abuse(context.Background(), AbuseConfig{
		BaseURL: idle.URL, Control: slow.URL, Page: "/", PageEvery: 100 * time.Millisecond,
		Duration: 600 * time.Millisecond, Bound: 10 * time.Second,
	})
	if err != nil || res.Errors > 0 || res.Behind(0) != 0 {
		t.Errorf("the idle server against the slow one: %v, %v", res, err)
	}
}
