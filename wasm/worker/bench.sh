#!/usr/bin/env bash
# wasm/worker/bench.sh: the Cloudflare Worker on the real workerd binary against its
# own worst cases and against its floor. First, each calculator's worst
# accepted request (core/calc's worstAccepted and serverProbes) sent to the
# local workerd one at a time: the CPU time of the Worker's workerd process
# by the scheduler's per-thread counts (workerd freezes the Worker's clocks,
# so it cannot time itself) against wrangler.toml's cpu_ms; then paths of
# 2,000 to 8,000 segments, the CPU time of each workerd process (the
# assets layer's and the Worker's). Then the floor, a bare syumai/workers
# handler that answers a constant: 2,000
# requests per scenario, 2 at a time, on 127.0.0.1 (bare; the API on
# distinct questions; one question repeated, answered by the edge layer;
# the SVG chart; a static asset): requests per second, p50/p99, workerd's
# CPU time per request, and the goals' verdicts. Builds the Worker (make
# worker) and installs workerd (site/e2e/deps.sh) when missing.
set -euo pipefail
cd "$(dirname "$0")/../.."
GO=${GO:-go}
[ -x wasm/worker/node_modules/.bin/workerd ] || ./site/e2e/deps.sh
make -s worker GO="$GO" >/dev/null
# the worst accepted requests of every calculator at the Worker's share of
# the bounds (wasm/worker's workScale): core/calc's search
# (worstAccepted, serverProbes) writes them, workerbench -worst sends them
# to workerd one at a time
scale=$(sed -nE 's/^const workScale = ([0-9.]+).*/\1/p' wasm/worker/main.go)
mkdir -p build/workerbench
"$GO" test -count=1 -run '^TestServerWorkQueries$' ./core/calc -args -serverwork.scale "$scale" -serverwork.queries "$PWD/build/workerbench/worst.txt" >/dev/null
"$GO" run ./wasm/worker/cmd/workerbench -worst build/workerbench/worst.txt -scale "$scale" -n 2000 -c 2 -timeout 15m
