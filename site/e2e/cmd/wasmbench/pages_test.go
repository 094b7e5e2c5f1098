package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestPageModules: a page's module is found by its data-wasm; a page
// whose module has no .gz is an error that names both.
func TestPageModules(t *testing.T) {
	dist := t.TempDir()
	write := func(rel, text string) {
		p := filepath.Join(dist, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("assets/playground-retries.abc.wasm.gz", "12345")
	write("it/retries/index.html", `<script src="/assets/app.js" data-wasm="/assets/playground-retries.abc.wasm"></script>`)
	write("it/embed/attempts/index.html", `<script data-wasm="/assets/playground-retries.abc.wasm"></script>`)
	write("it/glossary/index.html", `<p>no module</p>`)
	if err := pageModules(dist); err != nil {
		t.Fatal(err)
	}
	write("es/retries/index.html", `<script data-wasm="/assets/playground-retries.def.wasm"></script>`)
	if err := pageModules(dist); err == nil {
		t.Error("a module without its .gz was not reported")
	}
}
