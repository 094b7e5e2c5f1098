#!/usr/bin/env bash
# wasm/playground/bench.sh: the browser playground, measured in Chromium
# against dist/ (make bench builds it first), in one run: module size
# raw/gzip/brotli and code per package, time from navigation to data-ready
# against a bare Go wasm hello-world (median of five cold loads), recompute
# latency p50/p95 of every calculator's widget at the page's values and at
# its largest allowed parameters, and the frame time while a time view plays
# (site/e2e/cmd/wasmbench); then the Lighthouse scores, mobile and desktop,
# of the article pages (site/e2e/cmd/lighthouse, npm lighthouse pinned in
# site/e2e/package.json); the long tasks of the main thread while each of
# those pages loads and scrolls on a phone, each with the step of loading it
# falls in (site/e2e/cmd/longtasks); and the goals side by side. Arguments
# go to wasmbench.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=$(mktemp)
trap 'rm -f "$out"' EXIT
go run ./site/e2e/cmd/wasmbench "$@" | tee "$out"
[ -x site/e2e/node_modules/.bin/lighthouse ] || ./site/e2e/deps.sh
go run ./site/e2e/cmd/lighthouse | tee -a "$out"
# the long tasks of the main thread at phone size, 4x CPU, idle and under
# load, each with the loading step it falls in (issue 33)
go run ./site/e2e/cmd/longtasks | tee -a "$out"
echo "-- the playground's goals, side by side"
grep '^goal:' "$out"
