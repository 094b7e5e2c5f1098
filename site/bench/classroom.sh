#!/usr/bin/env bash
# 70-classroom: what the embeds and the classroom cost: the answer tables
# every build computes (once per language), the variants of a class of 30
# (retrylab exercises), and one chart of /api/v1/NAME.svg at the defaults.
set -euo pipefail
cd "$(dirname "$0")/../.."
go test -run '^$' -bench 'BenchmarkTables|BenchmarkClass' -benchmem -count 3 ./site/classroom | grep -E '^Benchmark'
go test -run '^$' -bench 'BenchmarkSVG' -benchmem -count 3 ./site/embed | grep -E '^Benchmark'
