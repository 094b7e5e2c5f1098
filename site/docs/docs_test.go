package docs

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// root is the module's root, from this package's folder.
const root = "../.."

// topDirs are the first segments of the project's paths: a backticked
// token that starts with one of them (and has a slash) is a path.
var topDirs = []string{"core/", "site/", "wasm/", "content/", ".ci/"}

// topFiles are the project's files at the top, named alone.
var topFiles = map[string]bool{"go.mod": true, "go.sum": true, "build.sh": true, "Makefile": true, "README.md": true}

var (
	codeSpan = regexp.MustCompile("`([^`\n]+)`")
	mdLink   = regexp.MustCompile(`\]\(([^)\s#]+)(#[^)]*)?\)`)
	makeCall = regexp.MustCompile("`make ([a-z][a-z-]*)")
	target   = regexp.MustCompile(`(?m)^([a-z][a-z-]*):`)
	// generated names the paths the build writes (dist/, build/) and
	// those a document gives as examples of the reader's own files.
	generated = regexp.MustCompile(`^(dist|build|node_modules|e2e-out|testdata)(/|$)`)
)

// documents returns the project's Markdown files outside the articles
// (content/LANG/*.md are the articles, checked by the site's build).
func documents(t *testing.T) []string {
	var docs []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if name == "node_modules" || name == "testdata" || (strings.HasPrefix(name, ".") && p != root) ||
				name == "dist" || name == "build" {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		if strings.HasSuffix(name, ".md") && !isArticle(rel) {
			docs = append(docs, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) < 2 {
		t.Fatalf("found %d documents (%v): README.md and content/README.md at least", len(docs), docs)
	}
	return docs
}

// isArticle reports whether rel is content/LANG/NAME.md.
func isArticle(rel string) bool {
	parts := strings.Split(filepath.ToSlash(rel), "/")
	return len(parts) == 3 && parts[0] == "content" && parts[1] != ""
}

// candidate returns the path a backticked token names, if it names one:
// a token of one word that starts with a top folder or is a top file,
// without a trailing punctuation, a line suffix (:12) or a wildcard.
func candidate(tok string) (string, bool) {
	tok = strings.TrimSpace(tok)
	if strings.ContainsAny(tok, " \t*?{}<>$=") || strings.Contains(tok, "...") {
		return "", false
	}
	tok = strings.TrimPrefix(tok, "./")
	if i := strings.IndexByte(tok, ':'); i > 0 {
		tok = tok[:i]
	}
	tok = strings.TrimRight(tok, ".,;")
	if topFiles[tok] {
		return tok, true
	}
	for _, d := range topDirs {
		if strings.HasPrefix(tok, d) {
			return strings.TrimSuffix(tok, "/"), true
		}
	}
	// a relative path outside the top folders (a docs folder, calc/): a
	// file name with a known ending, or a folder written with its slash
	if fileLike.MatchString(tok) {
		return strings.TrimSuffix(tok, "/"), true
	}
	return "", false
}

// fileLike is a path of words with a known ending, or a folder with its
// trailing slash: notes/x.md, calc/.
// A bare file name (app.js) is not checked: it may stand in any folder.
var fileLike = regexp.MustCompile(`^([A-Za-z0-9_.-]+/)+([A-Za-z0-9_.-]+\.(md|go|js|mjs|css|sh|toml|json|capnp|html))?$`)

// commandPaths returns the ./paths of the words of a command in a code
// span (go run ./site/cmd/retrylab, go test ./core/...), without the
// trailing /... of a pattern.
func commandPaths(span string) []string {
	var paths []string
	for _, w := range strings.Fields(span) {
		if !strings.HasPrefix(w, "./") || w == "./..." {
			continue
		}
		w = strings.TrimSuffix(strings.TrimPrefix(w, "./"), "/...")
		if p, ok := candidate(w); ok {
			paths = append(paths, p)
		}
	}
	return paths
}

// placeholder is a segment that stands for any name (NAME, LANG,
// SLUG.md).
var placeholder = regexp.MustCompile(`(^|/)[A-Z][A-Z_]*(\.[a-z]+)?(/|$)`)

// exists returns "" when p is a file or folder of the tree, or a Go
// package's identifier (core/limits.Limiter, site/widget.Spec.Values:
// the package's folder holds a declaration of each dotted name), and
// otherwise what is missing.
func exists(p string) string {
	if placeholder.MatchString(p) {
		return ""
	}
	if _, err := os.Stat(filepath.Join(root, p)); err == nil {
		return ""
	}
	dir, last := filepath.Split(p)
	pkg, idents, ok := strings.Cut(last, ".")
	if !ok || strings.ContainsAny(idents, "/") {
		return "no such file or folder"
	}
	pkgDir := filepath.Join(root, dir, pkg)
	files, _ := filepath.Glob(filepath.Join(pkgDir, "*.go"))
	if len(files) == 0 {
		return "no such file, folder or Go package"
	}
	var src strings.Builder
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err == nil {
			src.Write(b)
		}
	}
	for _, id := range strings.Split(idents, ".") {
		decl := regexp.MustCompile(`(?m)^\s*(func\s+(\([^)]*\)\s*)?|type\s+|var\s+|const\s+)?` + regexp.QuoteMeta(id) + `\b`)
		if !decl.MatchString(src.String()) {
			return "package " + filepath.ToSlash(filepath.Join(dir, pkg)) + " declares no " + id
		}
	}
	return ""
}

// TestPathsExist fails on a path a document names that does not exist.
func TestPathsExist(t *testing.T) {
	for _, doc := range documents(t) {
		b, err := os.ReadFile(filepath.Join(root, doc))
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		for _, m := range codeSpan.FindAllStringSubmatch(text, -1) {
			paths := commandPaths(m[1])
			if p, ok := candidate(m[1]); ok {
				paths = append(paths, p)
			}
			for _, p := range paths {
				if generated.MatchString(p) {
					continue
				}
				if problem := exists(p); problem != "" {
					t.Errorf("%s names `%s`: %s", doc, m[1], problem)
				}
			}
		}
		for _, m := range mdLink.FindAllStringSubmatch(text, -1) {
			link := m[1]
			if strings.Contains(link, "://") || strings.HasPrefix(link, "mailto:") || strings.HasPrefix(link, "/") {
				continue
			}
			p := filepath.Join(filepath.Dir(filepath.Join(root, doc)), link)
			if _, err := os.Stat(p); err != nil {
				t.Errorf("%s links to %s, which does not exist", doc, link)
			}
		}
	}
}

// TestMakeTargetsExist fails on a `make TARGET` a document names that
// the Makefile does not define.
func TestMakeTargetsExist(t *testing.T) {
	mk, err := os.ReadFile(filepath.Join(root, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	targets := map[string]bool{}
	for _, m := range target.FindAllStringSubmatch(string(mk), -1) {
		targets[m[1]] = true
	}
	if !targets["test"] || !targets["serve"] {
		t.Fatalf("the Makefile's targets %v lack test or serve", targets)
	}
	for _, doc := range documents(t) {
		b, err := os.ReadFile(filepath.Join(root, doc))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range makeCall.FindAllStringSubmatch(string(b), -1) {
			if !targets[m[1]] {
				t.Errorf("%s names `make %s`, which the Makefile does not define", doc, m[1])
			}
		}
	}
}

func TestCandidate(t *testing.T) {
	for _, tt := range []struct {
		tok, want string
		ok        bool
	}{
		{"core/calc/registry.go", "core/calc/registry.go", true},
		{"./site/cmd/retrylab", "site/cmd/retrylab", true},
		{"site/widget/set.go:193", "site/widget/set.go", true},
		{"content/LANG/*.md", "", false},
		{"go test ./...", "", false},
		{"README.md", "README.md", true},
		{"retrylab calc", "", false},
		{"wasm/playground/", "wasm/playground", true},
		{"docs/dom.md", "docs/dom.md", true},
		{"calc/", "calc", true},
		{"text/html", "", false},
	} {
		if got, ok := candidate(tt.tok); got != tt.want || ok != tt.ok {
			t.Errorf("candidate(%q) = %q, %v; want %q, %v", tt.tok, got, ok, tt.want, tt.ok)
		}
	}
	for _, tt := range []struct {
		path string
		ok   bool
	}{
		{"core/calc/registry.go", true},
		{"core/calc.Registry.Lookup", true},
		{"core/calc.NoSuchThing", false},
		{"core/nosuch/file.go", false},
		{"content/LANG/strings.toml", true},
		{"site/widget.Sets", true},
	} {
		if got := exists(tt.path); (got == "") != tt.ok {
			t.Errorf("exists(%q) = %q; want ok %v", tt.path, got, tt.ok)
		}
	}
}

// commentPath is a path with a known ending in a Go comment.
var commentPath = regexp.MustCompile(`\b(?:core|site|wasm|content|docs)/[A-Za-z0-9_./-]+\.(?:md|go|js|mjs|css|sh|toml|json|capnp|html)\b`)

// TestCommentPathsExist fails on a file a Go comment names (a document,
// a source file) that does not exist: comments are documents too.
func TestCommentPathsExist(t *testing.T) {
	checked := 0
	for _, top := range []string{"core", "site", "wasm"} {
		err := filepath.WalkDir(filepath.Join(root, top), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if d.Name() == "node_modules" || d.Name() == "testdata" {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(p, ".go") {
				return nil
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			for line := range strings.Lines(string(b)) {
				_, comment, ok := strings.Cut(line, "//")
				if !ok {
					continue
				}
				for _, m := range commentPath.FindAllString(comment, -1) {
					checked++
					if problem := exists(m); problem != "" {
						rel, _ := filepath.Rel(root, p)
						t.Errorf("%s: a comment names %s: %s", rel, m, problem)
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if checked < 50 {
		t.Fatalf("checked %d paths in comments; the tree names more", checked)
	}
}
