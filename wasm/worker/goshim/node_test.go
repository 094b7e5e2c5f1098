//go:build e2e

// goshim.mjs run by node, with a stand-in Go class and with a real Go
// program (testdata/app): behind the e2e tag, since `go test ./...` needs
// Go alone.

package goshim

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"retrylab/wasm/internal/nodejs"
)

// TestNode runs goshim.test.mjs (the life cycle with a stand-in for Go)
// and real.test.mjs: testdata/app built for js/wasm and run through
// syumai/workers' own wasm_exec.js: one start for many requests, each
// request's env, the response whole, syumai/workers' Done channel never
// closed, a fresh instance after a panic and after the runtime runs out
// of memory, the instance's memory flat over 5,000 requests.
func TestNode(t *testing.T) {
	node := nodejs.Path(t, "test the Worker's Go shim (goshim.mjs)")
	wasm, wasmExec := testApp(t, t.TempDir())
	for _, file := range []string{"goshim.test.mjs", "real.test.mjs"} {
		cmd := exec.Command(node, "--test", file)
		cmd.Env = append(os.Environ(), "GOSHIM_WASM="+wasm, "GOSHIM_WASM_EXEC="+wasmExec)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("node --test %s: %v\n%s", file, err, out)
		}
	}
}

// testApp builds testdata/app for js/wasm into dir/app.wasm and returns
// its path and that of syumai/workers' wasm_exec_go.js, the runtime glue
// goshim.mjs runs it with.
func testApp(t *testing.T, dir string) (wasm, wasmExec string) {
	t.Helper()
	wasm = filepath.Join(dir, "app.wasm")
	build := exec.Command("go", "build", "-o", wasm, "./testdata/app")
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building testdata/app: %v\n%s", err, out)
	}
	mod, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/syumai/workers").Output()
	if err != nil {
		t.Fatalf("go list -m github.com/syumai/workers: %v", err)
	}
	return wasm, filepath.Join(strings.TrimSpace(string(mod)), "cmd", "workers-assets-gen", "assets", "wasm_exec_go.js")
}
