#!/usr/bin/env bash
# 40-playground: the browser playground, measured in Chromium against
# dist/ (make bench builds it first): module size raw/gzip/brotli and code
# per package, time from navigation to data-ready against a bare Go wasm
# hello-world (median of five cold loads), and recompute latency p50/p95
# of every calculator's widget at the page's values and at its largest
# allowed parameters. See site/e2e/cmd/wasmbench.
set -euo pipefail
cd "$(dirname "$0")/../.."
exec go run ./site/e2e/cmd/wasmbench "$@"
