// Command derivegen writes site/assets/classroom-derive.js from
// site/classroom's DeriveJS; `go generate ./site/classroom` runs it in
// site/classroom.
package main

import (
	"log"
	"os"
	"path/filepath"

	"retrylab/site/classroom"
)

func main() {
	out := filepath.Join("..", "assets", filepath.Base(classroom.DeriveJSFile))
	if err := os.WriteFile(out, []byte(classroom.DeriveJS()), 0o644); err != nil {
		log.Fatal(err)
	}
}
