#!/usr/bin/env bash
# core/bench/jitter.sh: the jitter histogram of a million clients against
# its raw MT19937 draws (core/jitter BenchmarkMillionRatio: BenchmarkMillionFull and
# BenchmarkMillionDraws in turn), natively and under GOOS=js GOARCH=wasm (Node, as
# make test's wasmtest), prints the ratio and issue 33's goal (at most
# 1.25): the fastest of forty of each.
set -euo pipefail
cd "$(dirname "$0")/../.."
GO=${GO:-go}
exec_wasm="$("$GO" env GOROOT)/lib/wasm/go_js_wasm_exec"
ratio() {
  # BenchmarkMillionRatio: the histogram and its draws in turn, the
  # fastest of each (the first runs in WebAssembly pay for V8's tiering
  # up, and a busy machine adds to some)
  awk -v where="$1" '/^BenchmarkMillionRatio/ {for (i = 1; i < NF; i++) { if ($(i+1) == "hist-ms") c = $i; if ($(i+1) == "draws-ms") d = $i }}
    END { if (c == "" || d == "") { print where ": no figures"; exit 1 }
      r = c / d; printf "%s: histogram %.1f ms, draws %.1f ms, ratio %.2f\n", where, c, d, r
      printf "goal: jitter histogram <= 1.25x its draws (%s): %s\n", where, (r <= 1.25 ? "met" : "NOT MET") }'
}
"$GO" test -run '^$' -bench 'BenchmarkMillionRatio$' -benchtime 40x ./core/jitter | tee /dev/stderr | ratio native
GOOS=js GOARCH=wasm "$GO" test -exec="$exec_wasm" -run '^$' -bench 'BenchmarkMillionRatio$' -benchtime 40x ./core/jitter | tee /dev/stderr | ratio wasm
