package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUpToDate fails when core/calc's articles_gen.go is not what the
// markers make: a calculator added, moved or removed without
// `go generate ./core/calc`.
func TestUpToDate(t *testing.T) {
	want, err := generate("../..")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../../articles_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("core/calc/articles_gen.go is stale: run go generate ./core/calc")
	}
}

func TestMarkers(t *testing.T) {
	for _, tt := range []struct {
		name, src, err string
	}{
		{"ok", "//retrylab:calculator article=1 order=10\nfunc aCalc() *Calculator { return nil }\n", ""},
		{"no order", "//retrylab:calculator article=1\nfunc aCalc() *Calculator { return nil }\n", "want //retrylab:calculator article=N order=K"},
		{"bad key", "//retrylab:calculator article=1 place=3\nfunc aCalc() *Calculator { return nil }\n", "place=3"},
		{"wrong type", "//retrylab:calculator article=1 order=10\nfunc aCalc() int { return 0 }\n", "returning *Calculator"},
		{"same place", "//retrylab:calculator article=1 order=10\nfunc aCalc() *Calculator { return nil }\n\n//retrylab:calculator article=1 order=10\nfunc bCalc() *Calculator { return nil }\n", "both article=1 order=10"},
		{"gap", "//retrylab:calculator article=2 order=10\nfunc aCalc() *Calculator { return nil }\n", "article 1 has no calculator"},
		{"none", "func aCalc() *Calculator { return nil }\n", "no \"//retrylab:calculator\" line"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte("package calc\n\ntype Calculator struct{}\n\n"+tt.src), 0o644); err != nil {
				t.Fatal(err)
			}
			src, err := generate(dir)
			switch {
			case tt.err == "" && err != nil:
				t.Fatalf("error %v", err)
			case tt.err == "" && !bytes.Contains(src, []byte("func article1() []*Calculator")):
				t.Fatalf("no article1 in\n%s", src)
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Fatalf("error %v, want one containing %q", err, tt.err)
			}
		})
	}
}
