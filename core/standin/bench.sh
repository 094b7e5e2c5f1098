#!/usr/bin/env bash
# core/standin/bench.sh: what each stand-in saves, measured on today's
# modules. Builds every page's module (wasm/playground/<set>, with the
# flags of wasm/playground/buildflags, read as build.sh reads them) once as
# is and once per build tag that puts an original back in a stand-in's
# place, and prints the gzip -9 size of each and the saving in bytes and %.
# Usage: core/standin/bench.sh [tag ...] (default: every tag below).
set -euo pipefail
cd "$(dirname "$0")/../.."
GO=${GO:-go}
# tag            the original it builds with
tags=(
  standin_orig_heapsort    # slices.Sort and sort.Sort in core/standin/heapsort
  standin_orig_query       # net/url in core/standin/query
  standin_orig_sha256sum   # crypto/sha256 in core/standin/sha256sum
  standin_orig_errwrap     # fmt.Errorf in core/standin/errwrap
  standin_orig_tokenbucket # golang.org/x/time/rate in core/standin/tokenbucket
  standin_orig_bigint      # math/big in core/standin/bigint
  standin_orig_jsonread    # encoding/json in core/standin/jsonread
  standin_orig_encoders    # json.Marshal in site/widget's generated encoders (encode_gen.go)
  standin_orig_unwrap      # dom/v2's interfaces (Underlying) in wasm/playground/unwrap.go
  standin_orig_listen      # dom/v2's AddEventListener (wrapEvent) in wasm/playground/listen.go
)
# Not here: fmath (math), which stays for the same bits on amd64 and
# wasm, not for size.
[ $# -gt 0 ] && tags=("$@")
flags=() envs=()
while IFS= read -r line; do
  case $line in '' | '#'*) ;; [A-Z]*=*) envs+=("$line") ;; *) flags+=("$line") ;; esac
done < wasm/playground/buildflags
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
sets=()
for main in wasm/playground/*/main.go; do sets+=("$(basename "$(dirname "$main")")"); done
# build TAG: every set's module with -tags TAG ("" for none); prints gzip -9 bytes per set
build() {
  local tag=$1 set f
  for set in "${sets[@]}"; do
    f="$out/${tag:-base}-$set.wasm"
    env GOOS=js GOARCH=wasm "${envs[@]}" nice -n 10 "$GO" build "${flags[@]}" ${tag:+-tags "$tag"} -o "$f" "./wasm/playground/$set"
    gzip -9 -c "$f" | wc -c
  done
}
mapfile -t base < <(build "")
for i in "${!sets[@]}"; do
  printf 'module %-12s %9d bytes gzip -9 as is\n' "${sets[$i]}" "${base[$i]}"
done
for tag in "${tags[@]}"; do
  mapfile -t with < <(build "$tag")
  for i in "${!sets[@]}"; do
    d=$(( with[i] - base[i] ))
    note=""
    [ "$d" -lt 0 ] && note="  (the original is smaller)"
    awk -v t="$tag" -v s="${sets[$i]}" -v d="$d" -v w="${with[$i]}" -v n="$note" \
      'BEGIN { printf "saving %-26s %-12s %8d bytes %6.2f%% of the module with the original (%d)%s\n", t, s, d, 100*d/w, w, n }'
  done
done
