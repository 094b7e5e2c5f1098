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

	"retrylab/wasm/worker/load"
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
	"/api/v1/jitter?clients=100000&waves=19&strategy=decorrelated&base_ms=1&cap_ms=1000&width_ms=100",
	"/api/v1/backoff?workers=60000&max_attempts=15&max_elapsed_s=86400&cap_s=86400&width_s=1000&retry_after_s=3600",
	"/api/v1/jitter?clients=10000&base_ms=19800&width_ms=1",
	"/api/v1/peak?clients=1025&bins=11&threshold=43",
	"/api/v1/jitter.svg?clients=890000&waves=2&width_ms=10",
}

var benchAbuse = flag.Bool("bench-abuse", false, "also print the page's absolute p99 under abuse beside the issue's goal (make bench: site/bench/abuse.sh)")

// pageGoal is the bound on the page's p99 while 50 clients send
// the largest requests the server accepts.
const pageGoal = 50 * time.Millisecond

// TestServeUnderAbuse runs `retrylab serve` as a process of its own and,
// for a few seconds, 50 clients sending the largest requests it accepts
// back to back while a reader fetches a page every 100 ms: every heavy
// request gets a 200 within a second or a 429/503 with Retry-After, the
// page a 200 every time, the server's peak RSS (VmHWM) stays under 300
// MB, nothing else happens, and the page does not wait behind the
// computations. That last is judged against a control: a second `retrylab
// serve` with the same flags, given no heavy request, from which the same
// page is fetched at the same moments. The page may be more than pageGoal
// (the 50 ms) behind the control's at no more than a tenth of the
// ticks (at most 3 of the 30). The machine's own stalls hit either server now and then: with
// four `yes` loops beside the test (load average 6-9 on 2 cores), 0-2
// ticks of 30 were more than 50 ms behind in about 25 runs, with tails of
// 50-330 ms on both servers, so a bound on the p99 of 30 fetches (their
// maximum) would judge the machine. The server's own queueing is caught:
// pages behind the computations' semaphore were behind or refused (503) at
// 7 of 27 ticks (a failure twice over: a page refused is an error); with
// no in-flight limit (ABUSE_SERVE_FLAGS="-max-inflight 50 -queue-wait 1s")
// 3 of 28 were behind, page p99 0.3-1.2 s, and heavy answers took more
// than their second in 3 runs of 4 (the failure then). Pages never share the
// computations' semaphore, and the default in-flight limit leaves a P free
// for them (site/server's TestShedInFlight, DefaultInFlight). The absolute
// p99 against the 50 ms is printed by `make bench`
// (site/bench/abuse.sh). The rate is raised above the default so that the
// in-flight limit, not only the token bucket, is reached.
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
		Page: "/it/", PageEvery: 100 * time.Millisecond, Bound: time.Second, Control: control,
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
	if n, most := res.Behind(pageGoal), max(3, len(res.PageTimes)/10); n > most {
		t.Errorf("the page was more than %v behind the idle server's at %d of %d ticks, want at most %d (a tenth, at least 3); in order: %v, the idle server's: %v",
			pageGoal, n, len(res.PageTimes), most, res.PageTimes, res.ControlTimes)
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
