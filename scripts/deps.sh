#!/usr/bin/env bash
# deps.sh: install the system packages the tests need, when missing.
# Chromium drives the browser tests; apt needs root.
# fonts-noto-cjk lets the screenshots of the Chinese pages show Chinese
# characters instead of empty boxes.
set -euo pipefail
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
[ -d /usr/share/fonts/opentype/noto ] && ls /usr/share/fonts/opentype/noto | grep -q CJK || missing+=(fonts-noto-cjk)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "deps: missing ${missing[*]}; install with apt-get install ${missing[*]} (or run make test as root)" >&2
    exit 1
  fi
fi
# The pinned JavaScript tools (package-lock.json): workerd runs the local
# Cloudflare Worker, axe-core audits the pages. Installed again when the
# lock file is newer than the installed tree; no install scripts run.
cd "$(dirname "$0")/.."
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  if ! command -v npm >/dev/null 2>&1; then
    echo "deps: npm is missing; install Node.js 20 and npm, then run: npm ci --ignore-scripts" >&2
    exit 1
  fi
  npm ci --ignore-scripts --no-audit --no-fund
fi
