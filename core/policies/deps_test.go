//go:build !(js && wasm)

package policies

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestNoClockPackages checks that the simulation imports neither time,
// context nor fmt: the browser's module links it.
func TestNoClockPackages(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	cmd := exec.Command(gobin, "list", "-deps", "-f", "{{.ImportPath}}", ".")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for line := range strings.Lines(string(out)) {
		switch p := strings.TrimSpace(line); p {
		case "time", "context", "fmt":
			t.Errorf("core/policies links %s", p)
		}
	}
}
