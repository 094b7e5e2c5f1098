// Command workerassets prepares the static assets of the Cloudflare Worker
// (`make worker` runs it after building the wasm):
//
//	workerassets [-dist dist] [-wrangler wasm/worker/wrangler.toml] [-out build/worker]
//
// It writes OUT/public, the files of dist/ without their precompressed
// .gz/.br variants (Cloudflare compresses on its own), plus a _headers file
// that gives the static assets the security and cache headers the native
// handler sends for them; and OUT/assets.json, the configuration of
// workerd's assets service (wasm/worker/workerd.capnp): the [assets] options of
// wrangler.toml and the text of _headers, so the local run and the
// deployment read the same settings; OUT/entry.mjs, the Worker's main
// module, which runs before the Go program and the assets (see its
// comment); the edge layer it calls for the API and the charts
// (wasm/worker/edge: edge.mjs, edge-data.mjs); and the shim that runs the
// Go program once per isolate (wasm/worker/goshim: worker.mjs, in place of
// workers-assets-gen's, and goshim.mjs).
package main

import (
	_ "embed"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"retrylab/core/calc"
	"retrylab/site/locale"
	"retrylab/site/server"
	"retrylab/wasm/worker/assetsdir"
	"retrylab/wasm/worker/edge"
	"retrylab/wasm/worker/goshim"
	"retrylab/wasm/worker/parity"
)

func main() {
	dist := flag.String("dist", "dist", "the built site")
	wrangler := flag.String("wrangler", "wasm/worker/wrangler.toml", "the Worker's wrangler configuration")
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
	if err := writeEntry(filepath.Join(out, "entry.mjs"), os.DirFS(dist), h); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "workerassets: %d files (%d bytes) in %s, %d precompressed variants left out, %d header rules; entry.mjs\n",
		st.Files, st.Bytes, public, st.Skipped, st.Rules)
	if err := edge.Write(out, dist, calc.New()); err != nil {
		return fmt.Errorf("the edge layer: %v", err)
	}
	fmt.Fprintf(stdout, "workerassets: the edge layer (%s) in %s\n", strings.Join(edge.Modules, ", "), out)
	if err := goshim.Write(out); err != nil {
		return fmt.Errorf("the Go shim: %v", err)
	}
	fmt.Fprintf(stdout, "workerassets: the Go shim (%s) in %s\n", strings.Join(goshim.Modules, ", "), out)
	return nil
}

//go:embed entry.mjs
var entry string

// internalEnglish is the message of the Worker's 500 (entry.mjs's
// internal: an exception in the Worker) in English; the other languages'
// is err.internal of their strings (content/LANG/strings.toml).
const internalEnglish = "the Worker failed on this request; retry, and report it if it persists"

// internalMessages returns the messages of the Worker's 500 by language
// ("" English), the others read from the built site's strings (dist's
// LANG/embed/strings.json, which the Go handler reads too).
func internalMessages(dist fs.FS) (map[string]string, error) {
	out := map[string]string{"": internalEnglish}
	for _, l := range locale.Languages() {
		name := l + "/embed/strings.json"
		b, err := fs.ReadFile(dist, name)
		if err != nil {
			return nil, err
		}
		var loc locale.Locale
		if err := json.Unmarshal(b, &loc); err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		m, ok := loc.Lookup("err.internal")
		if !ok || m == "" {
			return nil, fmt.Errorf("%s has no err.internal (content/%s/strings.toml)", name, l)
		}
		out[l] = m
	}
	return out, nil
}

// writeEntry writes the Worker's main module (entry.mjs, see its comment)
// with the headers the native handler h sends on the API's 400 answers
// and the messages of its 500 (internalMessages, from dist).
func writeEntry(file string, dist fs.FS, h http.Handler) error {
	msgs, err := internalMessages(dist)
	if err != nil {
		return err
	}
	mb, err := json.Marshal(msgs)
	if err != nil {
		return err
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/api/v1/attempts?q=%zz", nil))
	if rec.Code != http.StatusBadRequest {
		return fmt.Errorf("the native handler answers a bad escape with %d, want 400", rec.Code)
	}
	hd := map[string]string{}
	for k, v := range rec.Result().Header {
		if k != "Content-Length" {
			hd[k] = strings.Join(v, ", ")
		}
	}
	b, err := json.Marshal(hd) // sorted keys: the same file for the same handler
	if err != nil {
		return err
	}
	text := entry
	for mark, v := range map[string]string{
		"/*HEADERS*/{}":          string(b),
		"/*INTERNAL*/{}":         string(mb),
		"/*MAX_PATH_BYTES*/0":    strconv.Itoa(server.MaxPathBytes),
		"/*MAX_PATH_SEGMENTS*/0": strconv.Itoa(server.MaxPathSegments),
	} {
		if strings.Count(text, mark) != 1 {
			return fmt.Errorf("entry.mjs: want one %s", mark)
		}
		text = strings.Replace(text, mark, v, 1)
	}
	return os.WriteFile(file, []byte(text), 0o644)
}
