package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"retrylab/site/preview"
)

// noPreviews is -previews=false where no CJK font is installed, so that
// go test ./... needs nothing but Go; make test installs the font (make
// deps) and its build of dist/ draws every preview (site/preview's tests
// and TestPreviews check them).
func noPreviews(t *testing.T) []string {
	if _, err := preview.FontsFor("zh"); err != nil {
		t.Log("building without link previews:", err)
		return []string{"-previews=false"}
	}
	return nil
}

func TestBuildCommand(t *testing.T) {
	out := filepath.Join(t.TempDir(), "dist")
	var stdout, stderr bytes.Buffer
	code := run(append([]string{"build", "-cache", "", "-content", "../../../content", "-repo", "../../..", "-out", out, "-wasm", "", "-base-url", "/sub/"}, noPreviews(t)...), &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	page, err := os.ReadFile(filepath.Join(out, "it", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(page, []byte(`href="/sub/es/"`)) {
		t.Error("the base URL is not applied")
	}
	// A second build replaces the first.
	if code := run(append([]string{"build", "-cache", "", "-content", "../../../content", "-repo", "../../..", "-out", out, "-wasm", ""}, noPreviews(t)...), &stdout, &stderr); code != 0 {
		t.Fatalf("rebuild: exit %d: %s", code, stderr.String())
	}
}

func TestBuildCommandErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "content")
	for _, l := range []string{"it", "es", "zh"} {
		os.MkdirAll(filepath.Join(bad, l), 0o755)
		b, _ := os.ReadFile(filepath.Join("../../../content", l, "strings.toml"))
		os.WriteFile(filepath.Join(bad, l, "strings.toml"), b, 0o644)
		os.WriteFile(filepath.Join(bad, l, "index.md"), []byte("---\ntitle: t\ndescription: d\ndate: 2026-11-30\n---\n\n```widget nosuch\nid: a\n```\n"), 0o644)
	}
	notDist := filepath.Join(dir, "notdist")
	os.MkdirAll(notDist, 0o755)
	os.WriteFile(filepath.Join(notDist, "keep.txt"), []byte("mine"), 0o644)
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"build", "-nosuchflag"}, 2, "flag provided but not defined"},
		{[]string{"build", "extra"}, 2, `unexpected argument "extra"`},
		{[]string{"build", "-cache", "", "-content", bad, "-out", filepath.Join(dir, "o"), "-wasm", ""}, 1, filepath.ToSlash(bad) + "/es/index.md:7: unknown widget \"nosuch\""},
		{append([]string{"build", "-cache", "", "-content", "../../../content", "-repo", "../../..", "-out", notDist, "-wasm", ""}, noPreviews(t)...), 1, "refusing to replace it"},
		{[]string{"build", "-cache", "", "-base-url", "ftp://x/", "-content", "../../../content", "-wasm", ""}, 1, "bad -base-url"},
		{[]string{"serve", "-dist", filepath.Join(dir, "none")}, 1, "run retrylab build"},
		{[]string{"serve", "extra"}, 2, `unexpected argument "extra"`},
		{[]string{"serve", "-rate", "0"}, 2, "must be positive"},
		{[]string{"serve", "-max-inflight", "0"}, 2, "must be positive"},
		{[]string{"serve", "-burst", "-1"}, 2, "must be positive"},
		{[]string{"serve", "-queue-wait", "-1s"}, 2, "at least 0"},
		{[]string{"serve", "-memory-limit", "-5"}, 2, "at least 0"},
		{[]string{"serve", "-queue-wait", "soon"}, 2, "invalid value"},
		{[]string{"serve", "-max-conns", "0"}, 2, "must be positive"},
		{[]string{"serve", "-write-idle", "0s"}, 2, "must be positive"},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		code := run(tt.args, &stdout, &stderr)
		if code != tt.code || !strings.Contains(stderr.String(), tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", tt.args, code, stderr.String(), tt.code, tt.want)
		}
	}
	if b, err := os.ReadFile(filepath.Join(notDist, "keep.txt")); err != nil || string(b) != "mine" {
		t.Error("the build touched a directory that is not a previous build")
	}
}
