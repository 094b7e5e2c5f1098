package widget

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestViewsRunNothing: no view runs a simulation or a trace of its own.
// What a view draws is in the result (the calculators record traces under
// calc.Args.WithTrace, asked for by viewTable.runArgs): the package's
// only run of a calculator is Render's, on runArgs, and a comparison's
// variant (Calculator.Vary). Checked on the syntax: a call of a core
// package's Run… or …Trace… function, or of a method named Trace,
// RunTraced or RunTracedMeter, in a file of the package.
func TestViewsRunNothing(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		core := map[string]bool{} // the names of the core packages imported
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if !strings.HasPrefix(p, "retrylab/core/") {
				continue
			}
			n := filepath.Base(p)
			if im.Name != nil {
				n = im.Name.Name
			}
			core[n] = true
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			checked++
			fn := sel.Sel.Name
			bad := false
			if x, ok := sel.X.(*ast.Ident); ok && core[x.Name] {
				bad = strings.HasPrefix(fn, "Run") || strings.Contains(fn, "Trace") || strings.HasPrefix(fn, "Simulate")
			} else {
				bad = fn == "Trace" || fn == "RunTraced" || fn == "RunTracedMeter"
			}
			if bad {
				t.Errorf("%s: a view computes: %s", fset.Position(call.Pos()), src[call.Pos()-1:call.Fun.End()-1])
			}
			return true
		})
	}
	if checked == 0 {
		t.Fatal("no call checked")
	}
}
