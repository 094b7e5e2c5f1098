// Command backoff-work is the playground's WebAssembly module for the
// calculators of the article on what backoff is for
// (site/widget.BackoffWork): build.sh compiles it to
// build/playground-backoff-work.wasm, and the build gives it to every page
// whose widgets that set holds and no earlier set of site/widget.Sets
// does.
package main

import (
	"retrylab/site/widget"
	"retrylab/wasm/playground"
)

func main() { playground.Main(widget.BackoffWork()) }
