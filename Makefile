# retrylab: `make serve` builds everything and serves it on 127.0.0.1:8080;
# `make test` runs every test (vet, staticcheck, unit, golden, browser).
# `go test ./...` is the quick loop: it needs Go alone; the tests that need
# the built site, Chromium or the npm tools carry the build tag e2e, which
# make test turns on (and where a missing piece is a failure, not a skip).
ADDR ?= 127.0.0.1:8080
# BASE_URL: where the site lives (/, /sub/path/ or https://host/sub/path/).
BASE_URL ?= /
# SEARCH: the search index (Pagefind, site/search): auto builds it when
# Pagefind is installed, require fails without it (make test), off skips it.
SEARCH ?= auto
# ZOPFLI: gzip the wasm modules with Debian's zopfli (5 % smaller than Go's
# gzip, site/pages zopfliGzip): auto when installed, require (make test:
# the module budget is measured on what is served), off.
ZOPFLI ?= auto
GO ?= go
# START is when make started (Unix seconds); TESTSUM reads go test -json,
# writes the tests' output as it comes, and adds up what ran in
# build/testsum.json: the last of make test's go test runs ends with one
# line of what ran (packages, tests, browser page loads, time) and one
# "N passed, N failed, N skipped" (site/e2e/cmd/testsum).
START := $(shell date +%s)
TESTSUM = $(GO) run ./site/e2e/cmd/testsum -tally build/testsum.json -since $(START)
# the packages built for the browser and the Worker (GOOS=js GOARCH=wasm)
JS_PKGS = ./wasm/playground/... ./wasm/worker ./wasm/worker/goshim ./wasm/hello ./wasm/workerbare

.PHONY: all build serve test vet staticcheck unit wasmtest bench wasm worker clean deps shots layout

all: build

# build writes dist/: the wasm playground, then the pages.
build:
	./build.sh -base-url $(BASE_URL) -search $(SEARCH) -zopfli $(ZOPFLI)

serve: build
	$(GO) run ./site/cmd/retrylab serve -addr $(ADDR) -dist dist -base-url $(BASE_URL)

vet:
	@out=$$(gofmt -l core site wasm); \
	if [ -n "$$out" ]; then echo "gofmt -w these files:"; echo "$$out"; exit 1; fi
	$(GO) vet -tags e2e ./...
	# without tags too: the quick loop (go test ./...) builds the test
	# files that lack //go:build e2e
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet $(JS_PKGS)

staticcheck:
	$(GO) tool staticcheck -tags e2e ./...
	# the staticcheck binary is the host's; only the packages are js/wasm
	GOOS=js GOARCH=wasm $$($(GO) tool -n staticcheck) $(JS_PKGS)

# layout runs issue 30's layout check alone (site/e2e TestLayout, build
# tag e2e, part of make test too): every widget of every page at 375 and
# 1280 px, light and dark, at the page's values and mid-play.
layout: build deps
	$(GO) test -tags e2e -run TestLayout -timeout 30m ./site/e2e/

# shots writes a PNG of every widget of every page and a JPEG of every
# whole page, on a 375 px phone and a 1280 px desktop, in the light and the
# dark scheme, under build/shots: pictures to review by eye, not goldens
# (site/e2e/cmd/shots).
shots: build deps
	$(GO) run ./site/e2e/cmd/shots -out build/shots -full

# deps installs what the browser tests need when it is missing (as root).
deps:
	./site/e2e/deps.sh

unit: wasmtest
	# -tags e2e: also the tests of the built site, the browser tests
	# (site/e2e: every page of dist/ in Chromium) and the Worker on workerd
	# (wasm/worker/e2e): more than go test's default 10 minutes on a small
	# machine. The timeout only catches a hang: site/e2e alone took 2,463 s
	# on two idle cores in session 30 before TestScreenshots left it (460 s)
	# and TestAxe stopped loading each page twice (552 s to 302 s), and it
	# passed 45 minutes on a machine at load 15 (make test must pass on a
	# busy machine, issue 27). testsum's last lines name the slowest tests.
	$(GO) test -json -tags e2e -timeout 80m ./... | $(TESTSUM)

# wasmtest runs, under GOOS=js GOARCH=wasm (node), the tests whose golden
# files were written natively on amd64: core/standin/fmath's bits, every
# calculator's result and the widgets' rendered HTML must be the same in
# the browser and the Worker as in the build (the articles' comparisons
# too), and the generated encoders of
# the results equal to encoding/json's; and the parsers and the hash
# of core/canonjson and core/standin/sha256sum, whose recursion depth and integer
# arithmetic differ under wasm (the JavaScript engine's stack); and
# core/standin/bigint against math/big, with core/pyrand's CPython vectors; and
# core/standin/pcgrand against math/rand/v2 (its Fill keeps the state in
# locals, for the module); and
# core/standin/tokenbucket against golang.org/x/time/rate, with the limiter and
# the dispatch simulation built on it; and wasm/playground's listen, and
# dom/v2's AddEventListener in its place (standin_orig_listen), on Node's
# EventTarget.
WASM_EXEC = $$($(GO) env GOROOT)/lib/wasm/go_js_wasm_exec
wasmtest:
	GOOS=js GOARCH=wasm $(GO) test -json -exec="$(WASM_EXEC)" ./core/standin/fmath ./core/canonjson ./core/standin/jsonread ./core/standin/sha256sum ./core/standin/bigint ./core/pyrand ./core/standin/query ./core/standin/tokenbucket ./core/limits ./core/dispatch ./core/timeouts ./core/retryafter ./core/standin/heapsort ./core/standin/pcgrand ./core/calc/crossarch | $(TESTSUM) -quiet
	GOOS=js GOARCH=wasm $(GO) test -json -exec="$(WASM_EXEC)" -run '^(TestGolden|TestGoldenCompare|TestEncode.*)$$' ./site/widget | $(TESTSUM) -quiet
	GOOS=js GOARCH=wasm $(GO) test -json -exec="$(WASM_EXEC)" ./wasm/playground | $(TESTSUM) -quiet
	GOOS=js GOARCH=wasm $(GO) test -json -exec="$(WASM_EXEC)" -tags standin_orig_listen -run '^TestListen$$' ./wasm/playground | $(TESTSUM) -quiet

test: deps vet staticcheck build worker unit
# make test builds the search index or fails (the browser tests search it)
test: SEARCH = require
test: ZOPFLI = require

# worker builds the Cloudflare Worker into build/worker (see wasm/worker/wrangler.toml):
# the JavaScript shim of workers-assets-gen (which empties build/worker first;
# its wasm_exec.js is kept, its worker.mjs replaced by wasm/worker/goshim's,
# which starts Go once per isolate: worker.mjs, goshim.mjs),
# the site's handler compiled to app.wasm, the edge layer in front of the
# shim (entry.mjs, the main module, and wasm/worker/edge: edge.mjs, edge-data.mjs),
# all but app.wasm written by workerassets, and public/, the static assets:
# dist/ without the precompressed variants, with a _headers file and
# assets.json for the local workerd run (wasm/worker/workerd.capnp).
worker: build
	$(GO) tool workers-assets-gen -mode=go -o build/worker
	GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags="-s -w" -o build/worker/app.wasm ./wasm/worker
	$(GO) run ./wasm/worker/cmd/workerassets -dist dist -wrangler wasm/worker/wrangler.toml -out build/worker

# bench runs every benchmark, each script beside what it measures, one
# section each: the mathematics against CPython (core/bench), the site
# build, the playground in Chromium, the Worker on workerd, the classroom.
# Needs python3 for the CPython comparisons and Chromium.
BENCHES = core/standin/bench.sh core/bench/article1.sh core/bench/jitter.sh core/bench/article2.sh core/bench/policies.sh core/bench/recompute.sh core/bench/serverwork.sh site/bench/site.sh \
	wasm/playground/bench.sh wasm/worker/bench.sh site/bench/classroom.sh \
	site/bench/abuse.sh site/bench/fuzz.sh
bench: build
	@for f in $(BENCHES); do echo "== $$f"; GO=$(GO) bash $$f || exit 1; done

clean:
	rm -rf dist build
