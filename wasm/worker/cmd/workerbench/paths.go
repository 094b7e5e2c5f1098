package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"retrylab/wasm/worker/local"
)

// longPathSegments are the lengths longPaths times, in segments of
// "/a".
var longPathSegments = []int{2000, 4000, 8000}

// longPathShapes are the paths longPaths times at each length: a plain
// path (which the assets layer looks up before the Worker runs: not in
// run_worker_first), the API's (run_worker_first's /api/*) and one with
// an empty segment (run_worker_first's //* and /*//*).
var longPathShapes = []struct{ name, prefix string }{
	{"plain", "/"},
	{"api", "/api/v1/"},
	{"empty-segment", "//"},
}

// longPaths sends paths of longPathSegments segments to the local
// workerd pair, one at a time, the least of 3 runs each, and prints the
// answer's status and error code, the CPU time of each process (the
// assets layer, "config", and the Worker, "worker": all threads, by the
// scheduler's nanosecond counts) and the wall time: where a long path's
// time goes before entry.mjs answers 414 (wasm/worker/README.md).
func longPaths(ctx context.Context, root string) error {
	w, err := local.Start(ctx, root, time.Minute)
	if err != nil {
		return err
	}
	defer w.Stop()
	procs := []string{"config", "worker"}
	sum := func(name string) (time.Duration, error) {
		th, err := local.Threads(w.PID(name))
		var s time.Duration
		for _, d := range th {
			s += d
		}
		return s, err
	}
	client := &http.Client{Timeout: 2 * time.Minute}
	type cost struct {
		cpu  [2]time.Duration
		wall time.Duration
	}
	get := func(path string) (cost, int, string, error) {
		var c cost
		var before [2]time.Duration
		for i, p := range procs {
			d, err := sum(p)
			if err != nil {
				return c, 0, "", err
			}
			before[i] = d
		}
		start := time.Now()
		res, err := client.Get(w.URL + path)
		if err != nil {
			return c, 0, "", err
		}
		body, err := io.ReadAll(res.Body)
		res.Body.Close()
		c.wall = time.Since(start)
		if err != nil {
			return c, 0, "", err
		}
		for i, p := range procs {
			d, err := sum(p)
			if err != nil {
				return c, 0, "", err
			}
			c.cpu[i] = d - before[i]
		}
		code := "-"
		if i := strings.Index(string(body), `"code":"`); i >= 0 && res.Header.Get("Content-Security-Policy") != "" {
			code, _, _ = strings.Cut(string(body[i+8:]), `"`)
		}
		return c, res.StatusCode, code, nil
	}
	if _, _, _, err := get("/api/v1/attempts"); err != nil { // start Go
		return err
	}
	fmt.Println("workerd-paths: long paths, one request at a time, the least of 3 runs: status, error code (with our headers), CPU time of the assets layer's process and of the Worker's (all threads), wall time")
	for _, n := range longPathSegments {
		for _, sh := range longPathShapes {
			path := sh.prefix + strings.Repeat("a/", n)
			var best cost
			var status int
			var code string
			for k := range 3 {
				c, st, cd, err := get(path)
				if err != nil {
					return err
				}
				if k == 0 || c.wall < best.wall {
					best, status, code = c, st, cd
				}
			}
			fmt.Printf("workerd-paths: %5d segments %-14s %d %-13s assets layer %8.2f ms, Worker %8.2f ms of CPU; wall %8.2f ms\n",
				n, sh.name, status, code, ms(best.cpu[0]), ms(best.cpu[1]), ms(best.wall))
		}
	}
	return nil
}
