package i18n

import (
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"testing"
)

var detailKey = regexp.MustCompile(`Refuse\((?:[^"]|"[^"]*")*?"(detail\.[a-z0-9_.-]+)"`)

// detailKeysInSource returns the detail.* keys of the Refuse calls in
// core/calc/*.go (the key is the first string argument of the call).
func detailKeysInSource(t *testing.T) []string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	files, err := filepath.Glob(filepath.Join(filepath.Dir(file), "..", "..", "core", "calc", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range detailKey.FindAllSubmatch(b, -1) {
			if k := string(m[1]); !strings.HasSuffix(k, ".") {
				// a key ending in '.' is completed at run time
				// ("detail.dispatch."+param); its English detail stands.
				seen[k] = true
			}
		}
	}
	if !seen["detail.idempotency.payload"] && len(files) > 0 {
		// the calculator of article 2 refuses bad JSON with this key; if
		// the pattern stops finding it, the pattern is broken.
		t.Error("detail.idempotency.payload not found in calc sources: the pattern is broken")
	}
	keys := make([]string, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

var codeConst = regexp.MustCompile(`(?m)^\s*Code[A-Za-z]+\s+Code\s*=\s*"([a-z_]+)"`)

// codesInSource returns every calc.Code constant declared in core/calc/*.go, so
// that a code added later needs its err.CODE string too.
func codesInSource(t *testing.T) []string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	files, err := filepath.Glob(filepath.Join(filepath.Dir(file), "..", "..", "core", "calc", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var codes []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range codeConst.FindAllSubmatch(b, -1) {
			codes = append(codes, string(m[1]))
		}
	}
	sort.Strings(codes)
	return codes
}
