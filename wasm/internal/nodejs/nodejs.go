// Package nodejs runs JavaScript in Node.js for the tests that hold the
// project's JavaScript to its Go (player.js' field reading, the Worker's
// edge layer, its entry's Accept-Language, the Go shim). Node is a
// dependency of make test (make deps installs it): without it these
// tests fail, naming what needed it; they never skip.
package nodejs

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"testing"
)

// Path returns the node executable, or fails t: "node is needed to
// <need>: install Node.js 20 or later".
func Path(t testing.TB, need string) string {
	t.Helper()
	p, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is needed to " + need + ": install Node.js 20 or later (make deps)")
	}
	return p
}

// Exchange runs node with args in dir ("" for the test's own folder),
// writes in to its standard input as JSON and decodes its standard output,
// a JSON value, into out. A failed run fails t with node's standard error;
// output that is not JSON fails t with the output's start.
func Exchange(t testing.TB, need, dir string, args []string, in, out any) {
	t.Helper()
	data, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(Path(t, need), args...)
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(data)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	got, err := cmd.Output()
	if err != nil {
		t.Fatalf("node %s: %v\n%s", short(args), err, stderr.Bytes())
	}
	if err := json.Unmarshal(got, out); err != nil {
		if len(got) > 300 {
			got = got[:300]
		}
		t.Fatalf("node %s wrote no JSON answer (%v): %s", short(args), err, got)
	}
}

// short names a node command line: a script given with -e by its flag.
func short(args []string) string {
	if len(args) > 0 && args[0] == "-e" {
		return "-e SCRIPT"
	}
	var b bytes.Buffer
	for i, a := range args {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(a)
	}
	return b.String()
}
