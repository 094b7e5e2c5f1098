// Command svgstylegen writes site/embed's svgstyle_gen.go: the style
// sheet of a standalone chart (site/widget's SVGCSS), as a constant, so
// that the Worker's module (GOOS=js GOARCH=wasm), which builds site/embed
// without site/widget's colour tables, serves the same colours. Run by
// go generate ./site/embed; TestSVGStyleCurrent fails when the file is
// stale.
package main

import (
	"flag"
	"fmt"
	"os"

	"retrylab/site/embed/internal/svgstyle"
)

func main() {
	out := flag.String("o", "svgstyle_gen.go", "the file to write")
	flag.Parse()
	if err := os.WriteFile(*out, svgstyle.Source(), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "svgstylegen:", err)
		os.Exit(1)
	}
}
