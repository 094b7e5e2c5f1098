//go:build !(js && wasm)

package embed

import (
	"os"
	"testing"

	"retrylab/site/embed/internal/svgstyle"
)

// TestSVGStyleCurrent: svgstyle_gen.go is what go generate ./site/embed
// writes today from site/widget's colour tables (no colour typed here).
func TestSVGStyleCurrent(t *testing.T) {
	b, err := os.ReadFile("svgstyle_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != string(svgstyle.Source()) {
		t.Error("svgstyle_gen.go is stale: run go generate ./site/embed")
	}
}
