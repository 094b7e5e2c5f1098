package pages

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing/fstest"

	"github.com/andybalholm/brotli"

	"retrylab/site/assets"
	"retrylab/site/markdown"
	"retrylab/site/widget"
)

// hashLen is the number of hex digits of a content hash in asset names.
const hashLen = 12

// HashedName returns name.HASH.ext for content b.
func HashedName(name string, b []byte) string {
	sum := sha256.Sum256(b)
	ext := path.Ext(name)
	return strings.TrimSuffix(name, ext) + "." + hex.EncodeToString(sum[:])[:hashLen] + ext
}

// assets copies the style sheets, scripts, icon and playground into
// assets/ under hashed names, recording each name for the templates.
func (b *builder) assets() error {
	b.asset = map[string]string{}
	add := func(name string, data []byte) {
		hashed := "assets/" + HashedName(name, data)
		b.files[hashed] = data
		b.asset[name] = b.base.href(hashed)
	}
	read := func(name string) ([]byte, error) { return fs.ReadFile(assets.FS, name) }
	style, err := read("style.css")
	if err != nil {
		return err
	}
	var css bytes.Buffer
	css.Write(style)
	css.WriteString("\n/* widgets (site/widget) */\n")
	css.WriteString(widget.CSS())
	search, err := read("search.css")
	if err != nil {
		return err
	}
	css.WriteString("\n/* the search box (search.js) */\n")
	css.Write(search)
	css.WriteString("\n/* highlighted code (chroma) */\n")
	css.WriteString(markdown.CodeCSS(`:root[data-theme="dark"]`, `:root:not([data-theme="light"])`))
	add("style.css", css.Bytes())
	for _, name := range []string{"print.css", "theme.js", "app.js", "player.js", "favicon.svg", "search.js"} {
		data, err := read(name)
		if err != nil {
			return err
		}
		add(name, data)
	}
	if len(b.cfg.Wasm) > 0 && b.cfg.WasmExec != nil {
		// the modules are added as pages ask for them (module)
		add("wasm_exec.js", b.cfg.WasmExec)
		worker, err := read("playground-worker.js")
		if err != nil {
			return err
		}
		add("playground-worker.js", worker)
	}
	return b.embedAssets() // embeds and the classroom (embed.go)
}

// compressible reports whether a file gets .gz and .br siblings.
func compressible(name string) bool {
	switch path.Ext(name) {
	case ".html", ".css", ".js", ".svg", ".xml", ".txt", ".json", ".wasm":
		return true
	}
	return false
}

// compressCache remembers the compressed forms of large contents (the
// wasm) across builds in one process, by content hash.
var compressCache sync.Map // [32]byte → [2][]byte

// compress writes name.gz and name.br beside every compressible file,
// when compression saves something. Output is deterministic: gzip headers
// carry no name and no time. The error is zopfli's (Config.Zopfli).
func (b *builder) compress() error {
	names := sortedKeys(b.files)
	type job struct {
		name   string
		gz, br []byte
	}
	jobs := make([]job, len(names))
	var errOnce sync.Once
	var zerr error
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for i, name := range names {
		if !compressible(name) {
			continue
		}
		jobs[i].name = name
		wg.Add(1)
		sem <- struct{}{}
		go func(j *job, data []byte) {
			defer func() { <-sem; wg.Done() }()
			var err error
			j.gz, j.br, err = b.compressCached(data, brotliQuality(j.name, len(data)))
			if err != nil {
				errOnce.Do(func() { zerr = fmt.Errorf("%s: %w", j.name, err) })
			}
		}(&jobs[i], b.files[name])
	}
	wg.Wait()
	if zerr != nil {
		return zerr
	}
	for _, j := range jobs {
		if j.name == "" {
			continue
		}
		size := len(b.files[j.name])
		if len(j.gz) < size {
			b.files[j.name+".gz"] = j.gz
		}
		if len(j.br) < size {
			b.files[j.name+".br"] = j.br
		}
	}
	return nil
}

// brotliQuality trades build time for size: the hashed assets, compressed
// once per change and cached forever by browsers, get the best quality;
// pages, rebuilt with every edit, a fast one (quality 11 costs about 30
// times quality 5 for some 10 per cent; 5 is a third faster than 6 for
// under 1 per cent). The wasm module, megabytes, gets 11 too: some 10 s
// once per new module (Config.CacheDir keeps the result), for 950 KB
// instead of 1,075 KB at quality 9 (Go 1.26, BenchmarkCompressWasm), which
// every reader's first visit downloads.
func brotliQuality(name string, size int) int {
	if size > 256<<10 || strings.HasPrefix(name, "assets/") {
		return brotli.BestCompression
	}
	return 5
}

// compressBoth compresses data with gzip and brotli (quality). A large
// file (the wasm) is gzipped by the zopfli program at path zopfli when it
// is not "" (Config.Zopfli), by compress/gzip otherwise.
func compressBoth(data []byte, quality int, zopfli string) (gz, br []byte, err error) {
	var key [32]byte
	big := len(data) > 256<<10
	if big {
		// the gzip's maker is part of the key (no append to data, whose
		// array is the file's)
		h := sha256.New()
		h.Write(data)
		h.Write([]byte(zopfli))
		h.Sum(key[:0])
		if v, ok := compressCache.Load(key); ok {
			c := v.([2][]byte)
			return c[0], c[1], nil
		}
	}
	var g bytes.Buffer
	if big && zopfli != "" {
		z, err := zopfliGzip(zopfli, data)
		if err != nil {
			return nil, nil, err
		}
		g.Write(z)
	} else {
		zw, _ := gzip.NewWriterLevel(&g, gzip.BestCompression)
		zw.Write(data)
		zw.Close()
	}
	var r bytes.Buffer
	// A window no larger than the input keeps the encoder's tables small:
	// most of the time of a small file goes to clearing them.
	lgwin := 10
	for lgwin < 24 && 1<<lgwin < len(data) {
		lgwin++
	}
	bw := brotli.NewWriterOptions(&r, brotli.WriterOptions{Quality: quality, LGWin: lgwin})
	bw.Write(data)
	bw.Close()
	if big {
		compressCache.Store(key, [2][]byte{g.Bytes(), r.Bytes()})
	}
	return g.Bytes(), r.Bytes(), nil
}

// zopfliGzip gzips data with the zopfli program at path zopfli (Google's
// Zopfli, Debian's package zopfli: a deflate encoder that searches
// longer for matches; its stream is plain gzip, which every browser
// reads, 5 % smaller for the wasm modules than compress/gzip's best, in
// some 15 s a module, once: Config.CacheDir keeps it). The stream is
// read back and compared with data before it is used.
func zopfliGzip(zopfli string, data []byte) ([]byte, error) {
	dir, err := os.MkdirTemp("", "retrylab-zopfli")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	in := filepath.Join(dir, "m")
	if err := os.WriteFile(in, data, 0o600); err != nil {
		return nil, err
	}
	var out, stderr bytes.Buffer
	cmd := exec.Command(zopfli, "--gzip", "-c", in)
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("zopfli: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	zr, err := gzip.NewReader(bytes.NewReader(out.Bytes()))
	if err != nil {
		return nil, fmt.Errorf("zopfli wrote no gzip stream: %v", err)
	}
	back, err := io.ReadAll(zr)
	if err != nil || !bytes.Equal(back, data) {
		return nil, fmt.Errorf("zopfli's gzip stream does not read back as its input (%v)", err)
	}
	return out.Bytes(), nil
}

// compressCached is compressBoth with, for large files (the wasm), a cache
// on disk in Config.CacheDir keyed by content hash and quality, so that a
// rebuild with the same module does not compress it again.
func (b *builder) compressCached(data []byte, quality int) (gz, br []byte, err error) {
	if b.cfg.CacheDir == "" || len(data) <= 256<<10 {
		return compressBoth(data, quality, b.cfg.Zopfli)
	}
	sum := sha256.Sum256(data)
	stem := filepath.Join(b.cfg.CacheDir, hex.EncodeToString(sum[:16])+"-q"+strconv.Itoa(quality))
	if b.cfg.Zopfli != "" {
		stem += "-zopfli"
	}
	g, err1 := os.ReadFile(stem + ".gz")
	r, err2 := os.ReadFile(stem + ".br")
	if err1 == nil && err2 == nil {
		return g, r, nil
	}
	gz, br, err = compressBoth(data, quality, b.cfg.Zopfli)
	if err != nil {
		return nil, nil, err
	}
	if os.MkdirAll(b.cfg.CacheDir, 0o755) == nil {
		// Best effort: a cache that cannot be written only costs time.
		_ = writeAtomic(stem+".gz", gz)
		_ = writeAtomic(stem+".br", br)
	}
	return gz, br, nil
}

func writeAtomic(name string, data []byte) error {
	tmp := name + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, name)
}

// mapFS serves files from memory.
func mapFS(files map[string][]byte) fs.FS {
	m := fstest.MapFS{}
	for k, v := range files {
		m[k] = &fstest.MapFile{Data: v, Mode: 0o644}
	}
	return m
}
