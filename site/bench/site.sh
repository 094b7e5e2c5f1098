#!/usr/bin/env bash
# 30-site: how long `retrylab build` takes on the real content/ (pages,
# widgets computed, assets hashed, gzip and brotli siblings), target under
# one second per build; and the one-off compression of the wasm module.
set -euo pipefail
cd "$(dirname "$0")/../.."
GO=${GO:-go}
"$GO" test -run '^$' -bench 'BenchmarkBuildSite|BenchmarkCompressWasm' -benchtime 5x -benchmem ./site/pages
