#!/usr/bin/env bash
# deps.sh: install what `make test` needs beyond Go, when missing (make deps).
# - Chromium drives the browser tests (site/e2e); fonts-noto-cjk lets the
#   screenshots of the Chinese pages show Chinese characters; zopfli gzips
#   the wasm modules as they are served (make build -zopfli). apt needs root.
# - The pinned JavaScript tools, each folder with its own lock file, installed
#   with `npm ci --ignore-scripts` (no install scripts run) when the lock file
#   is newer than the installed tree: site/e2e (axe-core, the accessibility
#   audits), wasm/worker (workerd, the local Cloudflare Worker) and site/search
#   (Pagefind, the search index the build writes; its binary is a plain file
#   of its optional platform package, so --ignore-scripts is enough).
set -euo pipefail
cd "$(dirname "$0")/../.."
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v zopfli >/dev/null 2>&1 || missing+=(zopfli)
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
for dir in site/e2e wasm/worker site/search; do
  if [ ! -f "$dir/node_modules/.package-lock.json" ] || [ "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]; then
    if ! command -v npm >/dev/null 2>&1; then
      echo "deps: npm is missing; install Node.js 20 and npm, then run: (cd $dir && npm ci --ignore-scripts)" >&2
      exit 1
    fi
    (cd "$dir" && npm ci --ignore-scripts --no-audit --no-fund)
  fi
done
