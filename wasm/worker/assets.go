//go:build js && wasm

package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"strings"
	"syscall/js"
	"time"

	"github.com/syumai/workers/cloudflare"
)

// assetsFS is dist/ as the Worker sees it: the files of its static assets,
// read through the ASSETS binding of wrangler.toml's [assets] table (on
// workerd, the AssetWorker entrypoint of the assets service). Cloudflare
// answers requests for existing files before the Worker runs, so the
// handler reads here only what a miss needs: the 404 page, and the checks
// for a folder's index.html and for precompressed variants (which the
// Worker's assets leave out). A name that the assets do not serve with
// 200 does not exist.
type assetsFS struct{}

var (
	_ fs.ReadFileFS = assetsFS{}
	_ fs.StatFS     = assetsFS{}
)

// assetURL returns the URL the assets serve a file of dist/ at: with
// html_handling "auto-trailing-slash", dir/index.html is at dir/ and
// page.html at page (their own names redirect there).
func assetURL(name string) string {
	p := name
	switch {
	case p == "index.html":
		p = ""
	case strings.HasSuffix(p, "/index.html"):
		p = strings.TrimSuffix(p, "index.html")
	case strings.HasSuffix(p, ".html"):
		p = strings.TrimSuffix(p, ".html")
	}
	return "https://assets.invalid/" + (&url.URL{Path: p}).EscapedPath()
}

// fetchAsset sends method (GET or HEAD) for name through the binding and
// returns the body (GET) and the size the assets report.
func fetchAsset(op, method, name string) ([]byte, int64, error) {
	if !fs.ValidPath(name) {
		return nil, 0, &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	binding := cloudflare.GetBinding("ASSETS")
	if binding.IsUndefined() || binding.IsNull() {
		return nil, 0, &fs.PathError{Op: op, Path: name, Err: errors.New("the Worker has no ASSETS binding (see wasm/worker/wrangler.toml)")}
	}
	init := js.Global().Get("Object").New()
	init.Set("method", method)
	// A redirect of html_handling means: not a file under this name.
	init.Set("redirect", "manual")
	// Called as a method of the binding: syumai/workers' fetch.WithBinding
	// calls fetch detached, which workerd refuses ("Illegal invocation").
	res, err := await(binding.Call("fetch", assetURL(name), init))
	if err != nil {
		return nil, 0, &fs.PathError{Op: op, Path: name, Err: err}
	}
	switch status := res.Get("status").Int(); {
	case status == 200:
	case status == 404 || status >= 300 && status < 400:
		return nil, 0, &fs.PathError{Op: op, Path: name, Err: fs.ErrNotExist}
	default:
		return nil, 0, &fs.PathError{Op: op, Path: name, Err: fmt.Errorf("the assets answer %d", status)}
	}
	var size int64
	fmt.Sscan(res.Get("headers").Call("get", "content-length").String(), &size)
	if method == "HEAD" || res.Get("body").IsNull() {
		return nil, size, nil
	}
	buf, err := await(res.Call("arrayBuffer"))
	if err != nil {
		return nil, 0, &fs.PathError{Op: op, Path: name, Err: err}
	}
	b := make([]byte, buf.Get("byteLength").Int())
	js.CopyBytesToGo(b, js.Global().Get("Uint8Array").New(buf))
	return b, int64(len(b)), nil
}

func (assetsFS) ReadFile(name string) ([]byte, error) {
	b, _, err := fetchAsset("readfile", "GET", name)
	return b, err
}

func (assetsFS) Stat(name string) (fs.FileInfo, error) {
	_, size, err := fetchAsset("stat", "HEAD", name)
	if err != nil {
		return nil, err
	}
	return fileInfo{name: name, size: size}, nil
}

func (a assetsFS) Open(name string) (fs.File, error) {
	b, err := a.ReadFile(name)
	if err != nil {
		return nil, err
	}
	return &file{Reader: bytes.NewReader(b), info: fileInfo{name: name, size: int64(len(b))}}, nil
}

type file struct {
	*bytes.Reader
	info fileInfo
}

func (f *file) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *file) Close() error               { return nil }

type fileInfo struct {
	name string
	size int64
}

func (i fileInfo) Name() string       { return i.name[strings.LastIndex(i.name, "/")+1:] }
func (i fileInfo) Size() int64        { return i.size }
func (i fileInfo) Mode() fs.FileMode  { return 0o444 }
func (i fileInfo) ModTime() time.Time { return time.Time{} }
func (i fileInfo) IsDir() bool        { return false }
func (i fileInfo) Sys() any           { return nil }

// await waits, on a goroutine other than the event loop's (as handlers
// run), for a JavaScript promise and returns its value.
func await(p js.Value) (js.Value, error) {
	type result struct {
		v   js.Value
		err error
	}
	ch := make(chan result, 1)
	then := js.FuncOf(func(_ js.Value, args []js.Value) any {
		ch <- result{v: args[0]}
		return nil
	})
	catch := js.FuncOf(func(_ js.Value, args []js.Value) any {
		msg := "promise rejected"
		if len(args) > 0 {
			msg = args[0].Call("toString").String()
		}
		ch <- result{err: errors.New(msg)}
		return nil
	})
	defer then.Release()
	defer catch.Release()
	p.Call("then", then, catch)
	r := <-ch
	return r.v, r.err
}
