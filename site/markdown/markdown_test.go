package markdown

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"golang.org/x/tools/txtar"

	"retrylab/core/calc"
	"retrylab/core/standin/query"
	"retrylab/site/cite"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// testConverter renders widgets and citations with simple stand-ins, so
// that these tests check the Markdown machinery and not the widget markup
// (site/widget has its own tests).
func testConverter(files fstest.MapFS) *Converter {
	return New(Options{
		Registry: calc.New(),
		Include:  files,
		Widget: func(w *Widget) (string, error) {
			return fmt.Sprintf(`<section class="widget" data-widget="%s" id="%s" data-defaults="%s"></section>`,
				w.Calc.Name, w.ID, query.Encode(w.Args.Query())), nil
		},
		Cite: func(w *Widget, field, format string) (string, any, error) {
			fields, order, err := w.Fields()
			if f, ok := strings.CutPrefix(field, "compare."); ok {
				fields, order, err = w.VariantFields()
				field = f
			}
			if err != nil {
				return "", nil, err
			}
			// the one check of a citation's field (site/widget's Cite
			// makes it too)
			list := make([]cite.Field, len(order))
			for i, name := range order {
				list[i] = cite.Field{Name: name, Raw: fields[name]}
			}
			raw, err := cite.Lookup(w.Calc.Name, list, field)
			if err != nil {
				return "", nil, err
			}
			var v any
			json.Unmarshal(raw, &v)
			if format == "bad" {
				return "", nil, fmt.Errorf("unknown format %q", format)
			}
			return fmt.Sprintf("%v|%s", v, format), v, nil
		},
	})
}

// TestGolden converts testdata/*.txtar: page.md (plus any other file, which
// include blocks read) must give page.html, or the errors in errors.
// go test -run TestGolden -update rewrites the expectations.
func TestGolden(t *testing.T) {
	paths, _ := filepath.Glob("testdata/*.txtar")
	if len(paths) == 0 {
		t.Fatal("no golden files")
	}
	for _, path := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			files := fstest.MapFS{}
			var src []byte
			want := map[string]string{}
			for _, f := range ar.Files {
				switch f.Name {
				case "page.md":
					src = f.Data
				case "page.html", "errors":
					want[f.Name] = string(f.Data)
				default:
					files[f.Name] = &fstest.MapFile{Data: f.Data}
				}
			}
			if src == nil {
				t.Fatal("no page.md")
			}
			got := map[string]string{}
			page, err := testConverter(files).Convert("page.md", src)
			if err != nil {
				got["errors"] = err.Error() + "\n"
			} else {
				got["page.html"] = string(page.HTML)
			}
			if *update {
				var out []txtar.File
				for _, f := range ar.Files {
					if f.Name != "page.html" && f.Name != "errors" {
						out = append(out, f)
					}
				}
				for _, name := range []string{"page.html", "errors"} {
					if g, ok := got[name]; ok {
						out = append(out, txtar.File{Name: name, Data: []byte(g)})
					}
				}
				ar.Files = out
				if err := os.WriteFile(path, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			for _, name := range []string{"page.html", "errors"} {
				if got[name] != want[name] {
					t.Errorf("%s:\n--- got\n%s\n--- want\n%s", name, got[name], want[name])
				}
			}
		})
	}
}
