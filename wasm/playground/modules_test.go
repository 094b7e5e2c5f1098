//go:build !(js && wasm)

package playground

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"retrylab/core/calc"
	"retrylab/site/wasmflags"
	"retrylab/site/widget"
)

// TestModuleDirs checks that every calculator set (site/widget.Sets: one
// per article of calc.Articles) has its module here,
// NAME/main.go running Main on that set, and that there is no other:
// build.sh compiles every NAME/main.go, the build looks each set's up.
func TestModuleDirs(t *testing.T) {
	funcs := map[string]string{}
	for _, a := range calc.Articles() {
		// widget.Retries() for the article "retries", …
		name := ""
		for _, w := range strings.Split(a.Slug, "-") {
			name += strings.ToUpper(w[:1]) + w[1:]
		}
		funcs[a.Slug] = "widget." + name + "()"
	}
	dirs, err := filepath.Glob(filepath.Join("*", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if name := filepath.Dir(d); !slices.ContainsFunc(widget.Sets(), func(s *widget.Set) bool { return s.Name() == name }) {
			t.Errorf("%s: a module of no calculator set (build.sh would build it; site/widget.Sets has no set %q)", d, name)
		}
	}
	for _, s := range widget.Sets() {
		src, err := os.ReadFile(filepath.Join(s.Name(), "main.go"))
		if err != nil {
			t.Errorf("set %s has no module: %v", s.Name(), err)
			continue
		}
		if f := funcs[s.Name()]; f == "" || !bytes.Contains(src, []byte("playground.Main("+f+")")) {
			t.Errorf("%s/main.go does not run playground.Main(%s)", s.Name(), f)
		}
	}
}

// TestModulesLinkTheirSet builds each article's module as build.sh does
// (wasm/playground/buildflags), keeping the functions' names, and checks
// that it links its own calculators, views and result encoders and none
// of the other articles': what makes it smaller than a module of every
// calculator (site/widget.All) would be.
func TestModulesLinkTheirSet(t *testing.T) {
	if testing.Short() {
		t.Skip("links three wasm modules")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Fatal("no go command on PATH (go test puts GOROOT/bin first):", err)
	}
	flags, env, err := wasmflags.Read("buildflags")
	if err != nil {
		t.Fatal(err)
	}
	retries := []string{"retrylab_core_calc.peakCalc", "retrylab_core_crowd.", "retrylab_core_standin_bigint.Int.Mul", "retrylab_core_retry.",
		"retrylab_site_widget.peakDistribution", "retrylab_site_widget.jitterHistogram", "retrylab_site_widget.appendJSONCalcPeakResult"}
	// (core/limits's init, its error variables, is in every module: calc
	// imports the package for all its calculators; its functions are not)
	rateLimits := []string{"retrylab_core_calc.dispatchCalc", "retrylab_core_dispatch.Run", "retrylab_core_standin_tokenbucket.", "retrylab_core_limits.Check", "retrylab_core_limits.Config.Trace", "retrylab_core_standin_sha256sum.",
		"retrylab_site_widget.dispatchQueue", "retrylab_site_widget.backoffArrivals", "retrylab_site_widget.appendJSONCalcDispatchResult"}
	pols := []string{"retrylab_core_calc.policiesCalc", "retrylab_core_policies.Run",
		"retrylab_site_widget.policiesTimeline", "retrylab_site_widget.appendJSONCalcPoliciesResult"}
	bw := []string{"retrylab_core_calc.metastableCalc", "retrylab_core_metastable.__Solver_.Stationary",
		"retrylab_site_widget.metastableSweep", "retrylab_site_widget.appendJSONCalcMetastableResult"}
	// (All link core/standin/bigint's parsing and printing: calc's generic
	// parameter code handles every kind; the arithmetic is the retries'.)
	for _, m := range []struct {
		name       string
		has, lacks []string
	}{
		{"retries", retries, append(slices.Clip(rateLimits), pols...)},
		{"rate-limits", rateLimits, append(slices.Clip(retries), pols...)},
		{"policies", pols, append(slices.Clip(retries), rateLimits...)},
		{"backoff-work", bw, append(append(slices.Clip(retries), rateLimits...), pols...)},
	} {
		out := filepath.Join(t.TempDir(), m.name+".wasm")
		args := []string{"build"}
		for _, f := range flags {
			if strings.HasPrefix(f, "-ldflags=") {
				f = strings.ReplaceAll(f, "-s", "") // keep the name section
			}
			args = append(args, f)
		}
		cmd := exec.Command(gobin, append(args, "-o", out, "./"+m.name)...)
		cmd.Env = append(append(os.Environ(), "GOOS=js", "GOARCH=wasm"), env...)
		if msg, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build ./%s: %v\n%s", m.name, err, msg)
		}
		mod, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		names, err := funcNames(mod)
		if err != nil {
			t.Fatal(err)
		}
		all := "\n" + strings.Join(names, "\n")
		for _, p := range m.has {
			if !strings.Contains(all, "\n"+p) {
				t.Errorf("module %s lacks %s", m.name, p)
			}
		}
		for _, p := range m.lacks {
			if strings.Contains(all, "\n"+p) {
				t.Errorf("module %s links %s, of the other article", m.name, p)
			}
		}
		// No method of dom/v2 called through its interfaces (unwrap.go):
		// one such call links a wrapper for each of the ~115 element
		// types dom/v2 wraps; HTMLAnchorElement stands for them all
		// (the playground never names it).
		var wrappers []string
		for _, n := range names {
			// (String stays: any call of fmt.Stringer's String links it)
			if (strings.HasPrefix(n, "honnef.co_go_js_dom_v2.HTMLAnchorElement.") || strings.HasPrefix(n, "honnef.co_go_js_dom_v2.__HTMLAnchorElement_.")) && !strings.HasSuffix(n, ".String") {
				wrappers = append(wrappers, strings.TrimPrefix(n, "honnef.co_go_js_dom_v2."))
			}
		}
		if len(wrappers) > 0 {
			t.Errorf("module %s links dom/v2's wrappers %v: a method called through dom.Element (or dom.Node, dom.Event); call it on elem(…) (unwrap.go)", m.name, wrappers)
		}
		// No event wrapped by dom/v2 (listen.go): its wrapEvent converts
		// some 30 event types to dom.Event, each with its methods.
		if slices.Contains(names, "honnef.co_go_js_dom_v2.wrapEvent") {
			t.Errorf("module %s links dom/v2's wrapEvent: an event listener added with AddEventListener; add it with listen (listen.go)", m.name)
		}
		// No element wrapped by dom/v2 (unwrap.go: find, findAll,
		// target, documentElement, …): its wrapHTMLElement converts some
		// 115 element types to dom.Element, each with its methods' wrappers
		// (about 29 KB of every module gzip-compressed).
		if slices.Contains(names, "honnef.co_go_js_dom_v2.wrapHTMLElement") {
			t.Errorf("module %s links dom/v2's wrapHTMLElement: an element found, created or taken from an event through dom/v2 (QuerySelector, Target, DocumentElement, …); use unwrap.go's find, findAll, target, documentElement, elementByID or newElement", m.name)
		}
	}
}

// funcNames returns the function names of a wasm module's "name" custom
// section (WebAssembly core spec, appendix 7.4.1).
func funcNames(mod []byte) ([]string, error) {
	if len(mod) < 8 || string(mod[:4]) != "\x00asm" {
		return nil, errors.New("not a wasm module")
	}
	b := mod[8:]
	uleb := func(p *[]byte) int {
		v, n := binary.Uvarint(*p)
		if n <= 0 || int(v) > len(*p)-n {
			*p = nil
			return 0
		}
		*p = (*p)[n:]
		return int(v)
	}
	take := func(p *[]byte, n int) []byte {
		s := (*p)[:n]
		*p = (*p)[n:]
		return s
	}
	var names []string
	for len(b) > 0 {
		id := b[0]
		b = b[1:]
		sec := take(&b, uleb(&b))
		if id != 0 {
			continue
		}
		if string(take(&sec, uleb(&sec))) != "name" {
			continue
		}
		for len(sec) > 1 {
			sub := sec[0]
			sec = sec[1:]
			ss := take(&sec, uleb(&sec))
			if sub != 1 {
				continue
			}
			for n := uleb(&ss); n > 0 && len(ss) > 0; n-- {
				uleb(&ss) // the function's index
				names = append(names, string(take(&ss, uleb(&ss))))
			}
		}
	}
	if len(names) == 0 {
		return nil, errors.New("the module has no function names")
	}
	return names, nil
}
