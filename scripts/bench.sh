#!/usr/bin/env bash
# bench.sh: every benchmark of the project, one section per file in
# scripts/bench.d/, run in name order. Needs python3 for the CPython
# comparisons and Chromium for the browser measurements.
set -euo pipefail
cd "$(dirname "$0")/.."
for f in scripts/bench.d/*.sh; do
  [ -e "$f" ] || continue
  echo "== $(basename "$f" .sh)"
  bash "$f"
done
