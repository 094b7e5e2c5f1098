// Package pages renders the content tree (content/<lang>/*.md and
// content/<lang>/strings.toml) into a static site: one page per Markdown
// file and language with its widgets computed, a root page offering the
// languages, an index per language, sitemap.xml, robots.txt, a 404 page,
// and the assets under content-hashed names with gzip and brotli siblings.
// The output depends only on the input: two builds are byte-identical.
package pages

import (
	"bytes"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"retrylab/core/calc"
	"retrylab/site/locale"
	"retrylab/site/markdown"
)

// Config says what to build.
type Config struct {
	// Content is the content tree: <lang>/*.md and <lang>/strings.toml.
	Content fs.FS
	// ContentDir is the content tree's name in error messages ("content").
	ContentDir string
	// Repo is the repository, which `include=PATH` code blocks read.
	Repo fs.FS
	// BaseURL is where the site lives: "/" (the default), a sub-path
	// ("/retrylab/") or an absolute URL ("https://example.org/retrylab/").
	// With an absolute URL the canonical, hreflang, Open Graph and sitemap
	// URLs are absolute; otherwise they are paths.
	BaseURL string
	// Wasm holds the playground's WebAssembly modules by the name of their
	// calculator set (site/widget.Sets: "retries", "rate-limits", "all";
	// wasm/playground/NAME). A page with widgets loads the module of the
	// first set that holds all its calculators and was given (widget.For);
	// only the modules some page loads are written. WasmExec is Go's
	// wasm_exec.js. An empty Wasm or a nil WasmExec leaves the pages
	// static.
	Wasm     map[string][]byte
	WasmExec []byte
	// Registry is the calculator registry (nil: calc.New()).
	Registry *calc.Registry
	// CacheDir, when set, keeps the compressed forms of large assets (the
	// wasm) between builds, by content hash.
	CacheDir string
	// Zopfli, when set, is the path of the zopfli program, which gzips the
	// large assets (the wasm modules) 5 % smaller than compress/gzip
	// (zopfliGzip); "": compress/gzip.
	Zopfli string
	// Languages overrides the languages (nil: locale.Languages).
	Languages []string
	// Previews draws a link-preview image for every page and embed
	// (previews.go, site/preview), named by its Open Graph and Twitter
	// tags. The Chinese pages' need a CJK font (preview.FontsFor): without
	// one the build fails, naming the package to install.
	Previews bool
}

// Site is a built site: file path (slash-separated, relative to dist/) →
// content.
type Site struct {
	Files map[string][]byte
	// Pages holds the converted pages by language and slug ("" for the
	// language's index).
	Pages map[string]map[string]*markdown.Page
}

// Build renders the site. Content errors are reported together, each as
// file:line: message.
func Build(cfg Config) (*Site, error) {
	if cfg.Registry == nil {
		cfg.Registry = calc.New()
	}
	if cfg.ContentDir == "" {
		cfg.ContentDir = "content"
	}
	if cfg.Content == nil {
		return nil, fmt.Errorf("build: no content tree")
	}
	langs := cfg.Languages
	if langs == nil {
		langs = locale.Languages()
	}
	base, err := parseBase(cfg.BaseURL)
	if err != nil {
		return nil, err
	}
	b := &builder{cfg: cfg, langs: langs, base: base, files: map[string][]byte{}, locales: map[string]locale.Locale{}}
	var errs markdown.Errors
	// Strings and the list of pages of each language.
	slugs := map[string]map[string]bool{}
	for _, lang := range langs {
		dir := lang
		loc, err := loadStrings(cfg.Content, lang, cfg.ContentDir)
		if err != nil {
			errs = append(errs, asErrors(err)...)
			continue
		}
		b.locales[lang] = loc
		entries, err := fs.ReadDir(cfg.Content, dir)
		if err != nil {
			errs = append(errs, &markdown.Error{File: path.Join(cfg.ContentDir, dir), Line: 0, Msg: "no such directory: every language needs its folder"})
			continue
		}
		slugs[lang] = map[string]bool{}
		for _, e := range entries {
			name := e.Name()
			if e.IsDir() || !strings.HasSuffix(name, ".md") {
				continue
			}
			slug := strings.TrimSuffix(name, ".md")
			if !markdown.IsSlug(slug) {
				errs = append(errs, &markdown.Error{File: path.Join(cfg.ContentDir, dir, name), Line: 1, Msg: "file name must be lower-case letters, digits and '-', then .md"})
				continue
			}
			slugs[lang][slug] = true
		}
	}
	if len(errs) > 0 {
		errs.Sort()
		return nil, errs
	}
	// Every page exists in every language.
	all := map[string]bool{}
	for _, s := range slugs {
		for slug := range s {
			all[slug] = true
		}
	}
	if !all["index"] {
		errs = append(errs, &markdown.Error{File: path.Join(cfg.ContentDir, langs[0], "index.md"), Line: 0, Msg: "missing: every language needs an index.md"})
	}
	for slug := range all {
		var have, missing []string
		for _, lang := range langs {
			if slugs[lang][slug] {
				have = append(have, lang)
			} else {
				missing = append(missing, lang)
			}
		}
		for _, lang := range missing {
			errs = append(errs, &markdown.Error{
				File: path.Join(cfg.ContentDir, have[0], slug+".md"), Line: 1,
				Msg: fmt.Sprintf("the page has no %s translation: %s is missing", lang, path.Join(cfg.ContentDir, lang, slug+".md")),
			})
		}
	}
	if len(errs) > 0 {
		errs.Sort()
		return nil, errs
	}
	b.slugs = sortedKeys(all)
	if err := b.assets(); err != nil {
		return nil, err
	}
	// Convert every page, the languages in parallel.
	site := &Site{Files: b.files, Pages: map[string]map[string]*markdown.Page{}}
	results := make([]map[string]*markdown.Page, len(langs))
	langErrs := make([]markdown.Errors, len(langs))
	var wg sync.WaitGroup
	sem := make(chan struct{}, max(1, runtime.GOMAXPROCS(0)))
	for i, lang := range langs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			results[i], langErrs[i] = b.convertLang(lang)
		}()
	}
	wg.Wait()
	for i, lang := range langs {
		site.Pages[lang] = results[i]
		errs = append(errs, langErrs[i]...)
	}
	if len(errs) > 0 {
		errs.Sort()
		return nil, errs
	}
	b.pages = site.Pages
	if err := b.render(); err != nil {
		return nil, err
	}
	if err := b.compress(); err != nil {
		return nil, err
	}
	return site, nil
}

// convertLang converts every page of one language.
func (b *builder) convertLang(lang string) (map[string]*markdown.Page, markdown.Errors) {
	conv := b.converter(lang)
	pages := map[string]*markdown.Page{}
	var errs markdown.Errors
	for _, slug := range b.slugs {
		file := path.Join(lang, slug+".md")
		src, err := fs.ReadFile(b.cfg.Content, file)
		if err != nil {
			errs = append(errs, &markdown.Error{File: path.Join(b.cfg.ContentDir, file), Line: 0, Msg: err.Error()})
			continue
		}
		p, err := conv.Convert(path.Join(b.cfg.ContentDir, file), src)
		if err != nil {
			errs = append(errs, asErrors(err)...)
			continue
		}
		key := slug
		if slug == "index" {
			key = ""
		}
		pages[key] = p
	}
	return pages, errs
}

func asErrors(err error) markdown.Errors {
	switch e := err.(type) {
	case markdown.Errors:
		return e
	case *markdown.Error:
		return markdown.Errors{e}
	}
	return markdown.Errors{{File: "?", Msg: err.Error()}}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// baseURL is the parsed -base-url.
type baseURL struct {
	origin string // "https://example.org" or ""
	path   string // "/" or "/sub/"
}

func parseBase(s string) (baseURL, error) {
	if s == "" {
		s = "/"
	}
	u, err := url.Parse(s)
	if err != nil || u.RawQuery != "" || u.Fragment != "" || (u.Scheme == "") != (u.Host == "") ||
		u.Scheme != "" && u.Scheme != "https" && u.Scheme != "http" {
		return baseURL{}, fmt.Errorf("build: bad -base-url %q: write /, /sub/path/ or https://host/sub/path/", s)
	}
	p := u.Path
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	if !strings.HasSuffix(p, "/") {
		p += "/"
	}
	if strings.Contains(p, "//") || strings.ContainsAny(p, "\"'<> ") {
		return baseURL{}, fmt.Errorf("build: bad -base-url %q", s)
	}
	origin := ""
	if u.Host != "" {
		origin = u.Scheme + "://" + u.Host
	}
	return baseURL{origin: origin, path: p}, nil
}

// href returns the site-absolute path of p (relative to the site root).
func (b baseURL) href(p string) string { return b.path + strings.TrimPrefix(p, "/") }

// abs returns the absolute URL of p when the base has an origin, else its
// path.
func (b baseURL) abs(p string) string { return b.origin + b.href(p) }

// Write writes the site into dir. dir must not exist, be empty, or hold a
// previous build (an index.html and a sitemap.xml); it is then replaced.
func (s *Site) Write(dir string) error {
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		_, e1 := os.Stat(filepath.Join(dir, "index.html"))
		_, e2 := os.Stat(filepath.Join(dir, "sitemap.xml"))
		if e1 != nil || e2 != nil {
			return fmt.Errorf("build: %s is not empty and does not hold a previous build; refusing to replace it", dir)
		}
		if err := os.RemoveAll(dir); err != nil {
			return err
		}
	}
	for _, name := range sortedKeys(s.Files) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, s.Files[name], 0o644); err != nil {
			return err
		}
	}
	return nil
}

// FS returns the site as an fs.FS (for tests and the server).
func (s *Site) FS() fs.FS { return mapFS(s.Files) }

// Equal reports whether two sites have the same files with the same bytes.
func (s *Site) Equal(o *Site) bool {
	if len(s.Files) != len(o.Files) {
		return false
	}
	for k, v := range s.Files {
		if !bytes.Equal(v, o.Files[k]) {
			return false
		}
	}
	return true
}
