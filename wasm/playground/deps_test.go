//go:build !(js && wasm)

package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestKeptOut checks that the module links none of the packages the
// README says are kept out of it, each for its measured size: net/url
// (core/query instead) with net/netip, unique and weak; encoding/json
// (site/widget's encoder); crypto/sha256 and the FIPS 140 module
// (core/sha256sum); math/big with math/rand (core/bigint); runtime/debug
// (the loader sets GOGC in the runtime's environment) and embed
// (site/widget's CSS is only in native builds).
func TestKeptOut(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	cmd := exec.Command(gobin, "list", "-deps", ".")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := map[string]bool{}
	for _, p := range strings.Fields(string(out)) {
		deps[p] = true
	}
	if !deps["syscall/js"] || !deps["retrylab/calc"] {
		t.Fatalf("go list -deps lists neither syscall/js nor retrylab/calc:\n%s", out)
	}
	for _, p := range []string{"net/url", "net/netip", "unique", "weak", "encoding/json", "crypto/sha256", "crypto/internal/fips140", "math/big", "math/rand", "runtime/debug", "embed"} {
		if deps[p] {
			t.Errorf("the playground links %s; `GOOS=js GOARCH=wasm go list -deps -f '{{.ImportPath}}: {{.Imports}}' ./wasm/playground` shows who imports it", p)
		}
	}
}

// TestNoFmt checks that the browser's own packages (the playground,
// site/widget, site/locale) import none of fmt, os, time, embed, io/fs and
// runtime/debug: fmt and what it drags cost 80-170 KB gzip in a Go
// WebAssembly module, time alone some 42 KB. (core/ and calc/ are checked
// apart, once they are free of them too.)
func TestNoFmt(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	cmd := exec.Command(gobin, "list", "-deps", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", ".")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	banned := map[string]bool{"fmt": true, "os": true, "time": true, "embed": true, "io/fs": true, "runtime/debug": true}
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || !(strings.HasPrefix(f[0], "retrylab/wasm/") || strings.HasPrefix(f[0], "retrylab/site/")) {
			continue
		}
		checked++
		for _, imp := range f[1:] {
			if banned[imp] {
				t.Errorf("%s imports %s", f[0], imp)
			}
		}
	}
	if checked < 4 {
		t.Errorf("checked %d packages of site/ and wasm/; go list said:\n%s", checked, out)
	}
}
