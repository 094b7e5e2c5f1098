//go:build !(js && wasm)

// Package core_test holds the rules every package under core/ keeps: the
// mathematics and simulations are pure Go, with no I/O, no syscall/js, no
// clock and no global randomness (time and randomness are arguments, as in
// golang.org/x/time/rate and math/rand/v2).
package core_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// harnesses are the folders under core/ that are not core, programs no
// module links: bench, the program core/bench/article1.sh runs to time
// the packages against CPython (it reads the clock by design), and
// calc/internal/articlegen, which go generate runs to write calc's
// article lists from its files.
var harnesses = map[string]bool{"bench": true, filepath.Join("calc", "internal", "articlegen"): true}

// forbiddenImports are the packages whose use is I/O, the host, or a
// global random source.
var forbiddenImports = map[string]string{
	"syscall/js":  "the browser",
	"syscall":     "the host",
	"os":          "I/O",
	"os/exec":     "I/O",
	"io/fs":       "I/O",
	"io/ioutil":   "I/O",
	"net":         "I/O",
	"net/http":    "I/O",
	"log":         "I/O",
	"log/slog":    "I/O",
	"math/rand":   "a global random source (math/rand/v2 with an explicit source instead)",
	"crypto/rand": "a global random source",
	"unsafe":      "memory outside Go's rules",
}

// clockFuncs are the functions of package time that read or wait on the
// clock; time.Time and time.Duration as values are fine.
var clockFuncs = map[string]bool{"Now": true, "Since": true, "Until": true, "Sleep": true, "After": true,
	"AfterFunc": true, "Tick": true, "NewTimer": true, "NewTicker": true}

// globalRand are math/rand/v2's top-level functions, which draw from the
// process-wide source; rand.New(rand.NewPCG(seed, …)) is the way in core.
var globalRand = map[string]bool{"Int": true, "IntN": true, "Int32": true, "Int32N": true, "Int64": true,
	"Int64N": true, "Uint": true, "UintN": true, "Uint32": true, "Uint32N": true, "Uint64": true,
	"Uint64N": true, "Float32": true, "Float64": true, "ExpFloat64": true, "NormFloat64": true, "Perm": true,
	"Shuffle": true, "N": true}

// TestPure parses every non-test Go file under core/ (generated files
// included) and fails on an import of I/O, the host or a global random
// source, on a call that reads the clock, and on a draw from math/rand/v2's
// global source.
func TestPure(t *testing.T) {
	fset := token.NewFileSet()
	files := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if harnesses[path] || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files++
		for _, msg := range impurities(f) {
			t.Errorf("%s: %s", path, msg)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 50 {
		t.Fatalf("parsed %d files under core/: the walk missed the packages", files)
	}
}

// impurities lists what breaks core's rules in one file.
func impurities(f *ast.File) []string {
	var msgs []string
	local := map[string]string{} // the file's name for package time and math/rand/v2
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		if why, bad := forbiddenImports[p]; bad {
			msgs = append(msgs, "imports "+p+": "+why)
		}
		if p == "time" || p == "math/rand/v2" {
			name := filepath.Base(strings.TrimSuffix(p, "/v2"))
			if imp.Name != nil {
				name = imp.Name.Name
			}
			local[name] = p
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		x, ok := sel.X.(*ast.Ident)
		if !ok {
			return true
		}
		switch local[x.Name] {
		case "time":
			if clockFuncs[sel.Sel.Name] {
				msgs = append(msgs, "reads the clock: time."+sel.Sel.Name+" (take the time as an argument)")
			}
		case "math/rand/v2":
			if globalRand[sel.Sel.Name] {
				msgs = append(msgs, "draws from the global source: rand."+sel.Sel.Name+" (take a *rand.Rand or a seed)")
			}
		}
		return true
	})
	return msgs
}

func TestImpurities(t *testing.T) {
	for _, c := range []struct {
		src  string
		want []string
	}{
		{`package p; import "time"; func f(t time.Time) time.Duration { return t.Sub(t) }`, nil},
		{`package p; import "time"; var x = time.Now()`, []string{"reads the clock: time.Now (take the time as an argument)"}},
		{`package p; import tm "time"; func f() { tm.Sleep(1) }`, []string{"reads the clock: time.Sleep (take the time as an argument)"}},
		{`package p; import "math/rand/v2"; var r = rand.New(rand.NewPCG(1, 2))`, nil},
		{`package p; import "math/rand/v2"; var x = rand.IntN(3)`, []string{"draws from the global source: rand.IntN (take a *rand.Rand or a seed)"}},
		{`package p; import "os"`, []string{"imports os: I/O"}},
		{`package p; import js "syscall/js"`, []string{"imports syscall/js: the browser"}},
		{`package p; import "math/rand"`, []string{"imports math/rand: a global random source (math/rand/v2 with an explicit source instead)"}},
	} {
		f, err := parser.ParseFile(token.NewFileSet(), "x.go", c.src, 0)
		if err != nil {
			t.Fatal(err)
		}
		if got := impurities(f); strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%s:\n got %q\nwant %q", c.src, got, c.want)
		}
	}
}

// TestSimulationsLinkLittle checks that the simulations the rate-limits
// and policies modules link (core/dispatch, core/policies and what they
// import from core) import neither context nor golang.org/x/time/rate
// (core/standin/tokenbucket is the limiter they run on: x/time/rate is its
// differential test's reference), and that dispatch, policies, limits and
// tokenbucket import no fmt: both cost the modules size for nothing.
func TestSimulationsLinkLittle(t *testing.T) {
	// go test runs with GOROOT/bin first on PATH: a missing go is a failure
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Fatal("no go command on PATH:", err)
	}
	cmd := exec.Command(gobin, "list", "-deps", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "./dispatch", "./policies")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	noFmt := map[string]bool{"retrylab/core/dispatch": true, "retrylab/core/policies": true,
		"retrylab/core/limits": true, "retrylab/core/standin/tokenbucket": true}
	seen := 0
	for line := range strings.Lines(string(out)) {
		f := strings.Fields(line)
		if len(f) == 0 || !strings.HasPrefix(f[0], "retrylab/") {
			continue
		}
		if noFmt[f[0]] {
			seen++
		}
		for _, imp := range f[1:] {
			switch {
			case imp == "context" || imp == "golang.org/x/time/rate":
				t.Errorf("%s imports %s", f[0], imp)
			case imp == "fmt" && noFmt[f[0]]:
				t.Errorf("%s imports fmt", f[0])
			}
		}
	}
	if seen != len(noFmt) {
		t.Fatalf("go list -deps lists %d of %d packages %v:\n%s", seen, len(noFmt), noFmt, out)
	}
}
