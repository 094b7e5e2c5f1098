package main

import (
	"testing"
)

// module assembles a wasm module: one imported function, then bodies
// named by a name section.
func module(bodies [][]byte, names []string) []byte {
	section := func(id byte, payload []byte) []byte {
		return append(append([]byte{id}, uleb(len(payload))...), payload...)
	}
	str := func(s string) []byte { return append(uleb(len(s)), s...) }
	var imp []byte
	imp = append(imp, uleb(1)...)
	imp = append(imp, str("go")...)
	imp = append(imp, str("debug")...)
	imp = append(imp, 0, 0) // func, type 0
	var code []byte
	code = append(code, uleb(len(bodies))...)
	for _, b := range bodies {
		code = append(code, uleb(len(b))...)
		code = append(code, b...)
	}
	var fn []byte
	fn = append(fn, uleb(len(names))...)
	for i, n := range names {
		fn = append(fn, uleb(i+1)...) // after the import
		fn = append(fn, str(n)...)
	}
	name := append(str("name"), 1)
	name = append(name, uleb(len(fn))...)
	name = append(name, fn...)
	m := []byte("\x00asm\x01\x00\x00\x00")
	m = append(m, section(2, imp)...)
	m = append(m, section(10, code)...)
	m = append(m, section(11, []byte{0})...)
	m = append(m, section(0, name)...)
	return m
}

func uleb(n int) []byte {
	var b []byte
	for {
		c := byte(n & 0x7f)
		n >>= 7
		if n != 0 {
			b = append(b, c|0x80)
			continue
		}
		return append(b, c)
	}
}

func TestCodeByPackage(t *testing.T) {
	bodies := [][]byte{make([]byte, 10), make([]byte, 300), make([]byte, 20), make([]byte, 5)}
	names := []string{
		"main.main",
		"retrylab_core_calc.__Param_.parse",
		"retrylab_core_calc.New",
		"honnef.co_go_js_dom_v2.__HTMLMetaElement_.Name",
	}
	pkgs, code, data, err := codeByPackage(module(bodies, names),
		[]string{"main", "retrylab/core/calc", "honnef.co/go/js/dom/v2", "retrylab"})
	if err != nil {
		t.Fatal(err)
	}
	want := []pkgSize{{"retrylab/core/calc", 320, 2}, {"main", 10, 1}, {"honnef.co/go/js/dom/v2", 5, 1}}
	if len(pkgs) != len(want) {
		t.Fatalf("packages %v, want %v", pkgs, want)
	}
	for i := range want {
		if pkgs[i] != want[i] {
			t.Errorf("package %d = %+v, want %+v", i, pkgs[i], want[i])
		}
	}
	if code == 0 || data != 1 {
		t.Errorf("code %d, data %d", code, data)
	}
}

func TestCodeByPackageRefusesStripped(t *testing.T) {
	if _, _, _, err := codeByPackage([]byte("\x00asm\x01\x00\x00\x00"), nil); err == nil {
		t.Fatal("a module without names: no error")
	}
	if _, _, _, err := codeByPackage([]byte("not wasm"), nil); err == nil {
		t.Fatal("not a module: no error")
	}
}

func TestPercentile(t *testing.T) {
	ms := []float64{5, 1, 4, 2, 3}
	if m := median(ms); m != 3 {
		t.Errorf("median = %v, want 3", m)
	}
	if p := percentile(ms, 95); p != 5 {
		t.Errorf("p95 = %v, want 5", p)
	}
}

// TestBuildFlags reads the playground's buildflags file as build.sh does:
// the bench must measure the module build.sh serves.
func TestBuildFlags(t *testing.T) {
	got, env, err := buildFlags("../../../../wasm/playground/buildflags")
	if err != nil {
		t.Fatal(err)
	}
	if len(env) != 1 || env[0] != "GOEXPERIMENT=nogreenteagc" {
		t.Errorf("environment %q, want [GOEXPERIMENT=nogreenteagc]", env)
	}
	want := map[string]bool{"-trimpath": true, "-ldflags=-s -w -buildid=": true, "-gcflags=retrylab/site/...=-l": true}
	for _, f := range got {
		if f == "" || f[0] == '#' {
			t.Errorf("flag %q: blank lines and comments must be skipped", f)
		}
		delete(want, f)
	}
	if len(want) > 0 {
		t.Errorf("flags %q lack %v", got, want)
	}
	def, defEnv, err := buildFlags("testdata/no-such-file")
	if err != nil || len(def) != 2 || def[0] != "-trimpath" || defEnv != nil {
		t.Errorf("without the file: %q, %v; want -trimpath and -ldflags=-s -w", def, err)
	}
}
