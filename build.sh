#!/usr/bin/env bash
# build.sh: compile the browser playground to WebAssembly, then render
# content/ into dist/ with the same Go code. Usage: ./build.sh [extra flags
# for `retrylab build`, e.g. -base-url /retrylab/].
set -euo pipefail
cd "$(dirname "$0")"
GO=${GO:-go}
mkdir -p build
if [ -d wasm/playground ]; then
  # buildflags: one go build flag a line, or NAME=value for the go
  # command's environment (GOEXPERIMENT); blank lines and # comments skipped
  flags=() envs=()
  while IFS= read -r line; do
    case $line in '' | '#'*) ;; [A-Z]*=*) envs+=("$line") ;; *) flags+=("$line") ;; esac
  done < wasm/playground/buildflags
  # one module per calculator set of site/widget (Sets): wasm/playground/NAME
  # becomes build/playground-NAME.wasm; each page loads the one it needs
  rm -f build/playground*.wasm
  for main in wasm/playground/*/main.go; do
    name=$(basename "$(dirname "$main")")
    env GOOS=js GOARCH=wasm "${envs[@]}" "$GO" build "${flags[@]}" -o "build/playground-$name.wasm" "./wasm/playground/$name"
  done
  cp "$("$GO" env GOROOT)/lib/wasm/wasm_exec.js" build/wasm_exec.js
fi
"$GO" run ./site/cmd/retrylab build -content content -out dist -wasm build "$@"
