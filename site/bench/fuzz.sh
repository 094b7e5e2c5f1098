#!/usr/bin/env bash
# fuzz: every fuzz target of the tree (each func Fuzz* that `go test -list`
# finds in the packages of ./..., the quick loop's build, without tags)
# for FUZZTIME each (default 60s), one target after the other (go test
# runs one fuzz target at a time; its workers take the machine's cores).
# One line per target: its package, its name, ok with the executions it
# made, or FAIL with the failing input's file (testdata/fuzz/NAME/…,
# which then joins the target's seed corpus: commit it with the fix).
# Exits 1 if any target failed. FUZZTIME=10s for a quicker pass.
set -euo pipefail
cd "$(dirname "$0")/../.."
GO=${GO:-go}
FUZZTIME=${FUZZTIME:-60s}
targets=()
names=()
while IFS= read -r line; do
  case "$line" in
    Fuzz*) names+=("$line") ;;
    ok*)
      pkg=$(awk '{print $2}' <<<"$line")
      for n in "${names[@]}"; do targets+=("$pkg $n"); done
      names=()
      ;;
    FAIL* | *"build failed"*)
      echo "fuzz: go test -list failed: $line" >&2
      exit 1
      ;;
    *) names=() ;;
  esac
done < <("$GO" test -list '^Fuzz' ./... 2>&1)
if [ ${#targets[@]} -eq 0 ]; then
  echo "fuzz: no fuzz target found" >&2
  exit 1
fi
echo "fuzz: ${#targets[@]} targets, $FUZZTIME each"
failed=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for t in "${targets[@]}"; do
  read -r pkg name <<<"$t"
  if "$GO" test -run '^$' -fuzz "^${name}\$" -fuzztime "$FUZZTIME" "$pkg" >"$out" 2>&1; then
    execs=$(grep -oE 'execs: [0-9]+' "$out" | tail -1 | awk '{print $2}')
    echo "fuzz: ok   $pkg $name (${execs:-?} execs in $FUZZTIME)"
  else
    failed=$((failed + 1))
    input=$(grep -oE 'testdata/fuzz/[^ ]+' "$out" | tail -1 || true)
    echo "fuzz: FAIL $pkg $name ${input:+(input $input)}"
    grep -vE '^fuzz: elapsed' "$out" | tail -20 | sed 's/^/    /'
  fi
done
if [ "$failed" -gt 0 ]; then
  echo "fuzz: $failed of ${#targets[@]} targets failed"
  exit 1
fi
echo "fuzz: all ${#targets[@]} targets ran $FUZZTIME without a failure"
