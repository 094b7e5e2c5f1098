package local

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestRoot(t *testing.T) {
	root, err := Root(".")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "wasm", "worker", "workerd.capnp")); err != nil {
		t.Errorf("Root(.) = %s, which has no wasm/worker/workerd.capnp: %v", root, err)
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

func TestCheckStale(t *testing.T) {
	root := t.TempDir()
	write := func(name, body string, mtime time.Time) {
		p := filepath.Join(root, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, mtime, mtime)
	}
	old, now := time.Now().Add(-time.Hour), time.Now()
	write(strings.TrimPrefix(Binary(root), root+"/"), "", old)
	write("dist/index.html", "", old)
	for _, f := range []string{"app.wasm", "entry.mjs", "edge.mjs", "edge-data.mjs", "worker.mjs", "goshim.mjs", "wasm_exec.js", "assets.json", "public/index.html"} {
		write(Bundle+"/"+f, "", now)
	}
	write("go.mod", "module m\n\ngo 1.26\n", old)
	write("wasm/worker/main.go", "package main\n\nimport _ \"m/lib\"\n\nfunc main() {}\n", old)
	write("lib/lib.go", "package lib\n", old)
	write("other/other.go", "package other\n", now.Add(time.Minute)) // not a dependency
	if err := Check(root); err != nil {
		t.Fatalf("a fresh bundle: %v", err)
	}
	write("lib/lib.go", "package lib\n", now.Add(time.Minute))
	if err := Check(root); err == nil || !strings.Contains(err.Error(), "lib/lib.go") || !strings.Contains(err.Error(), "make worker") {
		t.Errorf("a dependency newer than app.wasm: error %v", err)
	}
	write("lib/lib.go", "package lib\n", old)
	write("dist/index.html", "", now.Add(time.Minute))
	if err := Check(root); err == nil || !strings.Contains(err.Error(), "older than dist/") {
		t.Errorf("dist/ newer than the bundle: error %v", err)
	}
}

func TestParseVmRSS(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"Name:\tworkerd\nVmRSS:\t  123456 kB\nThreads: 9\n", 123456 * 1024, true},
		{"VmRSS: 0 kB", 0, true},
		{"Name: x\n", 0, false},
		{"VmRSS: 12 MB\n", 0, false},
		{"VmRSS: -5 kB\n", 0, false},
		{"VmRSS: 99999999999999999999 kB\n", 0, false},
		{"VmRSS:\n", 0, false},
	} {
		got, err := parseVmRSS([]byte(tc.in))
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("parseVmRSS(%q) = %d, %v; want %d, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

func FuzzParseVmRSS(f *testing.F) {
	f.Add([]byte("VmRSS:\t  123456 kB\n"))
	f.Add([]byte("VmRSS: 1 kB\nVmRSS: 2 kB"))
	f.Fuzz(func(t *testing.T, b []byte) {
		n, err := parseVmRSS(b)
		if err == nil && (n < 0 || n > 1<<50) {
			t.Errorf("parseVmRSS(%q) = %d", b, n)
		}
		if err != nil && n != 0 {
			t.Errorf("parseVmRSS(%q) = %d with error %v", b, n, err)
		}
	})
}

func TestParseStatCPU(t *testing.T) {
	stat := "12345 (work erd) S 1 12345 12345 0 -1 4194560 1000 0 0 0 250 75 0 0 20 0 9 0 100 1000000 5000 18446744073709551615\n"
	d, err := parseStatCPU([]byte(stat))
	if err != nil || d != 3250*time.Millisecond {
		t.Errorf("parseStatCPU = %v, %v; want 3.25s", d, err)
	}
	for _, bad := range []string{"", "1 (x) S 1", "1 (x) S 1 2 3 4 5 6 7 8 9 10 x 2 0"} {
		if _, err := parseStatCPU([]byte(bad)); err == nil {
			t.Errorf("parseStatCPU(%q): no error", bad)
		}
	}
	if d, err := CPU(os.Getpid()); err != nil || d < 0 {
		t.Errorf("CPU(self) = %v, %v", d, err)
	}
}

func TestParseSchedstat(t *testing.T) {
	for _, c := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"236148387 212993257 86\n", 236148387, true},
		{"0 0 0", 0, true},
		{"", 0, false},
		{"1 2", 0, false},
		{"-1 2 3", 0, false},
		{"x 2 3", 0, false},
	} {
		d, err := parseSchedstat([]byte(c.in))
		if (err == nil) != c.ok || d != c.want {
			t.Errorf("parseSchedstat(%q) = %v, %v; want %v, ok %v", c.in, d, err, c.want, c.ok)
		}
	}
	th, err := Threads(os.Getpid())
	if err != nil || len(th) == 0 {
		t.Errorf("Threads(self) = %v, %v; want the test's threads", th, err)
	}
	if _, err := Threads(-1); err == nil {
		t.Error("Threads(-1): no error")
	}
}
