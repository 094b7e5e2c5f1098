// Package search runs Pagefind (https://pagefind.app), pinned in this
// folder's package.json and package-lock.json, on a built site: it writes
// the static full-text index and Pagefind's search library into
// dist/pagefind/, which the search box of every page loads
// (site/assets/search.js, site/pages/search.go). Pagefind reads each
// page's <html lang> and keeps an index per language; its extended
// binary, the one used here, segments Chinese into words.
//
// Install: `npm ci --ignore-scripts` in site/search (site/e2e/deps.sh does
// it). The binary comes in Pagefind's optional platform package
// (@pagefind/linux-x64 and others) as a plain file: no install script is
// needed, and none runs. This package runs that binary directly, without
// Node.
package search

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
)

// Dir is this folder, relative to the repository's root.
const Dir = "site/search"

// ErrMissing is the error of Binary when Pagefind is not installed.
var ErrMissing = errors.New("pagefind is not installed: run `npm ci --ignore-scripts` in " + Dir + " (./site/e2e/deps.sh does)")

// platform is the name of Pagefind's platform package for this machine.
func platform() string {
	arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	return runtime.GOOS + "-" + arch
}

// Binary returns the path of Pagefind's extended binary under the
// repository root, or ErrMissing.
func Binary(root string) (string, error) {
	p := filepath.Join(root, Dir, "node_modules", "@pagefind", platform(), "bin", "pagefind_extended")
	if st, err := os.Stat(p); err != nil || st.IsDir() {
		return "", ErrMissing
	}
	return p, nil
}

// Index runs Pagefind's binary bin on the built site in dist, quietly: it
// writes dist/pagefind/. The error holds Pagefind's own output.
func Index(bin, dist string) error {
	cmd := exec.Command(bin, "--site", dist, "--quiet")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("pagefind on %s: %v\n%s", dist, err, out.String())
	}
	if _, err := os.Stat(filepath.Join(dist, "pagefind", "pagefind.js")); err != nil {
		return fmt.Errorf("pagefind on %s wrote no pagefind/pagefind.js:\n%s", dist, out.String())
	}
	return nil
}
