//go:build e2e

package main

import (
	"os"
	"path/filepath"
	"testing"

	"retrylab/site/server"
	"retrylab/wasm/internal/nodejs"
	"retrylab/wasm/worker/edge"
)

// TestAcceptLangAgreesWithGo: entry.mjs's acceptLang (the language of the
// Worker's own 500s) reads every header as site/server's does, in Node:
// the copy is held to Go by this table, and its weight grammar comes
// from Go (edge-rules.mjs's QVALUE). Node is a dependency of make test
// (the Worker's tests): its absence fails.
func TestAcceptLangAgreesWithGo(t *testing.T) {
	src, err := os.ReadFile("entry.mjs")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	files := map[string]string{
		"entry.mjs":      string(src),
		"worker.mjs":     "export default {};\n",
		"edge-data.mjs":  "export default {};\n",
		"edge.mjs":       "export function edge() {}\n",
		edge.RulesFile:   string(edge.Rules()),
		"acceptlang.mjs": "import { acceptLang } from \"./entry.mjs\";\nimport { readFileSync } from \"node:fs\";\nprocess.stdout.write(JSON.stringify(JSON.parse(readFileSync(0, \"utf8\")).map(acceptLang)));\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	headers := []string{
		"", "it", "es-ES", "zh-CN,zh;q=0.9", "en", "en-US,it;q=0.9", "it;q=0.5,es;q=0.8", "fr,it;q=0.1",
		"it;q=1", "it;q=1.000", "it;q=1.0001", "it;q=0", "it;q=0.", "it;q=.5", "it;q=0.5000", "it;q=5e-1",
		"it;q=0x1p-1", "it;q=NaN", "it;q=inf", "it;q=-0", "it;q=+0.5", "it;q = 0.5", "it; q=0.3, es; q=0.3",
		"es;q=0.2,en;q=0.3", "EN;q=0.9,ZH;q=0.95", "zh-Hant-TW", "  it  ", "it;level=1", "it;q=0.5;x=y", ",,,",
		"*", "*;q=0.1,es;q=0.05", "ja,zh;q=0.001", "it;q=0.9999", "es;q=1.0,it;q=1",
	}
	var got []string
	nodejs.Exchange(t, "hold entry.mjs's acceptLang to Go", dir, []string{"acceptlang.mjs"}, headers, &got)
	if len(got) != len(headers) {
		t.Fatalf("node: %d answers for %d headers", len(got), len(headers))
	}
	for i, h := range headers {
		if want := server.AcceptLang(h); got[i] != want {
			t.Errorf("Accept-Language %q: entry.mjs says %q, Go %q", h, got[i], want)
		}
	}
}
