//go:build e2e

package goshim

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"retrylab/wasm/worker/local"
)

// workerdConfig serves testdata/app with the modules of Write, as `make
// worker` lays them out; the socket is replaced by local.StartConfig's.
const workerdConfig = `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [(name = "app", worker = .app)],
  sockets = [(name = "http", address = "127.0.0.1:8787", http = (), service = "app")],
);

const app :Workerd.Worker = (
  modules = [
    (name = "worker.mjs", esModule = embed "worker.mjs"),
    (name = "goshim.mjs", esModule = embed "goshim.mjs"),
    (name = "wasm_exec.js", esModule = embed "wasm_exec.js"),
    (name = "app.wasm", wasm = embed "app.wasm"),
  ],
  compatibilityDate = "2026-11-01",
  bindings = [(name = "NAME", text = "workerd")],
);
`

// TestWorkerd runs testdata/app on the real workerd with the modules Write
// writes: one Go instance serves request after request (its count of
// requests goes on), env is the Worker's, syumai/workers' Done channel
// stays open, and after a panic and after the runtime runs out of memory
// the failed request is a 500 and the next one is served by a fresh
// instance; workerd warns of no promise crossing requests.
func TestWorkerd(t *testing.T) {
	root, err := local.Root(".")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(local.Binary(root)); err != nil {
		t.Fatalf("workerd is needed (%s): run `make deps`", local.Binary(root))
	}
	dir := t.TempDir()
	_, wasmExecPath := testApp(t, dir)
	wasmExec, err := os.ReadFile(wasmExecPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "wasm_exec.js"), wasmExec, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Write(dir); err != nil {
		t.Fatal(err)
	}
	config := filepath.Join(dir, "app.capnp")
	if err := os.WriteFile(config, []byte(workerdConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := local.StartConfig(context.Background(), root, config, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Stop()

	client := &http.Client{Timeout: time.Minute}
	get := func(path string) (int, int, string) {
		t.Helper()
		res, err := client.Get(s.URL + path)
		if err != nil {
			t.Fatalf("GET %s: %v", path, err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		served, _ := strconv.Atoi(res.Header.Get("X-Served"))
		return res.StatusCode, served, string(b)
	}
	_, first, _ := get("/count")
	for i := 1; i <= 20; i++ {
		if code, served, _ := get("/count"); code != 200 || served != first+i {
			t.Fatalf("request %d after the first: %d, the instance's request number %d, want %d (one instance)", i, code, served, first+i)
		}
	}
	if _, _, body := get("/env"); body != "workerd workerd" {
		t.Errorf("/env: %q, want the Worker's binding", body)
	}
	if _, _, body := get("/done"); body != "open" {
		t.Errorf("/done: syumai/workers' Done channel is %s", body)
	}
	for _, crash := range []string{"/panic", "/oom"} {
		if code, _, _ := get(crash); code != 500 {
			t.Errorf("%s: %d, want 500", crash, code)
		}
		for i := 1; i <= 3; i++ {
			if code, served, _ := get("/count"); code != 200 || served != i {
				t.Errorf("request %d after %s: %d, the instance's request number %d, want %d (a fresh instance)", i, crash, code, served, i)
			}
		}
	}
	if strings.Contains(s.Log(), "different request context") {
		t.Error("workerd warns of a promise settled from another request's context")
	}
	if t.Failed() || testing.Verbose() {
		t.Logf("workerd's log:\n%s", s.Log())
	}
}
