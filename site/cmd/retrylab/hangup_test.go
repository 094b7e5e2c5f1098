//go:build linux

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"retrylab/core/calc"
)

// hangUpHeavy is the heaviest policies request the Worker-free server
// accepts at -work-scale 100 (a machine a hundred times faster than the
// calibration's): ten attempts, every one timed out, 590,000 requests for
// each of the nine policies. At scale 1 the heaviest request costs too
// little CPU (under 50 ms) for a client to hang up in the middle of it.
const hangUpHeavy = "/api/v1/policies?rate_per_s=10000&horizon_s=59&trigger_start_s=10&timeout_ms=1&attempts=10"

// TestHangUpStopsWork runs `retrylab serve -max-inflight 1` as a process
// of its own. Client A sends hangUpHeavy and hangs up once the server
// says it computes it (api/stats) and client B, from another address,
// has had five cheap requests answered; B sends 25 more. All 30 are
// answered 200 (the cheap lane), and the computation stops: the server's stats count it as stopped, no
// computation is left, and the work it reported (units of declared
// work, not time) is less than half of what the request declares. The
// only waits are polls for a state, with a deadline that catches a hang.
func TestHangUpStopsWork(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server")
	}
	dist := t.TempDir()
	if err := os.WriteFile(filepath.Join(dist, "index.html"), []byte("<!DOCTYPE html><title>x</title>"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	base, _ := startServe(t, ctx, []string{"serve", "-addr", "127.0.0.1:0", "-dist", dist,
		"-max-inflight", "1", "-work-scale", "100", "-rate", "100", "-burst", "100"})
	declared := declaredWork(t, hangUpHeavy)

	// A: the heavy request, on a connection of its own, from 127.0.0.1
	a, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fmt.Fprintf(a, "GET %s HTTP/1.1\r\nHost: x\r\n\r\n", hangUpHeavy); err != nil {
		t.Fatal(err)
	}
	stats := statsClient("127.0.0.3")
	waitStats(t, ctx, stats, base, "the heavy request computing", func(s serverStats) bool { return s.Computing >= 1 })
	// B: cheap requests from another address, the first five while the
	// heavy request holds the only slot of -max-inflight, then while the
	// computation stops
	b := statsClient("127.0.0.2")
	for i := range 30 {
		if i == 5 {
			a.Close()
		}
		target := base + "/api/v1/" + []string{"attempts?n=" + fmt.Sprint(i+1), "jitter", "limits"}[i%3]
		resp, err := b.Get(target)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Errorf("cheap request %d (%s): %d", i, target, resp.StatusCode)
		}
	}
	s := waitStats(t, ctx, stats, base, "no computation left", func(s serverStats) bool { return s.Computing == 0 })
	if s.Stopped != 1 || float64(s.Work) >= declared/2 {
		t.Errorf("after the hang-up: %+v; want 1 stopped and less than half of the %g units the heavy request declares", s, declared)
	}
	t.Logf("after the hang-up: %+v; the heavy request declares %g", s, declared)
}

type serverStats struct {
	Work, Computing, Computed, Stopped int64
}

// statsClient is an HTTP client whose connections come from the
// loopback address local (another client for the server's limits).
func statsClient(local string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(local)}}
	return &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
}

// waitStats polls GET api/stats until ok holds (or ctx ends: a hang).
func waitStats(t *testing.T, ctx context.Context, c *http.Client, base, what string, ok func(serverStats) bool) serverStats {
	t.Helper()
	for {
		var s serverStats
		resp, err := c.Get(base + "/api/stats")
		if err == nil {
			err = json.NewDecoder(resp.Body).Decode(&s)
			resp.Body.Close()
		}
		if err != nil {
			t.Fatalf("api/stats: %v", err)
		}
		if ok(s) {
			return s
		}
		select {
		case <-ctx.Done():
			t.Fatalf("waiting for %s: %v; stats %+v", what, ctx.Err(), s)
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// declaredWork is the Work target's calculator declares for its values.
func declaredWork(t *testing.T, target string) float64 {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	c, ok := calc.New().Lookup(strings.TrimPrefix(u.Path, "/api/v1/"))
	if !ok {
		t.Fatal(target)
	}
	a, err := c.Parse(u.Query())
	if err != nil {
		t.Fatal(err)
	}
	if w := c.Work(a); w <= c.ServerWork || w > 100*c.ServerWork {
		t.Fatalf("%s declares %g, want within (1, 100] × ServerWork %g", target, w, c.ServerWork)
	}
	return c.Work(a)
}
