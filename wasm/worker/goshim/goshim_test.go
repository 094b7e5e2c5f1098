package goshim

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWrite: Write puts both modules into the bundle, replacing the
// worker.mjs workers-assets-gen wrote, and worker.mjs wires goshim.mjs to
// the bundle's other modules.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "worker.mjs"), []byte("// workers-assets-gen's\n"), 0o644)
	if err := Write(dir); err != nil {
		t.Fatal(err)
	}
	worker, err := os.ReadFile(filepath.Join(dir, "worker.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`import "./wasm_exec.js";`,
		`import mod from "./app.wasm";`,
		`import { goShim } from "./goshim.mjs";`,
		`export default { fetch: shim.fetch, scheduled: shim.scheduled };`,
	} {
		if !strings.Contains(string(worker), want) {
			t.Errorf("worker.mjs lacks %s", want)
		}
	}
	shim, err := os.ReadFile(filepath.Join(dir, "goshim.mjs"))
	if err != nil || !strings.Contains(string(shim), "export function goShim(") {
		t.Errorf("goshim.mjs: %v, %.60q", err, shim)
	}
}
