#!/usr/bin/env bash
# wasm/playground/bench.sh: the browser playground, measured in Chromium
# against dist/ (make bench builds it first), in one run: module size
# raw/gzip/brotli and code per package, time from navigation to data-ready
# against a bare Go wasm hello-world (median of five cold loads), recompute
# latency p50/p95 of every calculator's widget at the page's values and at
# its largest allowed parameters, and the frame time while a time view plays
# (site/e2e/cmd/wasmbench); then the Lighthouse scores, mobile and desktop,
# of the article pages (site/e2e/cmd/lighthouse, npm lighthouse pinned in
# site/e2e/package.json); and the goals of both side by side. Arguments go
# to wasmbench.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=$(mktemp)
trap 'rm -f "$out"' EXIT
go run ./site/e2e/cmd/wasmbench "$@" | tee "$out"
[ -x site/e2e/node_modules/.bin/lighthouse ] || ./site/e2e/deps.sh
go run ./site/e2e/cmd/lighthouse | tee -a "$out"
echo "-- the playground's goals, side by side"
grep '^goal:' "$out"
