// Package standin is the one folder of the stand-ins: small packages that
// take the place of a standard (or golang.org/x) package in the browser's
// modules and the Worker, each because the original costs the module
// bytes it need not carry (or, for fmath, because the original's last bit
// differs between amd64 and wasm; for pcgrand, because the original's
// interface call and uninlined ziggurat cost contention's recompute a
// third of its time in WebAssembly). Each stand-in keeps its original's
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
//	pcgrand      math/rand/v2's PCG    contention's normal and metastable's exponential draws, for time
//
// Three replacements for size live outside this folder, beside the code
// they serve, and are measured the same way: site/widget's generated JSON
// encoders (encode_gen.go, by site/widget/internal/encgen) in the place of
// encoding/json's Marshal (a function per result type, generated: tag
// standin_orig_encoders; encode_test.go compares them with encoding/json
// on every calculator), and wasm/playground/unwrap.go in the place of
// calling dom/v2 through its interfaces (tag standin_orig_unwrap;
// TestUnwrapCoversDOMv2 holds dom/v2's layout, TestModulesLinkTheirSet
// the modules), and wasm/playground/listen.go in the place of dom/v2's
// AddEventListener, whose wrapEvent converts every event type to
// dom.Event (tag standin_orig_listen; TestListen runs both on Node's
// EventTarget in make test, TestModulesLinkTheirSet holds the modules).
//
// What each saves is not typed here: `make bench` (core/standin/bench.sh)
// builds today's modules with each original in its place and prints the
// difference; a stand-in that saves under 1 % of every module it is in
// goes, and the original comes back. The original is a build tag away:
// standin_orig_NAME selects the file orig.go of stand-in NAME (or
// encode_orig.go, unwrap_orig.go, listen_orig.go), which implements its API with the
// original package; `go test -tags standin_orig_NAME ./core/standin/NAME`
// then holds the original to the stand-in's tests where they use only the
// API. fmath has no such tag: it stays for the same bits in the build and
// the browser, not for size.
//
// The other size-driven idioms, each explained once where it is applied:
// NoEqual (noequal.go), the blank field that spares a struct its
// equality function; the no-inline flags of the browser's modules
// (wasm/playground/buildflags, one line of reason per flag); and two
// //go:noinline functions (core/policies' tracer.frame, core/timeouts'
// skip), each with its reason in its comment.
package standin
