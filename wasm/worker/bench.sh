#!/usr/bin/env bash
# 50-worker: the Cloudflare Worker on the real workerd binary against the
# native server, 5,000 requests each, 16 at a time, on 127.0.0.1: requests
# per second, latency and workerd's resident memory. Builds the Worker
# (make worker) and installs workerd (site/e2e/deps.sh) when missing.
set -euo pipefail
cd "$(dirname "$0")/../.."
GO=${GO:-go}
[ -x wasm/worker/node_modules/.bin/workerd ] || ./site/e2e/deps.sh
make -s worker GO="$GO" >/dev/null
"$GO" run ./wasm/worker/cmd/workerbench -n 5000 -c 16 -timeout 15m
