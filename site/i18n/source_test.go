package i18n

import (
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"testing"

	"retrylab/core/calc"
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
				// ("detail.dispatch."+param): runtimeDetailKeys
				seen[k] = true
			}
		}
	}
	for _, k := range runtimeDetailKeys(t, files) {
		seen[k] = true
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

// runtimePrefix finds a detail key completed at run time: a literal
// ending in '.' followed by '+' ("detail.json." + e.Code).
var runtimePrefix = regexp.MustCompile(`"(detail\.[a-z0-9_-]+\.)"\s*\+`)

// canonjsonCode finds the codes of core/canonjson's errors: the first
// string argument of fail and invalid, and Code: fields.
var canonjsonCode = regexp.MustCompile(`(?:\bfail\(|\binvalid\([^,"]*,\s*|Code:\s*)"([a-z0-9_]+)"`)

// dispatchRefusals are values the dispatch calculator accepts one by one
// but core/dispatch refuses together, one for each field it names at run
// time (detail.dispatch.PARAM).
var dispatchRefusals = []url.Values{
	{"tpm_limit": {"1000"}},                                                    // max_output_tokens: no call fits the bucket
	{"rpm_limit": {"0.5"}, "headroom": {"1"}},                                  // rpm_limit: less than one request a minute
	{"jobs": {"100000"}, "arrival_per_min": {"0.0001"}, "max_attempts": {"1"}}, // jobs: beyond the simulated time bound
}

// runtimeDetailKeys returns the detail keys that core/calc completes at
// run time, found by the way each prefix is completed: every code of
// core/canonjson for detail.json., and the refusals the dispatch
// calculator reaches (dispatchRefusals) for detail.dispatch.. A prefix
// this test does not know how to complete is an error: add it here.
// returnedName matches `return "name"` in a Go switch.
var returnedName = regexp.MustCompile(`return "([a-z_]+)"`)

func runtimeDetailKeys(t *testing.T, calcFiles []string) []string {
	t.Helper()
	var keys []string
	prefixes := map[string]bool{}
	for _, f := range calcFiles {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range runtimePrefix.FindAllSubmatch(b, -1) {
			prefixes[string(m[1])] = true
		}
	}
	for p := range prefixes {
		switch p {
		case "detail.json.":
			_, file, _, _ := runtime.Caller(0)
			src, err := filepath.Glob(filepath.Join(filepath.Dir(file), "..", "..", "core", "canonjson", "*.go"))
			if err != nil {
				t.Fatal(err)
			}
			codes := map[string]bool{}
			for _, f := range src {
				if strings.HasSuffix(f, "_test.go") {
					continue
				}
				b, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				for _, m := range canonjsonCode.FindAllSubmatch(b, -1) {
					codes[string(m[1])] = true
				}
			}
			if len(codes) < 15 {
				t.Errorf("found %d error codes in core/canonjson, want at least 15: the pattern is broken", len(codes))
			}
			for c := range codes {
				keys = append(keys, p+c)
			}
		case "detail.dispatch.":
			c, ok := calc.New().Lookup("dispatch")
			if !ok {
				t.Fatal("no dispatch calculator")
			}
			for _, v := range dispatchRefusals {
				_, err := c.Compute(v)
				e, ok := errors.AsType[*calc.Error](err)
				if !ok || !strings.HasPrefix(e.Vars["detail_key"], p) {
					t.Errorf("dispatch %s: %v, want a refusal with a key %s…", v.Encode(), err, p)
					continue
				}
				keys = append(keys, e.Vars["detail_key"])
			}
		case "detail.policies.":
			// the parameters policiesParam maps core/policies' FieldError
			// fields to (core/calc/policies.go)
			_, file, _, _ := runtime.Caller(0)
			b, err := os.ReadFile(filepath.Join(filepath.Dir(file), "..", "..", "core", "calc", "policies.go"))
			if err != nil {
				t.Fatal(err)
			}
			i := strings.Index(string(b), "func policiesParam(")
			if i < 0 {
				t.Fatal("core/calc/policies.go has no policiesParam: the pattern is broken")
			}
			body := string(b[i:])
			body = body[:strings.Index(body, "\n}\n")]
			n := 0
			for _, m := range returnedName.FindAllStringSubmatch(body, -1) {
				keys = append(keys, p+m[1])
				n++
			}
			if n < 5 {
				t.Errorf("found %d parameters in policiesParam, want at least 5: the pattern is broken", n)
			}
		default:
			t.Errorf("core/calc completes the detail key %s… at run time: runtimeDetailKeys does not know its keys", p)
		}
	}
	if !prefixes["detail.json."] || !prefixes["detail.dispatch."] {
		t.Errorf("run-time key prefixes found: %v; want detail.json. and detail.dispatch.: the pattern is broken", prefixes)
	}
	return keys
}
