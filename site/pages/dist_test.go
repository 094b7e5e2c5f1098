//go:build e2e

package pages

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestDistLinks checks the dist/ that `make build` wrote: the files on
// disk, not a build in memory. Under make test (-tags e2e) a missing dist/
// is a failure.
func TestDistLinks(t *testing.T) {
	root := "../../dist"
	index, err := os.ReadFile(root + "/index.html")
	if err != nil {
		t.Fatalf("no dist/ (run make build): %v", err)
	}
	m := regexp.MustCompile(`<a class="site-name" href="([^"]*)"`).FindSubmatch(index)
	if m == nil {
		t.Fatal("dist/index.html has no site-name link")
	}
	s := &Site{Files: map[string][]byte{}}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		s.Files[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	checkLinks(t, s, string(m[1]))
}
