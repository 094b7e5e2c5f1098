#!/usr/bin/env bash
# deps.sh: install the system packages the tests need, when missing.
# Chromium drives the browser tests; apt needs root.
set -euo pipefail
if ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk >/dev/null
  else
    echo "deps: chromium is missing; install it (apt-get install chromium) or run as root" >&2
    exit 1
  fi
fi
