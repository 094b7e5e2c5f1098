package local

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRoot(t *testing.T) {
	root, err := Root(".")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "worker", "workerd.capnp")); err != nil {
		t.Errorf("Root(.) = %s, which has no worker/workerd.capnp: %v", root, err)
	}
	if _, err := Root("/"); err == nil {
		t.Error("Root(/): no error")
	}
}

func TestCheckNamesTargets(t *testing.T) {
	err := Check(t.TempDir())
	if err == nil {
		t.Fatal("an empty root passes the check")
	}
	for _, want := range []string{"make deps", "make build", "make worker", "app.wasm"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Check error %q does not mention %q", err, want)
		}
	}
}

func TestRSS(t *testing.T) {
	n, err := RSS(os.Getpid())
	if err != nil {
		t.Skip("no /proc:", err) // not Linux
	}
	if n < 1<<20 || n > 64<<30 {
		t.Errorf("RSS of the test process = %d bytes", n)
	}
	if _, err := RSS(-1); err == nil {
		t.Error("RSS(-1): no error")
	}
}
