//go:build !(js && wasm)

package core_test

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// rooms are the house's three rooms, lowest first: a package may import
// its own room's packages and those of the rooms below it, never above.
// core is the mathematics (it imports nothing of the project but core),
// site the pages, the server and the command (it may import core),
// wasm the browser's modules and the Worker (they may import both).
var rooms = []string{"retrylab/core", "retrylab/site", "retrylab/wasm"}

// room returns the index in rooms of the project package path, or -1 for
// a package outside the project (the standard library, a module).
func room(path string) int {
	for i, r := range rooms {
		if path == r || strings.HasPrefix(path, r+"/") {
			return i
		}
	}
	return -1
}

// TestImportDirection lists every package of the module with its
// imports, its tests' imports included, for the host and for the browser
// (GOOS=js GOARCH=wasm), with and without the e2e tag, and fails on an
// import that runs up the house: core importing site or wasm, site
// importing wasm.
func TestImportDirection(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to list the packages: %v", err)
	}
	type target struct{ goos, goarch, tags string }
	for _, tg := range []target{{"", "", ""}, {"", "", "e2e"}, {"js", "wasm", ""}} {
		cmd := exec.Command(goCmd, "list", "-e", "-tags", tg.tags,
			"-f", "{{.ImportPath}} {{join .Imports \" \"}} {{join .TestImports \" \"}} {{join .XTestImports \" \"}}", "./...")
		cmd.Dir = ".."
		cmd.Env = os.Environ()
		if tg.goos != "" {
			cmd.Env = append(cmd.Env, "GOOS="+tg.goos, "GOARCH="+tg.goarch)
		}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list (%+v): %v\n%s", tg, err, stderr.String())
		}
		packages := 0
		for line := range strings.Lines(string(out)) {
			fields := strings.Fields(line)
			if len(fields) == 0 {
				continue
			}
			packages++
			from := room(fields[0])
			for _, imp := range fields[1:] {
				if to := room(imp); from >= 0 && to > from {
					t.Errorf("%s imports %s (%+v): %s is below %s in the house; move what both need down, into %s",
						fields[0], imp, tg, rooms[from], rooms[to], rooms[from])
				}
			}
		}
		if packages < 30 {
			t.Fatalf("go list (%+v) listed %d packages; the module has more", tg, packages)
		}
	}
}
