//go:build linux

package main

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
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
	"/api/v1/backoff?workers=70000&max_attempts=15&max_elapsed_s=86400&cap_s=86400&width_s=1000&retry_after_s=3600",
	"/api/v1/jitter?clients=10000&base_ms=19800&width_ms=1",
	"/api/v1/peak?clients=1025&bins=11&threshold=43",
	"/api/v1/jitter.svg?clients=990000&waves=2&width_ms=10",
}

// TestServeUnderAbuse runs `retrylab serve` as a process of its own and,
// for a few seconds, 50 clients sending the largest requests it accepts
// back to back while a reader fetches a page every 100 ms: every heavy
// request gets a 200 within a second or a 429/503 with Retry-After, the
// page's p99 stays under 50 ms (plus the slowest fetch of the page alone
// just before, the machine's own noise: a few ms on an idle machine,
// tens when other tests share its cores; not judged at all when the
// load average is above twice the cores), the server's peak RSS (VmHWM) under
// 300 MB, and nothing else happens. The rate is raised above the default
// so that the in-flight limit, not only the token bucket, is reached.
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
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+strings.Join([]string{"serve", "-addr", "127.0.0.1:0", "-dist", dist, "-rate", "20", "-burst", "20"}, "\n"))
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
	}()
	line, err := bufio.NewReader(out).ReadString('\n') // "retrylab serve: http://ADDR/ (dist …)"; bounded by ctx
	if err != nil {
		t.Fatalf("server's first line: %v", err)
	}
	base, _, ok := strings.Cut(strings.TrimPrefix(line, "retrylab serve: "), "/ ")
	if !ok || !strings.HasPrefix(base, "http://127.0.0.1:") {
		t.Fatalf("server said %q", line)
	}
	// The machine's own noise: the page alone, fetched the same way.
	quiet, err := load.Abuse(ctx, load.AbuseConfig{BaseURL: base, Duration: time.Second, Page: "/it/", Bound: time.Second})
	if err != nil || quiet.Errors > 0 {
		t.Fatalf("the page alone: %v %v", quiet, err)
	}
	t.Logf("the page alone: p50 %v, max %v", quiet.PageP50, quiet.PageMax)
	res, err := load.Abuse(ctx, load.AbuseConfig{
		BaseURL: base, Heavy: abuseHeavy, Concurrency: 50, Duration: 3 * time.Second,
		Page: "/it/", PageEvery: 100 * time.Millisecond, Bound: time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Log(res)
	rss := peakRSS(t, cmd.Process.Pid)
	t.Logf("server's peak RSS: %.1f MB", float64(rss)/1e6)
	if res.Errors > 0 || res.OK == 0 || res.TooMany+res.Unavailable == 0 || res.Pages < 20 {
		t.Errorf("want only 200s and 429/503s with Retry-After, some of each, and the page every 100 ms: %v", res)
	}
	if rss > 300e6 {
		t.Errorf("server's peak RSS %d bytes, want under 300 MB", rss)
	}
	if res.PageP99 > 50*time.Millisecond+quiet.PageMax {
		if busy, l := load.Busy(); busy {
			t.Logf("page p99 %v not judged: the machine's load average is %.1f on %d cores, its scheduler's delays are not the server's", res.PageP99, l, runtime.NumCPU())
			return
		}
		t.Errorf("page p99 %v, want under 50 ms (plus the %v the page alone took at most); in order: %v", res.PageP99, quiet.PageMax, res.PageTimes)
	}
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
