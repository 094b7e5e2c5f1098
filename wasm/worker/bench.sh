#!/usr/bin/env bash
# wasm/worker/bench.sh: the Cloudflare Worker on the real workerd binary against its
# floor, a bare syumai/workers handler that answers a constant: 2,000
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
"$GO" run ./wasm/worker/cmd/workerbench -n 2000 -c 2 -timeout 15m
