#!/usr/bin/env bash
# 40-playground: the browser playground, measured in Chromium against
# dist/ (make bench builds it first), in one run: module size raw/gzip/
# brotli and code per package, time from navigation to data-ready against
# a bare Go wasm hello-world (median of five cold loads), and recompute
# latency p50/p95 of every calculator's widget at the page's values and
# at its largest allowed parameters (e2e/cmd/wasmbench); then the
# Lighthouse scores, mobile and desktop, of the article pages
# (e2e/cmd/lighthouse, npm lighthouse pinned in package.json); and the
# goals of both side by side. Arguments go to wasmbench.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=$(mktemp)
trap 'rm -f "$out"' EXIT
go run ./e2e/cmd/wasmbench "$@" | tee "$out"
if [ -x node_modules/.bin/lighthouse ]; then
  go run ./e2e/cmd/lighthouse | tee -a "$out"
else
  echo "lighthouse: skipped: node_modules/.bin/lighthouse is missing (npm ci --ignore-scripts)" | tee -a "$out"
fi
echo "-- the playground's goals, side by side"
grep '^goal:' "$out"
