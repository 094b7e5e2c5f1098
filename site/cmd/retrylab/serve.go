package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"retrylab/site/server"
)

func init() { commands["serve"] = runServe }

// runServe implements `retrylab serve`: dist/ and the API on one address,
// until interrupted.
func runServe(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("retrylab serve", flag.ContinueOnError)
	fl.SetOutput(stderr)
	addr := fl.String("addr", "127.0.0.1:8080", "the address to listen on, host:port")
	dist := fl.String("dist", "dist", "the built site (retrylab build -out)")
	baseURL := fl.String("base-url", "/", "the -base-url the site was built with (its path is served)")
	inFlight := fl.Int("max-inflight", server.DefaultInFlight(), "heavy API requests computed at once (beyond: wait -queue-wait, then 503)")
	cheapInFlight := fl.Int("cheap-inflight", 0, "cheap API requests (declared work at most a tenth of the bound) computed at once, in a lane of their own (0: max(2, -max-inflight))")
	workScale := fl.Float64("work-scale", 1, "the share of each calculator's work bound this server computes, in (0, 100] (make bench calibrates 1 to 50 ms of CPU)")
	queueWait := fl.Duration("queue-wait", 100*time.Millisecond, "how long an API request waits for a computing slot before a 503")
	rateFlag := fl.Float64("rate", 5, "API requests a second per client address (an IPv6 address by its /64); beyond the burst, 429")
	burst := fl.Int("burst", 10, "API requests a client may make at once")
	memLimit := fl.Int("memory-limit", 256, "soft memory limit of the process in MiB (runtime/debug.SetMemoryLimit; 0: none)")
	maxConns := fl.Int("max-conns", 64, "connections one client address (an IPv6 address by its /64) may hold open; beyond, 503")
	writeIdle := fl.Duration("write-idle", 20*time.Second, "how long one write may wait for a client that reads nothing before its connection is closed")
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if *inFlight < 1 || *queueWait < 0 || !(*rateFlag > 0) || *burst < 1 || *memLimit < 0 || *maxConns < 1 || *writeIdle <= 0 {
		fmt.Fprintf(stderr, "retrylab serve: -max-inflight, -rate, -burst, -max-conns and -write-idle must be positive, -queue-wait and -memory-limit at least 0\n")
		return 2
	}
	if *cheapInFlight < 0 || !(*workScale > 0 && *workScale <= 100) {
		fmt.Fprintf(stderr, "retrylab serve: -cheap-inflight must be at least 0, -work-scale in (0, 100]\n")
		return 2
	}
	if fl.NArg() > 0 {
		fmt.Fprintf(stderr, "retrylab serve: unexpected argument %q\n", fl.Arg(0))
		return 2
	}
	u, err := url.Parse(*baseURL)
	if err != nil || u.RawQuery != "" {
		fmt.Fprintf(stderr, "retrylab serve: bad -base-url %q\n", *baseURL)
		return 2
	}
	basePath := "/" + strings.Trim(u.Path, "/") + "/"
	if basePath == "//" {
		basePath = "/"
	}
	base := &basePath
	if _, err := os.Stat(*dist + "/index.html"); err != nil {
		fmt.Fprintf(stderr, "retrylab serve: %s has no index.html: run retrylab build (or make build) first\n", *dist)
		return 1
	}
	tcp, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "retrylab serve: %v\n", err)
		return 1
	}
	// a cap on each client's connections, a bound on each write, and
	// net/http's own errors in our JSON (server.Listen)
	ln := server.Listen(tcp, server.ListenConfig{MaxPerClient: *maxConns, WriteIdle: *writeIdle})
	if *memLimit > 0 {
		debug.SetMemoryLimit(int64(*memLimit) << 20)
	}
	qw := *queueWait
	if qw == 0 {
		qw = -1 // ShedConfig's zero is its default; the flag's 0 is no wait
	}
	srv := &http.Server{
		Handler: server.Shed(server.New(server.Config{Dist: os.DirFS(*dist), Base: *base, WorkScale: *workScale}),
			server.ShedConfig{Base: *base, InFlight: *inFlight, CheapInFlight: *cheapInFlight, QueueWait: qw, Rate: *rateFlag, Burst: *burst}),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		// the whole response; each write also waits at most -write-idle
		// for a client that reads nothing (server.Listen)
		WriteTimeout:   10 * time.Minute,
		IdleTimeout:    120 * time.Second,
		MaxHeaderBytes: 64 << 10,
	}
	fmt.Fprintf(stdout, "retrylab serve: http://%s%s (dist %s); Ctrl-C stops\n", ln.Addr(), *base, *dist)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		if !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintf(stderr, "retrylab serve: %v\n", err)
			return 1
		}
	case <-ctx.Done():
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(shut)
	}
	return 0
}
