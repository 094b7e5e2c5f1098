//go:build e2e

package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// moduleBudget is issue 16's budget: the largest WebAssembly module a
// page loads is at most 1,050 KB (1,050,000 bytes) gzip-compressed, as
// served (the .gz sibling the build writes beside it).
const moduleBudget = 1_050_000

// TestModuleBudget checks every page of the built site: each module it
// loads exists with its .gz and that .gz is within moduleBudget. It needs
// no browser, only dist/ (./build.sh).
func TestModuleBudget(t *testing.T) {
	sizes := map[string]int64{} // module -> bytes of its .gz
	loaded := map[string][]string{}
	for _, p := range env.pages {
		html, err := os.ReadFile(p.File)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range DataWasm.FindAllSubmatch(html, -1) {
			mod := string(m[1])
			if _, ok := sizes[mod]; !ok {
				fi, err := os.Stat(filepath.Join(env.dist, filepath.FromSlash(strings.TrimPrefix(mod, "/"))+".gz"))
				if err != nil {
					t.Errorf("%s loads %s, which has no .gz: %v", p.Path, mod, err)
					sizes[mod] = -1
					continue
				}
				sizes[mod] = fi.Size()
			}
			loaded[mod] = append(loaded[mod], p.Path)
		}
	}
	if len(sizes) == 0 {
		t.Fatalf("no page of %s loads a module (data-wasm)", env.dist)
	}
	mods := make([]string, 0, len(sizes))
	for m := range sizes {
		mods = append(mods, m)
	}
	slices.Sort(mods)
	for _, m := range mods {
		t.Logf("%s: %d bytes gzip, loaded by %d pages (%s, …)", m, sizes[m], len(loaded[m]), loaded[m][0])
		if sizes[m] > moduleBudget {
			t.Errorf("%s is %d bytes gzip-compressed as served, over the budget of %d by %d; it is loaded by %s",
				m, sizes[m], moduleBudget, sizes[m]-moduleBudget, strings.Join(loaded[m], " "))
		}
	}
}
