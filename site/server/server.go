// Package server is the site's HTTP handler: the built pages and assets of
// dist/ (with their precompressed variants) and the calculators' API,
// GET /api/v1/NAME?key=value. It uses only an fs.FS and the calculator
// registry, so the same handler runs in `retrylab serve` and in the
// Cloudflare Worker.
package server

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	"retrylab/core/calc"
	"retrylab/core/meter"
	"retrylab/site/embed"
)

// Config configures the handler.
type Config struct {
	// Dist is the built site (the output of retrylab build).
	Dist fs.FS
	// Registry is the calculator registry (nil: calc.New()).
	Registry *calc.Registry
	// Base is the path the site lives under ("/" when empty); the API is
	// at Base+"api/v1/".
	Base string
	// WorkScale, > 0, is the fraction of each calculator's work bound
	// for the shared server (calc.Calculator.ServerWork) that this server
	// computes; 0 is 1. The Worker, whose wasm computes several times
	// slower, sets less; `retrylab serve -work-scale` may set more on a
	// machine faster than make bench's calibration.
	WorkScale float64
	// Stats receives the work counters (nil: the handler keeps its own);
	// GET Base+"api/stats" answers them (work.go).
	Stats *Stats
	// ComputeDeadline stops a computation that runs longer (0:
	// DefaultComputeDeadline; negative: none). A computation also stops
	// when its client hangs up.
	ComputeDeadline time.Duration
	// Version names the deployed code in the API's ETags (etag.go): a
	// new version invalidates every cached answer. Empty: the module
	// version, the clean VCS revision or the executable's hash
	// (buildVersion).
	Version string
}

// PageCSP is the Content-Security-Policy header of every response: the
// pages' meta policy plus frame-ancestors, which only a header can carry.
const PageCSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"

// Cache lifetimes.
const (
	cacheImmutable = "public, max-age=31536000, immutable"
	cacheShort     = "public, max-age=0, must-revalidate" // pages: revalidated with their ETag
	cacheAPI       = "public, max-age=3600"               // results are pure functions of the query
)

type handler struct {
	dist fs.FS
	reg  *calc.Registry
	base string
	work float64 // Config.WorkScale
	// stats and deadline: Config.Stats and ComputeDeadline (work.go)
	stats    *Stats
	own      Stats // stats when Config.Stats is nil (no allocation of its own)
	deadline time.Duration
	etag     sync.Map // file name → ETag of its identity content
	// locales holds the strings of the SVG endpoint by language (embed.go).
	locales sync.Map
	// regOnce builds the registry on first use when Config has none
	// (lazy.go): a static request never needs it.
	regOnce sync.Once
	// version is Config.Version, settled on first use (etag.go).
	version     string
	versionOnce sync.Once
}

// New returns the handler.
func New(cfg Config) http.Handler {
	h := &handler{dist: cfg.Dist, reg: cfg.Registry, base: cfg.Base, work: cfg.WorkScale, version: cfg.Version,
		stats: cfg.Stats, deadline: cfg.ComputeDeadline}
	if h.stats == nil {
		h.stats = &h.own
	}
	if h.deadline == 0 {
		h.deadline = DefaultComputeDeadline
	}
	if h.base == "" {
		h.base = "/"
	}
	if !strings.HasSuffix(h.base, "/") {
		h.base += "/"
	}
	return h
}

func securityHeaders(w http.ResponseWriter) {
	hd := w.Header()
	hd.Set("Content-Security-Policy", PageCSP)
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "strict-origin-when-cross-origin")
	hd.Set("X-Frame-Options", "DENY")
	hd.Set("Cross-Origin-Opener-Policy", "same-origin")
}

// The longest path the handler reads, in bytes as sent (escaped), and the
// most segments ('/'s) it may have: the site's own paths have a few dozen
// bytes and a handful of segments. Past them, 414 with the API's JSON
// error, before any other work on the path; the Worker's entry.mjs
// refuses the same (workerassets writes these numbers into it).
const (
	MaxPathBytes    = 1024
	MaxPathSegments = 32
)

// tooLong reports whether the escaped path p is past MaxPathBytes or
// MaxPathSegments, in one pass.
func tooLong(p string) bool {
	return len(p) > MaxPathBytes || strings.Count(p, "/") > MaxPathSegments
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	securityHeaders(w)
	if tooLong(r.URL.EscapedPath()) {
		writeJSONError(w, r, http.StatusRequestURITooLong, "", "uri_too_long",
			"the path is longer than this site's paths (at most "+itoa(MaxPathBytes)+" bytes and "+itoa(MaxPathSegments)+" segments)")
		return
	}
	p := r.URL.Path
	rel, ok := strings.CutPrefix(p, h.base)
	if !ok {
		if p+"/" == h.base {
			http.Redirect(w, r, h.base, http.StatusMovedPermanently)
			return
		}
		h.notFound(w, r)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		if isEmbedPath(rel) { // the embed's own headers, as its GET (embed.go)
			frameable(w, EmbedCSP)
		}
		if strings.HasPrefix(rel, APIRoot) {
			writeJSONError(w, r, http.StatusMethodNotAllowed, "", "", "method "+r.Method+" is not allowed; use GET")
			return
		}
		http.Error(w, "405 method not allowed", http.StatusMethodNotAllowed)
		return
	}
	if name, ok := strings.CutPrefix(rel, APIPath); ok {
		h.api(w, r, name)
		return
	}
	if rel == APIRoot+"stats" {
		h.serveStats(w, r)
		return
	}
	if strings.HasPrefix(rel, APIRoot) {
		writeJSONError(w, r, http.StatusNotFound, "", "", "no such API; the calculators are at "+h.base+APIPath+"NAME")
		return
	}
	if rel == embed.OEmbedPath { // the oEmbed provider endpoint (oembed.go)
		h.oembed(w, r)
		return
	}
	h.static(w, r, rel)
}

// api answers GET /api/v1/NAME?key=value with the calculator's JSON result
// followed by a newline: the bytes `retrylab calc NAME key=value` prints.
func (h *handler) api(w http.ResponseWriter, r *http.Request, name string) {
	if chart, ok := strings.CutSuffix(name, ChartSuffix); ok { // the chart as an image (embed.go)
		h.svg(w, r, chart)
		return
	}
	c, ok := h.registry().Lookup(name)
	if !ok {
		e := h.registry().UnknownError(name)
		writeJSONError(w, r, http.StatusNotFound, "", string(e.Code), e.Message)
		return
	}
	values, err := parseQuery(r.URL.RawQuery)
	if err != nil {
		writeJSONError(w, r, http.StatusBadRequest, queryParam(err), "syntax", err.Error())
		return
	}
	lang, msg := apiLang(r, values) // limits.go
	if msg != "" {
		writeJSONError(w, r, http.StatusBadRequest, "lang", "lang", msg)
		return
	}
	a, err := c.Parse(values)
	if err == nil {
		err = h.serverCheck(c, a, lang)
	}
	// a refused question has no ETag: only an answer can be cached
	if err == nil && h.cacheable(w, r, APIKey(name, a, false, "")) {
		return
	}
	var res any
	if err == nil {
		res, err = h.run(r, c, a)
	}
	if errors.Is(err, meter.ErrStopped) {
		clearCacheable(w)
		stopped(w, r)
		return
	}
	if err != nil {
		clearCacheable(w)
		h.calcError(w, r, c, lang, err)
		return
	}
	b, err := json.Marshal(res)
	if err != nil {
		clearCacheable(w)
		writeJSONError(w, r, http.StatusInternalServerError, "", "", "cannot encode the result")
		return
	}
	if len(b) > calc.MaxAnswerBytes { // the work bounds keep answers below (calc's TestServerWorkBudget)
		writeJSONError(w, r, http.StatusUnprocessableEntity, "", string(calc.CodeServer),
			"the answer would be "+itoa(len(b))+" bytes, more than the shared server sends ("+itoa(calc.MaxAnswerBytes)+")")
		return
	}
	b = append(b, '\n')
	writeBody(w, r, http.StatusOK, "application/json", b)
}

// apiError is the body of an API error.
type apiError struct {
	Error struct {
		Param   string `json:"param"`
		Code    string `json:"code,omitempty"`
		Message string `json:"message"`
	} `json:"error"`
}

func writeJSONError(w http.ResponseWriter, r *http.Request, status int, param, code, msg string) {
	var e apiError
	e.Error.Param, e.Error.Code, e.Error.Message = param, code, msg
	b, _ := json.Marshal(e)
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Access-Control-Allow-Origin", "*") // as the 200s: a caller on another origin reads the message
	writeBody(w, r, status, "application/json", append(b, '\n'))
}

func writeBody(w http.ResponseWriter, r *http.Request, status int, ctype string, b []byte) {
	hd := w.Header()
	hd.Set("Content-Type", ctype)
	hd.Set("Content-Length", itoa(len(b)))
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		w.Write(b)
	}
}

// static serves a file of dist/: rel "" or "dir/" is dir/index.html; a
// directory without its slash is redirected; a missing file is the 404
// page.
func (h *handler) static(w http.ResponseWriter, r *http.Request, rel string) {
	name := rel
	if name == "" || strings.HasSuffix(name, "/") {
		name += "index.html"
	}
	if !fs.ValidPath(name) || strings.Contains("/"+name, "/.") || strings.HasSuffix(name, ".gz") || strings.HasSuffix(name, ".br") {
		h.notFound(w, r)
		return
	}
	f, size, err := h.open(name)
	if err != nil {
		if _, err := fs.Stat(h.dist, path.Join(name, "index.html")); err == nil {
			target := h.base + rel + "/"
			if r.URL.RawQuery != "" {
				target += "?" + r.URL.RawQuery
			}
			http.Redirect(w, r, target, http.StatusMovedPermanently)
			return
		}
		h.notFound(w, r)
		return
	}
	defer f.Close()
	hd := w.Header()
	if isEmbedPath(rel) { // any site may frame an embed (embed.go)
		frameable(w, EmbedCSP)
	} else if strings.HasSuffix(name, ".svg") && strings.Contains(name, "/charts/") {
		frameable(w, SVGCSP)
	}
	if hashedName(name) {
		hd.Set("Cache-Control", cacheImmutable)
	} else {
		hd.Set("Cache-Control", cacheShort)
	}
	h.serveFile(w, r, name, f, size, http.StatusOK)
}

// open opens the regular file name of dist and returns its size; a
// directory is fs.ErrNotExist.
func (h *handler) open(name string) (fs.File, int64, error) {
	f, err := h.dist.Open(name)
	if err != nil {
		return nil, 0, err
	}
	fi, err := f.Stat()
	if err != nil || fi.IsDir() {
		f.Close()
		return nil, 0, fs.ErrNotExist
	}
	return f, fi.Size(), nil
}

// serveFile writes the opened file f (the identity content of name, size
// bytes) or its precompressed sibling chosen by Accept-Encoding, with
// ETag and conditional GET. The body is copied from the open file to the
// connection (natively, os.File to TCP: sendfile), never read whole into
// memory: a reader that does not read costs a file descriptor and the
// socket's buffers, not a copy of the file (issue 28; TestSlowReaders).
func (h *handler) serveFile(w http.ResponseWriter, r *http.Request, name string, f fs.File, size int64, status int) {
	hd := w.Header()
	ctype := contentType(path.Ext(name))
	etag := h.etagOf(name, f)
	body, enc := f, ""
	for _, e := range acceptedEncodings(r.Header.Get("Accept-Encoding")) {
		ext := map[string]string{"br": ".br", "gzip": ".gz"}[e]
		if cf, csize, err := h.open(name + ext); err == nil {
			defer cf.Close()
			body, size, enc = cf, csize, e
			break
		}
	}
	if _, err := fs.Stat(h.dist, name+".gz"); err == nil {
		hd.Add("Vary", "Accept-Encoding")
	} else if _, err := fs.Stat(h.dist, name+".br"); err == nil {
		hd.Add("Vary", "Accept-Encoding")
	}
	if enc != "" {
		hd.Set("Content-Encoding", enc)
		etag = strings.TrimSuffix(etag, `"`) + "-" + enc + `"`
	}
	if status == http.StatusOK && etag != "" {
		hd.Set("ETag", etag)
		if inm := r.Header.Get("If-None-Match"); inm != "" && etagMatch(inm, etag) {
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	hd.Set("Content-Type", ctype)
	hd.Set("Content-Length", strconv.FormatInt(size, 10))
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		// dist is read-only while served: the file has the size it had
		// at Stat. An error is the client's: it went away or stopped
		// reading.
		io.Copy(w, body)
	}
}

// etagOf returns the ETag of name's identity content, computed once per
// name by reading f (name, opened) through a hash and seeking it back to
// its start, or by reading name anew when f cannot seek ("" when it cannot
// be read).
func (h *handler) etagOf(name string, f fs.File) string {
	if v, ok := h.etag.Load(name); ok {
		return v.(string)
	}
	sk, ok := f.(io.Seeker)
	if !ok {
		g, err := h.dist.Open(name)
		if err != nil {
			return ""
		}
		defer g.Close()
		f = g
	}
	sum := sha256.New()
	if _, err := io.Copy(sum, f); err != nil {
		return ""
	}
	if ok {
		if _, err := sk.Seek(0, io.SeekStart); err != nil {
			return ""
		}
	}
	e := `"` + hex.EncodeToString(sum.Sum(nil)[:8]) + `"`
	h.etag.Store(name, e)
	return e
}

func etagMatch(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimSpace(t)
		if t == "*" || strings.TrimPrefix(t, "W/") == etag {
			return true
		}
	}
	return false
}

// acceptedEncodings returns the encodings the client accepts among br and
// gzip, best first (q=0 refuses one).
func acceptedEncodings(header string) []string {
	ok := map[string]bool{}
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		name = strings.ToLower(strings.TrimSpace(name))
		q := strings.ReplaceAll(strings.TrimSpace(params), " ", "")
		if q == "q=0" || q == "q=0.0" || q == "q=0.00" || q == "q=0.000" {
			ok[name] = false
			continue
		}
		if _, seen := ok[name]; !seen || ok[name] {
			ok[name] = true
		}
	}
	var out []string
	for _, e := range []string{"br", "gzip"} {
		if v, seen := ok[e]; (seen && v) || (!seen && ok["*"]) {
			out = append(out, e)
		}
	}
	return out
}

func (h *handler) notFound(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	f, size, err := h.open("404.html")
	if err != nil {
		writeBody(w, r, http.StatusNotFound, "text/plain; charset=utf-8", []byte("404 page not found\n"))
		return
	}
	defer f.Close()
	h.serveFile(w, r, "404.html", f, size, http.StatusNotFound)
}

func itoa(n int) string {
	var b [20]byte
	i := len(b)
	if n == 0 {
		return "0"
	}
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}
