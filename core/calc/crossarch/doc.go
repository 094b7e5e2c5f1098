// Package crossarch holds only a test: every calculator of the registry
// (package calc) runs at its defaults, at the edges of its form sliders,
// at each of its choices and at a few hand-picked parameter sets, and its
// JSON result (or error) must equal testdata/calculators.golden byte for
// byte. The golden file is written natively on amd64 (`go test
// ./calc/crossarch -update`); `make wasmtest` runs the same test under
// GOOS=js GOARCH=wasm, where the browser playground and the Cloudflare
// Worker run the calculators. A difference means some result depends on
// the architecture (math.Exp and math.Log are assembly on amd64 and pure
// Go on wasm: core/standin/fmath is the portable replacement).
package crossarch
