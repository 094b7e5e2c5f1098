//go:build e2e

package deploy

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"retrylab/wasm/worker/local"
)

// pinned is the wrangler of package.json's devDependencies.
const pinned = "4.86.0"

// TestWranglerDryRun bundles the Worker as `wrangler deploy` would, with
// the pinned wrangler and without the network (--dry-run): wasm/worker/
// wrangler.toml, the modules of build/worker (the edge layer's entry.mjs
// first, the shim, app.wasm) and the static assets. It needs `make worker`
// and `npm ci --ignore-scripts`, and says so when they are missing.
func TestWranglerDryRun(t *testing.T) {
	root, err := local.Root(".")
	if err != nil {
		t.Fatal(err)
	}
	wrangler := filepath.Join(root, "wasm", "worker", "node_modules", ".bin", "wrangler")
	if _, err := os.Stat(wrangler); err != nil {
		t.Fatalf("%s is missing: run `(cd wasm/worker && npm ci --ignore-scripts)` (make deps)", wrangler)
	}
	var pkg struct {
		DevDependencies map[string]string `json:"devDependencies"`
	}
	if b, err := os.ReadFile(filepath.Join(root, "wasm", "worker", "package.json")); err != nil || json.Unmarshal(b, &pkg) != nil {
		t.Fatalf("wasm/worker/package.json: %v", err)
	}
	if v := pkg.DevDependencies["wrangler"]; v != pinned {
		t.Errorf("wasm/worker/package.json pins wrangler %q, want %q", v, pinned)
	}
	if err := local.Check(root); err != nil {
		t.Fatal(err)
	}
	cfg, err := os.ReadFile(filepath.Join(root, "wasm", "worker", "wrangler.toml"))
	if err != nil {
		t.Fatal(err)
	}
	// build/dryrun/ is, like wasm/worker/, two folders below the root: the
	// relative paths of the copy name the same files.
	if err := os.MkdirAll(filepath.Join(root, "build", "dryrun"), 0o755); err != nil {
		t.Fatal(err)
	}
	conf := filepath.Join(root, "build", "dryrun", "wrangler.toml")
	if err := os.WriteFile(conf, []byte(DryRunConfig(string(cfg))), 0o644); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(conf)
	out := t.TempDir()
	home := t.TempDir()
	cmd := exec.Command(wrangler, "deploy", "--dry-run", "--outdir", out, "-c", conf)
	cmd.Dir = root
	cmd.Env = append(os.Environ(),
		"WRANGLER_SEND_METRICS=false", "XDG_CONFIG_HOME="+home, "WRANGLER_LOG_PATH="+home,
		"CLOUDFLARE_API_TOKEN=", "CLOUDFLARE_ACCOUNT_ID=")
	log, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("wrangler deploy --dry-run: %v\n%s", err, log)
	}
	if !strings.Contains(string(log), "wrangler "+pinned) || !strings.Contains(string(log), "--dry-run: exiting now") {
		t.Errorf("wrangler deploy --dry-run said:\n%s\nwant wrangler %s and the dry run's end", log, pinned)
	}
	if !strings.Contains(string(log), "env.ASSETS") {
		t.Errorf("wrangler deploy --dry-run: no ASSETS binding in\n%s", log)
	}
	// The bundle: the edge layer as the main module, and the wasm.
	entry, err := os.ReadFile(filepath.Join(out, "entry.js"))
	if err != nil {
		t.Fatalf("the dry run wrote no entry.js: %v\n%s", err, log)
	}
	for _, want := range []string{"canonicalKey", "RETRYLAB_VERSION", "handleRequest", "goShim"} {
		if !strings.Contains(string(entry), want) {
			t.Errorf("entry.js lacks %q: the edge layer or the shim is not bundled", want)
		}
	}
	wasm, _ := filepath.Glob(filepath.Join(out, "*app.wasm"))
	if len(wasm) != 1 {
		t.Errorf("the dry run wrote %d app.wasm files, want 1", len(wasm))
	}
	t.Logf("%s", strings.TrimSpace(string(log)))
}
