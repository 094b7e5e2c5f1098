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
// (core/sha256sum); math/big with math/rand (core/bigint); fmt and
// encoding/hex (messages and markup built with strconv), and with them
// os, syscall's JavaScript file system, internal/poll and internal/godebug;
// time, context and golang.org/x/time/rate (core/limits on
// core/tokenbucket, time in int64 nanoseconds); runtime/debug (the loader
// sets GOGC in the runtime's environment); embed and io/fs (site/widget's
// CSS is only in native builds).
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
	for _, p := range []string{"net/url", "net/netip", "unique", "weak", "encoding/json", "crypto/sha256", "crypto/internal/fips140", "math/big", "math/rand",
		"fmt", "os", "time", "context", "golang.org/x/time/rate", "encoding/hex", "runtime/debug", "embed", "io/fs",
		"syscall", "internal/poll", "internal/godebug"} {
		if deps[p] {
			t.Errorf("the playground links %s; `GOOS=js GOARCH=wasm go list -deps -f '{{.ImportPath}}: {{.Imports}}' ./wasm/playground` shows who imports it", p)
		}
	}
}
