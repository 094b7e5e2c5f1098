#!/usr/bin/env bash
# 20-article2: the article-2 simulations. The dispatch simulation must run
# 100,000 jobs in well under a second (one core), in both modes; the
# backoff calculator 100,000 workers × 7 retries with CPython draws. Prints
# ns/op per benchmark and, for the dispatch budget, the verdict.
set -euo pipefail
cd "$(dirname "$0")/../.."
GO=${GO:-go}
out=$("$GO" test -run '^$' -bench 'BenchmarkHundredThousand' -benchtime 5x -benchmem ./core/dispatch ./core/backoff)
echo "$out"
echo "$out" | awk '/^BenchmarkHundredThousandJobs/ {
  ns = $3; printf "%s: %.0f ms per 100,000 jobs (%s)\n", $1, ns / 1e6, (ns < 1e9 ? "under 1 s" : "OVER 1 s") }'
