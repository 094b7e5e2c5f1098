#!/usr/bin/env bash
# recompute: the calculators whose recompute at the defaults is the
# dearest (issue 30: at most 16 ms p95 in the browser, measured there by
# wasm/playground/bench.sh), each package's benchmark at its defaults,
# natively and as WebAssembly under Node in the same run, with bytes and
# allocations (the GC is far dearer in WebAssembly); and pcgrand, the
# stand-in kept for time, beside the original it replaces (a normal draw;
# 256 uniform draws through Fill, as core/timeouts draws a call's gaps).
set -euo pipefail
cd "$(dirname "$0")/../.."
GO=${GO:-go}
exec_wasm="$("$GO" env GOROOT)/lib/wasm/go_js_wasm_exec"
pkgs=(./core/metastable ./core/contention ./core/strategies ./core/configure ./core/timeouts)
pat='BenchmarkDefaults|BenchmarkManyClients|BenchmarkStationary|BenchmarkDrainTime|BenchmarkSimDrain'
# one normal draw an op: two million of them, three times (the first
# run of a function in WebAssembly may be before V8 optimizes it)
rnd=(-bench BenchmarkNormFloat64 -benchtime 2000000x -count 3 ./core/standin/pcgrand)
fill=(-bench BenchmarkFill -benchtime 20000x -count 3 ./core/standin/pcgrand)
echo "-- natively"
GOMAXPROCS=1 "$GO" test -run '^$' -bench "$pat" -benchtime 10x -benchmem "${pkgs[@]}" | grep -E '^(Benchmark|ok)'
GOMAXPROCS=1 "$GO" test -run '^$' -bench 'BenchmarkShown' -benchtime 10x -benchmem ./core/policies | grep -E '^(Benchmark|ok)'
GOMAXPROCS=1 "$GO" test -run '^$' "${rnd[@]}" | grep -E '^(Benchmark|ok)'
GOMAXPROCS=1 "$GO" test -run '^$' "${fill[@]}" | grep -E '^(Benchmark|ok)'
GOMAXPROCS=1 "$GO" test -run '^$' -bench 'BenchmarkMetastableDefaults' -benchtime 10x -benchmem ./core/calc | grep -E '^(Benchmark|ok)'
echo "-- as WebAssembly (Node)"
GOOS=js GOARCH=wasm "$GO" test -exec="$exec_wasm" -run '^$' -bench "$pat" -benchtime 10x -benchmem "${pkgs[@]}" | grep -E '^(Benchmark|ok)'
GOOS=js GOARCH=wasm "$GO" test -exec="$exec_wasm" -run '^$' -bench 'BenchmarkShown' -benchtime 10x -benchmem ./core/policies | grep -E '^(Benchmark|ok)'
GOOS=js GOARCH=wasm "$GO" test -exec="$exec_wasm" -run '^$' "${rnd[@]}" | grep -E '^(Benchmark|ok)'
GOOS=js GOARCH=wasm "$GO" test -exec="$exec_wasm" -run '^$' "${fill[@]}" | grep -E '^(Benchmark|ok)'
