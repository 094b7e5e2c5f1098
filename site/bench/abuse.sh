#!/usr/bin/env bash
# 75-abuse: the servers under abuse, with the issue's absolute goal.
# `retrylab serve`: 50 clients send the largest requests the server
# accepts for 3 s while a reader fetches a page every 100 ms; the page's
# p99 beside its goal (< 50 ms), the same page from an idle server at the
# same moments (the machine's own noise), the heavy answers and the
# server's peak RSS (goal < 300 MB). Three runs. Then the Worker on
# workerd (wasm/worker/e2e's TestAbuse, after `make worker`): 4 clients of
# distinct heavy questions, the page's p50/p99 beside an idle Worker's.
# make test judges each page against its idle twin instead
# (site/cmd/retrylab's TestServeUnderAbuse, wasm/worker/e2e's TestAbuse);
# here the numbers are absolute, so run this on a machine the bench has to
# itself.
set -euo pipefail
cd "$(dirname "$0")/../.."
GO=${GO:-go}
for i in 1 2 3; do
  "$GO" test -v -count 1 -run '^TestServeUnderAbuse$' ./site/cmd/retrylab -args -bench-abuse | grep -E '^serve-abuse:'
done
make -s worker GO="$GO" >/dev/null
"$GO" test -tags e2e -v -count 1 -run '^TestAbuse$' ./wasm/worker/e2e | grep -E 'heavy: ' | sed -E 's/^ *e2e_test.go:[0-9]+: /workerd-abuse (page goal < 50 ms): /'
