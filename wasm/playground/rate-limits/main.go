// Command rate-limits is the playground's WebAssembly module for the calculators
// of the article on rate limits (site/widget.RateLimits): build.sh compiles it to
// build/playground-rate-limits.wasm, and the build gives it to every page whose
// widgets that set holds and no earlier set of site/widget.Sets does.
package main

import (
	"retrylab/site/widget"
	"retrylab/wasm/playground"
)

func main() { playground.Main(widget.RateLimits()) }
