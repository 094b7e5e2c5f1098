package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"retrylab/site/build"
)

func init() { commands["build"] = runBuild }

// runBuild implements `retrylab build`.
func runBuild(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("retrylab build", flag.ContinueOnError)
	fl.SetOutput(stderr)
	content := fl.String("content", "content", "the content tree: <lang>/*.md and <lang>/strings.toml")
	out := fl.String("out", "dist", "the output directory (replaced)")
	base := fl.String("base-url", "/", "where the site lives: /, /sub/path/ or https://host/sub/path/")
	wasm := fl.String("wasm", "build/playground.wasm", "the playground module; wasm_exec.js is read beside it (absent: static pages)")
	repo := fl.String("repo", ".", "the repository root that include= code blocks read")
	cache := fl.String("cache", "build/cache", "where compressed copies of large assets are kept between builds (\"\": none)")
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if fl.NArg() > 0 {
		fmt.Fprintf(stderr, "retrylab build: unexpected argument %q\n", fl.Arg(0))
		return 2
	}
	start := time.Now()
	cfg := build.Config{
		Content:    os.DirFS(*content),
		ContentDir: filepath.ToSlash(filepath.Clean(*content)),
		Repo:       os.DirFS(*repo),
		BaseURL:    *base,
		CacheDir:   *cache,
	}
	if *wasm != "" {
		w, err := os.ReadFile(*wasm)
		switch {
		case err == nil:
			exec, err := os.ReadFile(filepath.Join(filepath.Dir(*wasm), "wasm_exec.js"))
			if err != nil {
				fmt.Fprintf(stderr, "retrylab build: %s needs wasm_exec.js beside it: %v\n", *wasm, err)
				return 1
			}
			cfg.Wasm, cfg.WasmExec = w, exec
		case errors.Is(err, os.ErrNotExist):
			fmt.Fprintf(stderr, "retrylab build: %s not found: the pages will be static\n", *wasm)
		default:
			fmt.Fprintf(stderr, "retrylab build: %v\n", err)
			return 1
		}
	}
	site, err := build.Build(cfg)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	if err := site.Write(*out); err != nil {
		fmt.Fprintf(stderr, "retrylab build: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "retrylab build: %d files in %s (%s)\n", len(site.Files), *out, time.Since(start).Round(time.Millisecond))
	return 0
}
