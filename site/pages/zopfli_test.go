package pages

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeZopfli writes a program that takes zopfli's arguments (--gzip -c
// FILE) and runs body with the file as $3.
func fakeZopfli(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "zopfli")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestZopfliGzip: the zopfli program's stream is used only when it reads
// back as the input; a program that fails, writes no gzip or gzips
// something else is an error naming the problem (the build stops). A
// program that gzips its input is taken as it is (the real zopfli runs
// in make build under make test: -zopfli require).
func TestZopfliGzip(t *testing.T) {
	data := bytes.Repeat([]byte("retrylab wasm module "), 20000)
	var want bytes.Buffer
	zw := gzip.NewWriter(&want)
	zw.Write(data)
	zw.Close()
	good := filepath.Join(t.TempDir(), "good.gz")
	if err := os.WriteFile(good, want.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	var other bytes.Buffer
	zw = gzip.NewWriter(&other)
	zw.Write([]byte("something else"))
	zw.Close()
	bad := filepath.Join(t.TempDir(), "other.gz")
	if err := os.WriteFile(bad, other.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, body, err string }{
		{"good", `[ "$1 $2" = "--gzip -c" ] && [ -s "$3" ] && cat ` + good, ""},
		{"fails", `echo broken >&2; exit 3`, "zopfli: exit status 3: broken"},
		{"not gzip", `echo plain`, "zopfli wrote no gzip stream"},
		{"other data", `cat ` + bad, "does not read back as its input"},
	} {
		got, err := zopfliGzip(fakeZopfli(t, tc.body), data)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.err == "" && !bytes.Equal(got, want.Bytes()):
			t.Errorf("%s: the program's stream was not returned as it is", tc.name)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: error %v, want one with %q", tc.name, err, tc.err)
		}
	}
	// and compressBoth uses it for a large file only
	gz, _, err := compressBoth(data, 5, fakeZopfli(t, "cat "+good))
	if err != nil || !bytes.Equal(gz, want.Bytes()) {
		t.Errorf("compressBoth with zopfli: err %v, stream from zopfli %v", err, bytes.Equal(gz, want.Bytes()))
	}
	small := []byte("small page")
	gz, _, err = compressBoth(small, 5, fakeZopfli(t, "exit 1"))
	if err != nil {
		t.Fatalf("a small file went to zopfli: %v", err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	if back, _ := io.ReadAll(zr); !bytes.Equal(back, small) {
		t.Error("a small file's gzip does not read back")
	}
}
