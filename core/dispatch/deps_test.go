//go:build !(js && wasm)

package dispatch

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestNoClockPackages checks that the simulation, and the packages of
// the module it links, import neither time, context nor x/time/rate (core
// takes time as an argument: no clock), and that dispatch, core/limits and
// core/internal/tokenbucket import no fmt. (The playground's module links
// time all the same since its DOM layer became honnef.co/go/js/dom/v2;
// the rule here is core's purity, and context and fmt stay out.)
func TestNoClockPackages(t *testing.T) {
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
	seen := map[string]bool{}
	for line := range strings.Lines(string(out)) {
		f := strings.Fields(line)
		if len(f) == 0 || !strings.HasPrefix(f[0], "retrylab/") {
			continue
		}
		seen[f[0]] = true
		for _, imp := range f[1:] {
			switch {
			case imp == "time" || imp == "context" || imp == "golang.org/x/time/rate":
				t.Errorf("%s imports %s", f[0], imp)
			case imp == "fmt" && (f[0] == "retrylab/core/dispatch" || f[0] == "retrylab/core/limits" || f[0] == "retrylab/core/internal/tokenbucket"):
				t.Errorf("%s imports fmt", f[0])
			}
		}
	}
	if !seen["retrylab/core/dispatch"] || !seen["retrylab/core/limits"] || !seen["retrylab/core/internal/tokenbucket"] {
		t.Fatalf("go list -deps lists none of dispatch, limits, tokenbucket:\n%s", out)
	}
}
