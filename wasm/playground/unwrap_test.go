//go:build !(js && wasm)

package playground

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestUnwrapCoversDOMv2 checks that elem and event (unwrap.go) have a case
// for every type dom/v2's wrapHTMLElement and wrapEvent can return, read
// from dom/v2's source in the module cache: a type without its case would
// make elem or event panic on a page.
func TestUnwrapCoversDOMv2(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	out, err := exec.Command(gobin, "list", "-m", "-f", "{{.Dir}}", "honnef.co/go/js/dom/v2").Output()
	if err != nil {
		t.Fatalf("go list -m honnef.co/go/js/dom/v2: %v", err)
	}
	dir := strings.TrimSpace(string(out))
	returned := map[string]map[string]bool{} // function -> types it returns
	for _, f := range []string{"dom.go", "events.go"} {
		file, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, f), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv != nil || (fd.Name.Name != "wrapHTMLElement" && fd.Name.Name != "wrapEvent") {
				continue
			}
			types := map[string]bool{}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if u, ok := n.(*ast.UnaryExpr); ok && u.Op == token.AND {
					if cl, ok := u.X.(*ast.CompositeLit); ok {
						if id, ok := cl.Type.(*ast.Ident); ok {
							types[id.Name] = true
						}
					}
				}
				return true
			})
			returned[fd.Name.Name] = types
		}
	}
	file, err := parser.ParseFile(token.NewFileSet(), "unwrap.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]map[string]bool{} // our function -> *dom.T it has a case for
	for _, d := range file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		types := map[string]bool{}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if cc, ok := n.(*ast.CaseClause); ok {
				for _, e := range cc.List {
					if s, ok := e.(*ast.StarExpr); ok {
						if sel, ok := s.X.(*ast.SelectorExpr); ok {
							types[sel.Sel.Name] = true
						}
					}
				}
			}
			return true
		})
		cases[fd.Name.Name] = types
	}
	for _, m := range []struct{ wrap, ours string }{{"wrapHTMLElement", "elem"}, {"wrapEvent", "event"}} {
		// the inner values the wrappers build (&BasicHTMLElement{…},
		// &UIEvent{…} inside &MouseEvent{…}) are returned too, or embedded
		if len(returned[m.wrap]) < 10 {
			t.Fatalf("dom/v2's %s returns %d types: has it changed? %v", m.wrap, len(returned[m.wrap]), returned[m.wrap])
		}
		for typ := range returned[m.wrap] {
			switch typ {
			case "URLUtils", "BasicElement", "BasicNode":
				// parts of what is returned (URLUtils of HTMLAnchorElement
				// and HTMLAreaElement; the other two inside the
				// BasicHTMLElement every element embeds), never returned
				continue
			}
			if !cases[m.ours][typ] {
				t.Errorf("dom/v2's %s can return *dom.%s, which %s (unwrap.go) has no case for", m.wrap, typ, m.ours)
			}
		}
	}
}
