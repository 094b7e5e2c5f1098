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

// TestUnwrapCoversDOMv2 checks the layout elem (unwrap.go) reads,
// in dom/v2's source in the module cache: every type dom/v2's
// wrapHTMLElement can return either has its case in the type switch or
// is a struct whose first field is the embedded *BasicHTMLElement (events
// never pass through wrapEvent: listen.go). Another layout would make elem
// read the wrong pointer.
func TestUnwrapCoversDOMv2(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Fatal("no go command on PATH (go test puts GOROOT/bin first):", err)
	}
	out, err := exec.Command(gobin, "list", "-m", "-f", "{{.Dir}}", "honnef.co/go/js/dom/v2").Output()
	if err != nil {
		t.Fatalf("go list -m honnef.co/go/js/dom/v2: %v", err)
	}
	dir := strings.TrimSpace(string(out))
	returned := map[string]map[string]bool{} // function -> types it returns
	first := map[string]string{}             // struct type -> its first field's type ("*BasicHTMLElement")
	for _, f := range []string{"dom.go", "events.go"} {
		file, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, f), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.TYPE {
				for _, sp := range gd.Specs {
					ts := sp.(*ast.TypeSpec)
					if st, ok := ts.Type.(*ast.StructType); ok && len(st.Fields.List) > 0 {
						if star, ok := st.Fields.List[0].Type.(*ast.StarExpr); ok && len(st.Fields.List[0].Names) == 0 {
							if id, ok := star.X.(*ast.Ident); ok {
								first[ts.Name.Name] = "*" + id.Name
							}
						}
					}
				}
			}
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv != nil || fd.Name.Name != "wrapHTMLElement" {
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
	for _, m := range []struct{ wrap, ours, embeds string }{{"wrapHTMLElement", "elem", "*BasicHTMLElement"}} {
		// the inner values the wrappers build (&BasicHTMLElement{…},
		// &BasicElement{…} inside &BasicHTMLElement{…}) are returned too, or embedded
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
			if !cases[m.ours][typ] && first[typ] != m.embeds {
				t.Errorf("dom/v2's %s can return *dom.%s, whose first field is %q, not %s: %s (unwrap.go) needs a case for it", m.wrap, typ, first[typ], m.embeds, m.ours)
			}
		}
	}
}
