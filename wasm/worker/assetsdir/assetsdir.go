// Package assetsdir turns dist/ into the static-assets folder of the
// Cloudflare Worker and derives, from the native handler, the headers that
// Cloudflare must add to those files (a _headers file), so that a page
// served as a static asset carries the same security headers as the same
// page served by `retrylab serve`. It also reads wrangler.toml, so that the
// local workerd run (wasm/worker/workerd.capnp) uses the deployment's settings.
package assetsdir

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
)

// Wrangler is the part of wrangler.toml that the build and the local run
// use.
type Wrangler struct {
	Name              string `toml:"name"`
	Main              string `toml:"main"`
	CompatibilityDate string `toml:"compatibility_date"`
	Assets            struct {
		Directory        string `toml:"directory"`
		Binding          string `toml:"binding"`
		HTMLHandling     string `toml:"html_handling"`
		NotFoundHandling string `toml:"not_found_handling"`
		RunWorkerFirst   Routes `toml:"run_worker_first"`
	} `toml:"assets"`
	Limits struct {
		CPUMS int `toml:"cpu_ms"` // CPU time of one request, ms
	} `toml:"limits"`
	// AbsDirectory is Assets.Directory made absolute (wrangler resolves it
	// against the folder of wrangler.toml).
	AbsDirectory string `toml:"-"`
}

// Routes is [assets] run_worker_first: true (the Worker runs first for
// every request), false (the zero value: only for the misses), or a list
// of route patterns, as wrangler 4.20 and later take it (a pattern starts
// with "/", "!/" excludes; "*" matches any characters, "/" included).
type Routes struct {
	All      bool
	Patterns []string
}

// UnmarshalTOML reads a boolean or a list of strings.
func (r *Routes) UnmarshalTOML(v any) error {
	switch v := v.(type) {
	case bool:
		*r = Routes{All: v}
		return nil
	case []any:
		*r = Routes{Patterns: []string{}}
		for _, p := range v {
			s, ok := p.(string)
			if !ok || !(strings.HasPrefix(s, "/") || strings.HasPrefix(s, "!/")) {
				return fmt.Errorf("run_worker_first: %v is not a route pattern (\"/...\" or \"!/...\")", p)
			}
			r.Patterns = append(r.Patterns, s)
		}
		if len(r.Patterns) == 0 {
			return errors.New("run_worker_first: an empty list")
		}
		return nil
	}
	return fmt.Errorf("run_worker_first: %v is neither a boolean nor a list of route patterns", v)
}

// value is r as assets.json (workerd's assets service) takes it: true, a
// list, or nil for false.
func (r Routes) value() any {
	switch {
	case r.Patterns != nil:
		return r.Patterns
	case r.All:
		return true
	}
	return nil
}

// Match reports whether a request for path (as the URL parser leaves it:
// dot segments resolved, percent-escapes kept) runs the Worker before the
// assets: a pattern matches and no "!/" pattern does, as Cloudflare's
// router decides.
func (r Routes) Match(path string) bool {
	if r.Patterns == nil {
		return r.All
	}
	in := false
	for _, p := range r.Patterns {
		if q, ok := strings.CutPrefix(p, "!"); ok {
			if glob(q, path) {
				return false
			}
		} else if glob(p, path) {
			in = true
		}
	}
	return in
}

// glob matches s against pattern, where "*" stands for any characters.
func glob(pattern, s string) bool {
	parts := strings.Split(pattern, "*")
	if len(parts) == 1 {
		return s == pattern
	}
	if !strings.HasPrefix(s, parts[0]) {
		return false
	}
	s = s[len(parts[0]):]
	for _, mid := range parts[1 : len(parts)-1] {
		i := strings.Index(s, mid)
		if i < 0 {
			return false
		}
		s = s[i+len(mid):]
	}
	return strings.HasSuffix(s, parts[len(parts)-1])
}

// ReadWrangler reads and checks a wrangler.toml. Keys this package does not
// know are allowed (wrangler has many), but the [assets] table must name a
// directory.
func ReadWrangler(file string) (Wrangler, error) {
	var w Wrangler
	if _, err := toml.DecodeFile(file, &w); err != nil {
		return w, fmt.Errorf("%s: %v", file, err)
	}
	if w.Assets.Directory == "" {
		return w, fmt.Errorf("%s: [assets] has no directory", file)
	}
	if w.CompatibilityDate == "" {
		return w, fmt.Errorf("%s: no compatibility_date", file)
	}
	abs, err := filepath.Abs(filepath.Join(filepath.Dir(file), w.Assets.Directory))
	if err != nil {
		return w, err
	}
	w.AbsDirectory = abs
	return w, nil
}

// Stats counts what Write wrote.
type Stats struct {
	Files   int   // files in the assets folder, _headers aside
	Bytes   int64 // their total size
	Skipped int   // precompressed variants left out
	Rules   int   // rules of _headers
}

// MaxRules is the number of rules Cloudflare accepts in a _headers file.
const MaxRules = 100

// Write replaces the folder public with the files of dist (hard links when
// the file system allows, copies otherwise) minus the precompressed
// variants (X.gz and X.br next to X), writes public/_headers with the
// headers that handler (the native site handler over dist) sends, and
// writes assets.json, the configuration of workerd's assets service, next
// to public.
func Write(dist, public string, w Wrangler, handler http.Handler) (Stats, error) {
	var st Stats
	files, skipped, err := List(dist)
	if err != nil {
		return st, err
	}
	st.Skipped = skipped
	if err := os.RemoveAll(public); err != nil {
		return st, err
	}
	for _, f := range files {
		if f == "_headers" || f == "_redirects" || f == ".assetsignore" {
			return st, fmt.Errorf("%s/%s: dist already holds a Cloudflare control file; the Worker build writes its own", dist, f)
		}
		src, dst := filepath.Join(dist, filepath.FromSlash(f)), filepath.Join(public, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return st, err
		}
		n, err := linkOrCopy(src, dst)
		if err != nil {
			return st, err
		}
		st.Files++
		st.Bytes += n
	}
	rules, err := Headers(handler, files)
	if err != nil {
		return st, err
	}
	st.Rules = len(rules)
	text := FormatHeaders(rules)
	if err := os.WriteFile(filepath.Join(public, "_headers"), []byte(text), 0o644); err != nil {
		return st, err
	}
	conf := map[string]any{"headers": text}
	if v := w.Assets.RunWorkerFirst.value(); v != nil {
		conf["run_worker_first"] = v
	}
	if w.Assets.HTMLHandling != "" {
		conf["html_handling"] = w.Assets.HTMLHandling
	}
	if w.Assets.NotFoundHandling != "" {
		conf["not_found_handling"] = w.Assets.NotFoundHandling
	}
	b, err := json.MarshalIndent(conf, "", "  ")
	if err != nil {
		return st, err
	}
	return st, os.WriteFile(filepath.Join(filepath.Dir(public), "assets.json"), append(b, '\n'), 0o644)
}

// List returns the slash-separated paths of the files of dist that are
// static assets, sorted, and the number of precompressed variants (X.gz or
// X.br whose X exists) left out.
func List(dist string) (files []string, skipped int, err error) {
	fsys := os.DirFS(dist)
	var all []string
	err = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			all = append(all, p)
		} else if !d.IsDir() {
			return fmt.Errorf("%s/%s: not a regular file", dist, p)
		}
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	sort.Strings(all)
	for _, p := range all {
		if base, ok := precompressed(p); ok {
			if _, found := slices.BinarySearch(all, base); found {
				skipped++
				continue
			}
		}
		files = append(files, p)
	}
	if len(files) == 0 {
		return nil, 0, fmt.Errorf("%s: no files (run `make build`)", dist)
	}
	return files, skipped, nil
}

func precompressed(p string) (string, bool) {
	for _, ext := range []string{".gz", ".br"} {
		if base, ok := strings.CutSuffix(p, ext); ok {
			return base, true
		}
	}
	return "", false
}

func linkOrCopy(src, dst string) (int64, error) {
	fi, err := os.Stat(src)
	if err != nil {
		return 0, err
	}
	if os.Link(src, dst) == nil {
		return fi.Size(), nil
	}
	in, err := os.Open(src)
	if err != nil {
		return 0, err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return 0, err
	}
	n, err := io.Copy(out, in)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return n, err
}

// URLPath returns the path a file of dist is requested at: index.html
// files at their folder (as html_handling "auto-trailing-slash" serves
// them), other files at their own path.
func URLPath(file string) string {
	if file == "index.html" {
		return "/"
	}
	if dir, ok := strings.CutSuffix(file, "/index.html"); ok {
		return "/" + dir + "/"
	}
	return "/" + file
}

// Rule is one rule of a _headers file: a URL pattern (a trailing * matches
// any rest), the headers it detaches (removes what a less specific rule
// set) and the headers it adds.
type Rule struct {
	Pattern string
	Detach  []string
	Header  http.Header
}

// perResponse lists the headers that describe one response rather than the
// site, which a _headers rule must not carry (Cloudflare sets them itself).
// Cache-Control is handled apart.
var perResponse = map[string]bool{
	"Content-Type": true, "Content-Length": true, "Content-Encoding": true, "Content-Range": true,
	"Date": true, "Etag": true, "Last-Modified": true, "Accept-Ranges": true, "Vary": true,
	"Cache-Control": true, "Location": true, "Allow": true,
}

// Headers asks handler for every file (GET, no Accept-Encoding) and derives
// the rules of _headers that make Cloudflare answer with the same headers:
// a rule "/*" with the headers of the root page (the security headers; the
// values most files share when there is no index.html),
// then rules for the folders, or files, whose headers differ from those
// (detaching and replacing them: embeddable pages may be framed) or whose
// Cache-Control has a positive max-age (content-hashed assets; Cloudflare's
// default is to revalidate). A folder's rule covers all its files at any
// depth. A file the handler does not answer with 200 is an error. The
// rule "/*" also gives every file Allow: GET, HEAD, for the assets layer's
// 405s.
func Headers(handler http.Handler, files []string) ([]Rule, error) {
	if handler == nil {
		return nil, errors.New("assetsdir: no handler to derive the headers from")
	}
	got := make([]http.Header, len(files))
	count := map[string]map[string]int{} // header → value → files
	for i, f := range files {
		rec := httptest.NewRecorder()
		handler.ServeHTTP(rec, httptest.NewRequest("GET", URLPath(f), nil))
		if rec.Code != http.StatusOK && !(f == "404.html" && rec.Code == http.StatusNotFound) {
			return nil, fmt.Errorf("the native handler answers %s with %d, want 200", URLPath(f), rec.Code)
		}
		h := http.Header{}
		for k, v := range rec.Result().Header {
			if !perResponse[k] {
				h[k] = v
				if count[k] == nil {
					count[k] = map[string]int{}
				}
				count[k][strings.Join(v, "\n")]++
			}
		}
		if cc := rec.Result().Header.Get("Cache-Control"); longLived(cc) {
			h.Set("Cache-Control", cc)
		}
		got[i] = h
	}
	// The base is the root page's headers, the site's own policy; without
	// a root page, the values most files share.
	base := http.Header{}
	if i := slices.Index(files, "index.html"); i >= 0 {
		for k, v := range got[i] {
			if k != "Cache-Control" {
				base[k] = v
			}
		}
	}
	for k, values := range count {
		if _, ok := base[k]; ok || slices.Contains(files, "index.html") {
			continue
		}
		best, n := "", 0
		for v, c := range values {
			if c > n || c == n && v < best {
				best, n = v, c
			}
		}
		if 2*n > len(files) {
			base[k] = strings.Split(best, "\n")
		}
	}
	if len(base) == 0 {
		return nil, errors.New("the native handler sends no site-wide header (no security headers?)")
	}
	ops := map[string]Rule{} // file → what its rule must do
	for i, f := range files {
		var r Rule
		for k, v := range base {
			if !slices.Equal(got[i][k], v) {
				r.Detach = append(r.Detach, k)
			}
		}
		for k, v := range got[i] {
			if !slices.Equal(base[k], v) {
				if r.Header == nil {
					r.Header = http.Header{}
				}
				r.Header[k] = v
			}
		}
		if r.Detach != nil || r.Header != nil {
			sort.Strings(r.Detach)
			ops[f] = r
		}
	}
	// Allow on every file: the assets layer answers the methods it does
	// not serve with a 405 and the file's _headers, and a 405 must carry
	// Allow (RFC 9110, section 10.2.1, which permits it on any other
	// answer too). The native handler sends it on its 405s only.
	all := base.Clone()
	all.Set("Allow", "GET, HEAD")
	rules := []Rule{{Pattern: "/*", Header: all}}
	rules = append(rules, groupRules(files, ops)...)
	if len(rules) > MaxRules {
		return nil, fmt.Errorf("%d header rules, Cloudflare accepts %d", len(rules), MaxRules)
	}
	return rules, nil
}

// longLived reports whether a Cache-Control value lets caches keep the
// response without revalidating (max-age > 0).
func longLived(cc string) bool {
	for _, d := range strings.Split(cc, ",") {
		d = strings.TrimSpace(strings.ToLower(d))
		if v, ok := strings.CutPrefix(d, "max-age="); ok {
			return v != "0"
		}
	}
	return false
}

// signature identifies what a rule does, to compare files.
func signature(r Rule) string {
	if r.Detach == nil && r.Header == nil {
		return ""
	}
	return FormatHeaders([]Rule{{Detach: r.Detach, Header: r.Header}})
}

// groupRules turns per-file rules into as few rules as it can: a folder
// whose files (at any depth) all need the same rule gets one rule
// "/folder/*"; the other files with a rule get one each.
func groupRules(files []string, ops map[string]Rule) []Rule {
	dirSet := map[string]bool{}
	for _, f := range files {
		for d := path.Dir(f); d != "."; d = path.Dir(d) {
			dirSet[d] = true
		}
	}
	dirs := make([]string, 0, len(dirSet))
	for d := range dirSet {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs) // a parent sorts before its children
	var rules []Rule
	var covered []string
	isCovered := func(f string) bool {
		for _, d := range covered {
			if strings.HasPrefix(f, d+"/") {
				return true
			}
		}
		return false
	}
	for _, d := range dirs {
		if isCovered(d) {
			continue
		}
		sig, first, same := "", true, true
		var rule Rule
		for _, f := range files {
			if !strings.HasPrefix(f, d+"/") {
				continue
			}
			s := signature(ops[f])
			if first {
				sig, rule, first = s, ops[f], false
			}
			same = same && s == sig
		}
		if same && sig != "" {
			rule.Pattern = "/" + d + "/*"
			rules = append(rules, rule)
			covered = append(covered, d)
		}
	}
	for _, f := range files {
		if r, ok := ops[f]; ok && !isCovered(f) {
			r.Pattern = URLPath(f)
			rules = append(rules, r)
		}
	}
	return rules
}

// FormatHeaders writes rules in the _headers syntax: the pattern on its own
// line, then one indented "! Name" line per detached header and one
// "Name: value" line per header, sorted.
func FormatHeaders(rules []Rule) string {
	var b strings.Builder
	for i, r := range rules {
		if i > 0 {
			b.WriteByte('\n')
		}
		if r.Pattern != "" {
			b.WriteString(r.Pattern + "\n")
		}
		for _, k := range r.Detach {
			b.WriteString("  ! " + k + "\n")
		}
		keys := make([]string, 0, len(r.Header))
		for k := range r.Header {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			for _, v := range r.Header[k] {
				b.WriteString("  " + k + ": " + v + "\n")
			}
		}
	}
	return b.String()
}
