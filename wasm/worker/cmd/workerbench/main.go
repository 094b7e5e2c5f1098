// Command workerbench measures the Cloudflare Worker on the real workerd
// binary against the native server (`make bench`, wasm/worker/bench.sh):
//
//	workerbench [-n 5000] [-c 16] [-timeout 15m]
//
// Both serve on 127.0.0.1 and get the same bounded requests in two runs of
// n/2: the static files (pages and assets, which Cloudflare serves without
// the Worker), then the Worker's own work (every calculator at its
// defaults, a 400, a 404), since the two differ by orders of magnitude. It
// prints requests per second, latency percentiles and workerd's resident
// memory before and after, and exits 1 if any request failed. Run it from
// the repository after `make worker`.
package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"retrylab/core/calc"
	"retrylab/wasm/worker/assetsdir"
	"retrylab/wasm/worker/load"
	"retrylab/wasm/worker/local"
	"retrylab/wasm/worker/parity"
)

func main() {
	n := flag.Int("n", 5000, "requests per server")
	c := flag.Int("c", 16, "requests in flight")
	timeout := flag.Duration("timeout", 15*time.Minute, "bound of each run")
	flag.Parse()
	if err := run(*n, *c, *timeout); err != nil {
		fmt.Fprintln(os.Stderr, "workerbench:", err)
		os.Exit(1)
	}
}

func run(n, c int, timeout time.Duration) error {
	root, err := local.Root(".")
	if err != nil {
		return err
	}
	h, err := parity.Native(filepath.Join(root, "dist"))
	if err != nil {
		return err
	}
	files, _, err := assetsdir.List(filepath.Join(root, "dist"))
	if err != nil {
		return err
	}
	var pages []string
	for _, f := range files {
		if p := assetsdir.URLPath(f); strings.HasSuffix(p, "/") || strings.HasSuffix(p, ".css") {
			pages = append(pages, p)
		}
		if len(pages) == 6 {
			break
		}
	}
	mix := parity.Mix(calc.New(), pages)
	runs := []struct {
		name    string
		targets []load.Target
	}{{"static", mix[:len(pages)]}, {"worker", mix[len(pages):]}}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	defer srv.Close()

	ctx := context.Background()
	w, err := local.Start(ctx, root, time.Minute)
	if err != nil {
		return err
	}
	defer w.Stop()
	before, err := w.RSS()
	if err != nil {
		return err
	}
	fmt.Printf("%d requests per server, %d at a time: %d on %d static files, %d on the Worker's %d targets (%d calculators, a 400, a 404)\n",
		n, c, n/2, len(pages), n-n/2, len(mix)-len(pages), len(calc.New().List()))
	failed := false
	for i, r := range runs {
		count := n / 2
		if i == 1 {
			count = n - n/2
		}
		for _, side := range []struct{ name, url string }{{"workerd", w.URL}, {"native", "http://" + ln.Addr().String()}} {
			res, err := load.Run(ctx, load.Config{BaseURL: side.url, Targets: r.targets, Requests: count, Concurrency: c, Timeout: timeout})
			if err != nil {
				return err
			}
			fmt.Printf("%-7s %-8s %v\n", r.name, side.name, res)
			for _, f := range res.Failures {
				fmt.Printf("         error: %s\n", f)
			}
			failed = failed || res.Errors > 0
		}
	}
	after, err := w.RSS()
	if err != nil {
		return err
	}
	fmt.Printf("workerd RSS: %.1f MiB before, %.1f MiB after the runs\n", float64(before)/(1<<20), float64(after)/(1<<20))
	if failed {
		return fmt.Errorf("some requests failed")
	}
	return nil
}
