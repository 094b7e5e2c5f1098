// Command all is the playground's WebAssembly module for every calculator
// (site/widget.All): build.sh compiles it to build/playground-all.wasm, and
// the build gives it to a page that mixes the experiments of both
// articles, which neither article's module holds.
package main

import (
	"retrylab/site/widget"
	"retrylab/wasm/playground"
)

func main() { playground.Main(widget.All()) }
