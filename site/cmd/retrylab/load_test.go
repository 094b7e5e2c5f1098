//go:build linux

package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"retrylab/site/load"
)

// childEnv makes the test binary run `retrylab` with the arguments in it
// (one a line) instead of the tests: the server of TestServeUnderAbuse
// runs in its own process, so that its memory is its own.
const childEnv = "RETRYLAB_TEST_RUN"

func TestMain(m *testing.M) {
	if args, ok := os.LookupEnv(childEnv); ok {
		os.Exit(run(strings.Split(args, "\n"), os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// abuseHeavy are requests at the largest values the shared server
// accepts (calc's ServerWork), in the shapes that cost it the most.
var abuseHeavy = []string{
	"/api/v1/dispatch?jobs=5000&max_attempts=4&headroom=2&max_output_tokens=13&prompt_tokens=0&tpm_limit=18937700&max_concurrency=160&latency_s=14&base_s=3600&cap_s=86400&p_5xx=1&reconcile_s=0",
	"/api/v1/jitter?clients=90000&waves=19&strategy=decorrelated&base_ms=1&cap_ms=1000&width_ms=100",
	"/api/v1/backoff?workers=60000&max_attempts=15&max_elapsed_s=86400&cap_s=86400&width_s=1000&retry_after_s=3600",
	"/api/v1/jitter?clients=10000&base_ms=17800&width_ms=1",
	"/api/v1/peak?clients=1025&bins=11&threshold=43",
	"/api/v1/jitter.svg?clients=890000&waves=2&width_ms=10",
	"/api/v1/policies?rate_per_s=700&horizon_s=30&trigger_start_s=10&timeout_ms=1&attempts=10",
	"/api/v1/timeouts.svg?calls=1800&max_output_tokens=1000&idle_timeout_s=0.001",
}

// hangBound is how long a request may take before TestServeUnderAbuse
// calls it a hang: loose, so that only a hang fails, never a busy
// machine (the times themselves are make bench's).
const hangBound = 10 * time.Second

var benchAbuse = flag.Bool("bench-abuse", false, "also print the page's absolute p99 under abuse beside the issue's goal (make bench: site/bench/abuse.sh)")

// pageGoal is the bound on the page's p99 while 50 clients send
// the largest requests the server accepts.
const pageGoal = 50 * time.Millisecond

// TestServeUnderAbuse runs `retrylab serve` as a process of its own and,
// for a few seconds, 50 clients sending the largest requests it accepts
// back to back while a reader fetches a page every 100 ms: every heavy
// request gets a 200 or a 429/503 with Retry-After, the page a 200 every
// time, the server's peak RSS (VmHWM) stays under 300 MB, and nothing
// else happens. A control, a second `retrylab serve` with the same flags
// given no heavy request, serves the same page at the same moments. No
// time is asserted (issue 27: a test that compares a time with a constant
// judges the machine's load): a heavy answer or a page slower than
// hangBound is a hang, nothing less. The times are make bench's
// (site/bench/abuse.sh, -bench-abuse): the page's p99 against the
// issue's 50 ms (pageGoal) and how far behind the control's it was. That
// pages never share the computations' slots is site/server's
// TestShedInFlight, by the order of events. (Before issue 27 this test
// allowed the page to be 50 ms behind the control's at 3 of 30 ticks: on
// a loaded machine, 0-2 ticks of 30 were, on either server.) The rate is
// raised above the default so that the in-flight limit, not only the
// token bucket, is reached.
// ABUSE_SERVE_FLAGS adds flags to both servers (to try a configuration by
// hand).
func TestServeUnderAbuse(t *testing.T) {
	if testing.Short() {
		t.Skip("a load test of a few seconds")
	}
	dist := t.TempDir()
	page := "<!DOCTYPE html><title>x</title>" + strings.Repeat("<p>retry, backoff, jitter</p>\n", 600)
	for name, body := range map[string]string{"index.html": page, "it/index.html": page, "404.html": "<!DOCTYPE html>404"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dist, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dist, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	args := []string{"serve", "-addr", "127.0.0.1:0", "-dist", dist, "-rate", "20", "-burst", "20"}
	if extra := os.Getenv("ABUSE_SERVE_FLAGS"); extra != "" {
		args = append(args, strings.Fields(extra)...)
	}
	base, pid := startServe(t, ctx, args)
	control, _ := startServe(t, ctx, args)
	res, err := load.Abuse(ctx, load.AbuseConfig{
		BaseURL: base, Heavy: abuseHeavy, Concurrency: 50, Duration: 3 * time.Second,
		Page: "/it/", PageEvery: 100 * time.Millisecond, Bound: hangBound, Control: control,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%v; the page more than %v behind the idle server's at %d of %d ticks", res, pageGoal, res.Behind(pageGoal), len(res.PageTimes))
	rss := peakRSS(t, pid)
	t.Logf("server's peak RSS: %.1f MB", float64(rss)/1e6)
	if *benchAbuse {
		verdict := "met"
		if res.PageP99 >= pageGoal {
			verdict = "NOT met"
		}
		fmt.Printf("serve-abuse: page p99 %.1f ms (p50 %.1f, max %.1f) while 50 clients send the largest requests for 3 s: goal < %v %s; "+
			"the same page from an idle server meanwhile: p99 %.1f ms; heavy: %d × 200 (slowest %.0f ms), %d × 429, %d × 503; peak RSS %.0f MB (goal < 300 MB)\n",
			ms(res.PageP99), ms(res.PageP50), ms(res.PageMax), pageGoal, verdict, ms(res.ControlP99),
			res.OK, ms(res.SlowestOK), res.TooMany, res.Unavailable, float64(rss)/1e6)
	}
	if res.Errors > 0 || res.OK == 0 || res.TooMany+res.Unavailable == 0 || res.Pages < 20 || len(res.ControlTimes) < 20 {
		t.Errorf("want only 200s and 429/503s with Retry-After, some of each, and the page every 100 ms from both servers: %v", res)
	}
	if rss > 300e6 {
		t.Errorf("server's peak RSS %d bytes, want under 300 MB", rss)
	}
	// Only a hang fails here: how far the page is behind the idle
	// server's against the 50 ms is a time, printed by make bench
	// (-bench-abuse, site/bench/abuse.sh), not asserted (issue 27: a
	// machine's load is not the code's). That pages never wait behind a
	// computation is site/server's TestShedInFlight, by the order of
	// events: a page is answered while every computing slot is held.
	if n := res.Behind(hangBound); n > 0 {
		t.Errorf("the page was more than %v behind the idle server's at %d of %d ticks (a hang); in order: %v, the idle server's: %v",
			hangBound, n, len(res.PageTimes), res.PageTimes, res.ControlTimes)
	}
}

// ms is d in milliseconds.
func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// startServe runs the test binary as `retrylab ARGS` (TestMain) and
// returns its base URL and process id once it has said where it listens;
// the process is interrupted at the test's end.
func startServe(t *testing.T, ctx context.Context, args []string) (string, int) {
	t.Helper()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+strings.Join(args, "\n"))
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
	})
	line, err := bufio.NewReader(out).ReadString('\n') // "retrylab serve: http://ADDR/ (dist …)"; bounded by ctx
	if err != nil {
		t.Fatalf("server's first line: %v", err)
	}
	base, _, ok := strings.Cut(strings.TrimPrefix(line, "retrylab serve: "), "/ ")
	if !ok || !strings.HasPrefix(base, "http://127.0.0.1:") {
		t.Fatalf("server said %q", line)
	}
	return base, cmd.Process.Pid
}

// peakRSS returns the peak resident set of process pid (VmHWM), in bytes.
func peakRSS(t *testing.T, pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatal("no VmHWM in /proc/PID/status")
	return 0
}
