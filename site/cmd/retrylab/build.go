package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"retrylab/site/pages"
	"retrylab/site/search"
	"retrylab/site/widget"
)

func init() { commands["build"] = runBuild }

// runBuild implements `retrylab build`.
func runBuild(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("retrylab build", flag.ContinueOnError)
	fl.SetOutput(stderr)
	content := fl.String("content", "content", "the content tree: <lang>/*.md and <lang>/strings.toml")
	out := fl.String("out", "dist", "the output directory (replaced)")
	base := fl.String("base-url", "/", "where the site lives: /, /sub/path/ or https://host/sub/path/")
	wasm := fl.String("wasm", "build", "the directory of the playground modules, playground-NAME.wasm for each calculator set, and of wasm_exec.js (none there: static pages)")
	repo := fl.String("repo", ".", "the repository root that include= code blocks read")
	cache := fl.String("cache", "build/cache", "where compressed copies of large assets are kept between builds (\"\": none)")
	searchMode := fl.String("search", "auto", "the search index (Pagefind, site/search): auto (when installed), require (fail without it), off")
	zopfliMode := fl.String("zopfli", "auto", "gzip the wasm modules with the zopfli program (5 % smaller than Go's gzip): auto (when installed), require (fail without it), off")
	previews := fl.Bool("previews", true, "draw the link-preview images (Open Graph, Twitter cards); the Chinese ones need a CJK font (fonts-noto-cjk or RETRYLAB_CJK_FONT)")
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if fl.NArg() > 0 {
		fmt.Fprintf(stderr, "retrylab build: unexpected argument %q\n", fl.Arg(0))
		return 2
	}
	if *searchMode != "auto" && *searchMode != "require" && *searchMode != "off" {
		fmt.Fprintf(stderr, "retrylab build: -search must be auto, require or off, not %q\n", *searchMode)
		return 2
	}
	zopfli := ""
	switch *zopfliMode {
	case "off":
	case "auto", "require":
		p, err := exec.LookPath("zopfli")
		if err != nil && *zopfliMode == "require" {
			fmt.Fprintf(stderr, "retrylab build: -zopfli require: %v (install Debian's zopfli: make deps)\n", err)
			return 1
		}
		if err == nil {
			zopfli = p
		}
	default:
		fmt.Fprintf(stderr, "retrylab build: -zopfli must be auto, require or off, not %q\n", *zopfliMode)
		return 2
	}
	start := time.Now()
	cfg := pages.Config{
		Content:    os.DirFS(*content),
		ContentDir: filepath.ToSlash(filepath.Clean(*content)),
		Repo:       os.DirFS(*repo),
		BaseURL:    *base,
		CacheDir:   *cache,
		Zopfli:     zopfli,
		Previews:   *previews,
	}
	if *wasm != "" {
		mods, exec, err := readModules(*wasm)
		switch {
		case err != nil:
			fmt.Fprintf(stderr, "retrylab build: %v\n", err)
			return 1
		case len(mods) == 0:
			fmt.Fprintf(stderr, "retrylab build: no playground module (playground-NAME.wasm) in %s: the pages will be static\n", *wasm)
		default:
			cfg.Wasm, cfg.WasmExec = mods, exec
		}
	}
	site, err := pages.Build(cfg)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	if err := site.Write(*out); err != nil {
		fmt.Fprintf(stderr, "retrylab build: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "retrylab build: %d files in %s (%s)\n", len(site.Files), *out, time.Since(start).Round(time.Millisecond))
	if *searchMode != "off" {
		bin, err := search.Binary(*repo)
		switch {
		case err != nil && *searchMode == "require":
			fmt.Fprintf(stderr, "retrylab build: %v\n", err)
			return 1
		case err != nil:
			fmt.Fprintf(stderr, "retrylab build: no search index: %v\n", err)
		default:
			t := time.Now()
			if err := search.Index(bin, *out); err != nil {
				fmt.Fprintf(stderr, "retrylab build: %v\n", err)
				return 1
			}
			fmt.Fprintf(stdout, "retrylab build: search index in %s/pagefind (%s)\n", *out, time.Since(t).Round(time.Millisecond))
		}
	}
	return 0
}

// readModules reads the playground modules of dir, playground-NAME.wasm
// for each set NAME of site/widget.Sets, and wasm_exec.js, which must be
// there when a module is. No module: nil and no error.
func readModules(dir string) (map[string][]byte, []byte, error) {
	mods := map[string][]byte{}
	for _, s := range widget.Sets() {
		file := filepath.Join(dir, "playground-"+s.Name()+".wasm")
		data, err := os.ReadFile(file)
		switch {
		case err == nil:
			mods[s.Name()] = data
		case !errors.Is(err, os.ErrNotExist):
			return nil, nil, err
		}
	}
	if len(mods) == 0 {
		return nil, nil, nil
	}
	exec, err := os.ReadFile(filepath.Join(dir, "wasm_exec.js"))
	if err != nil {
		return nil, nil, fmt.Errorf("the playground modules in %s need wasm_exec.js beside them: %v", dir, err)
	}
	return mods, exec, nil
}
