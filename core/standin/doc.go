// Package standin is the one folder of the stand-ins: small packages that
// take the place of a standard (or golang.org/x) package in the browser's
// modules and the Worker, each because the original costs the module
// bytes it need not carry (or, for fmath, because the original's last bit
// differs between amd64 and wasm). Each stand-in keeps its original's
// behaviour, held to it by a differential test in its folder, and is
// nothing else: the project's domain code lives outside this folder.
//
//	bigint       math/big              amplification's call counts
//	query        net/url               the widgets' and the API's queries
//	jsonread     encoding/json         reading JSON (page data, parameters)
//	sha256sum    crypto/sha256         canonjson's ETags
//	tokenbucket  golang.org/x/time/rate  the limiters of limits and dispatch
//	errwrap      fmt.Errorf("%w: %s")  core's wrapped errors
//	heapsort     slices.Sort           sorting in the encoders and simulations
//	fmath        math.Exp, Log, ...    the same bits in the build and the browser
//
// What each saves is not typed here: `make bench` (core/standin/bench.sh)
// builds today's modules with each original in its place and prints the
// difference. The original is a build tag away: standin_orig_NAME selects
// the file orig.go of stand-in NAME, which implements its API with the
// original package; `go test -tags standin_orig_NAME ./core/standin/NAME`
// then holds the original to the stand-in's tests where they use only the
// API. fmath has no such tag: it stays for the same bits in the build and
// the browser, not for size.
//
// NoEqual (noequal.go) is the other size-driven idiom, explained there.
package standin
