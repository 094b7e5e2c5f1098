// Command workerassets prepares the static assets of the Cloudflare Worker
// (`make worker` runs it after building the wasm):
//
//	workerassets [-dist dist] [-wrangler worker/wrangler.toml] [-out build/worker]
//
// It writes OUT/public, the files of dist/ without their precompressed
// .gz/.br variants (Cloudflare compresses on its own), plus a _headers file
// that gives the static assets the security and cache headers the native
// handler sends for them; and OUT/assets.json, the configuration of
// workerd's assets service (worker/workerd.capnp): the [assets] options of
// wrangler.toml and the text of _headers, so the local run and the
// deployment read the same settings. It also writes the Worker's edge
// layer next to app.wasm (worker/edge: entry.mjs, edge.mjs, edge-data.mjs).
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"retrylab/calc"
	"retrylab/worker/assetsdir"
	"retrylab/worker/edge"
	"retrylab/worker/parity"
)

func main() {
	dist := flag.String("dist", "dist", "the built site")
	wrangler := flag.String("wrangler", "worker/wrangler.toml", "the Worker's wrangler configuration")
	out := flag.String("out", "build/worker", "the Worker bundle folder")
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "workerassets: unexpected argument", flag.Arg(0))
		os.Exit(2)
	}
	if err := run(*dist, *wrangler, *out, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "workerassets:", err)
		os.Exit(1)
	}
}

func run(dist, wrangler, out string, stdout io.Writer) error {
	cfg, err := assetsdir.ReadWrangler(wrangler)
	if err != nil {
		return err
	}
	public := filepath.Join(out, "public")
	if want, _ := filepath.Abs(public); cfg.AbsDirectory != want {
		return fmt.Errorf("%s: [assets] directory is %s, but the assets are written to %s", wrangler, cfg.AbsDirectory, want)
	}
	h, err := parity.Native(dist)
	if err != nil {
		return err
	}
	st, err := assetsdir.Write(dist, public, cfg, h)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "workerassets: %d files (%d bytes) in %s, %d precompressed variants left out, %d header rules\n",
		st.Files, st.Bytes, public, st.Skipped, st.Rules)
	if err := edge.Write(out, dist, calc.New()); err != nil {
		return fmt.Errorf("the edge layer: %v", err)
	}
	fmt.Fprintf(stdout, "workerassets: the edge layer (%s) in %s\n", strings.Join(edge.Modules, ", "), out)
	return nil
}
