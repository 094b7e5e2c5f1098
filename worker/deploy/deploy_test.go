package deploy

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"retrylab/worker/local"
)

// pinned is the wrangler of package.json's devDependencies.
const pinned = "4.86.0"

func TestDryRunConfig(t *testing.T) {
	in := "name = \"x\"\nmain = \"a.mjs\"\n\n[build]\ncommand = \"make worker\"\ncwd = \"..\"\n\n[build.upload]\nformat = \"modules\"\n\n[assets]\ndirectory = \"p\"\n[[rules]]\ntype = \"CompiledWasm\"\n"
	want := "name = \"x\"\nmain = \"a.mjs\"\n\n[assets]\ndirectory = \"p\"\n[[rules]]\ntype = \"CompiledWasm\"\n"
	if got := DryRunConfig(in); got != want {
		t.Errorf("DryRunConfig:\n%s\nwant:\n%s", got, want)
	}
}

// TestWranglerDryRun bundles the Worker as `wrangler deploy` would, with
// the pinned wrangler and without the network (--dry-run): worker/
// wrangler.toml, the modules of build/worker (the edge layer's entry.mjs
// first, the shim, app.wasm) and the static assets. It needs `make worker`
// and `npm ci --ignore-scripts`, and says so when they are missing.
func TestWranglerDryRun(t *testing.T) {
	root, err := local.Root(".")
	if err != nil {
		t.Fatal(err)
	}
	wrangler := filepath.Join(root, "node_modules", ".bin", "wrangler")
	if _, err := os.Stat(wrangler); err != nil {
		t.Fatalf("%s is missing: run `npm ci --ignore-scripts` (make deps)", wrangler)
	}
	var pkg struct {
		DevDependencies map[string]string `json:"devDependencies"`
	}
	if b, err := os.ReadFile(filepath.Join(root, "package.json")); err != nil || json.Unmarshal(b, &pkg) != nil {
		t.Fatalf("package.json: %v", err)
	}
	if v := pkg.DevDependencies["wrangler"]; v != pinned {
		t.Errorf("package.json pins wrangler %q, want %q", v, pinned)
	}
	if err := local.Check(root); err != nil {
		t.Fatal(err)
	}
	cfg, err := os.ReadFile(filepath.Join(root, "worker", "wrangler.toml"))
	if err != nil {
		t.Fatal(err)
	}
	// build/ is, like worker/, one folder below the root: the relative
	// paths of the copy name the same files.
	conf := filepath.Join(root, "build", "wrangler.dryrun.toml")
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
	for _, want := range []string{"canonicalKey", "RETRYLAB_VERSION", "handleRequest"} {
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
