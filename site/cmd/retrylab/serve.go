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
	if err := fl.Parse(args); err != nil {
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
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "retrylab serve: %v\n", err)
		return 1
	}
	srv := &http.Server{
		Handler:           server.New(server.Config{Dist: os.DirFS(*dist), Base: *base}),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
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
