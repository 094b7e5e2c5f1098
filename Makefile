# retrylab: `make serve` builds everything and serves it on 127.0.0.1:8080;
# `make test` runs every test (vet, staticcheck, unit, golden, browser).
ADDR ?= 127.0.0.1:8080
# BASE_URL: where the site lives (/, /sub/path/ or https://host/sub/path/).
BASE_URL ?= /
GO ?= go

.PHONY: all build serve test vet staticcheck unit wasmtest bench wasm worker clean deps

all: build

# build writes dist/: the wasm playground, then the pages.
build:
	./build.sh -base-url $(BASE_URL)

serve: build
	$(GO) run ./site/cmd/retrylab serve -addr $(ADDR) -dist dist -base-url $(BASE_URL)

vet:
	@out=$$(gofmt -l calc core e2e scripts site wasm worker); \
	if [ -n "$$out" ]; then echo "gofmt -w these files:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet ./wasm/...

staticcheck:
	$(GO) tool staticcheck ./...
	# the staticcheck binary is the host's; only the packages are js/wasm
	GOOS=js GOARCH=wasm $$($(GO) tool -n staticcheck) ./wasm/...

# deps installs what the browser tests need when it is missing (as root).
deps:
	./scripts/deps.sh

unit: wasmtest
	# the browser tests (e2e/) drive every page of dist/ in Chromium: more
	# than go test's default 10 minutes on a small machine
	$(GO) test -timeout 45m ./...

# wasmtest runs, under GOOS=js GOARCH=wasm (node), the tests whose golden
# files were written natively on amd64: core/fmath's bits, every
# calculator's result and the widgets' rendered HTML must be the same in
# the browser and the Worker as in the build, and the generated encoders of
# the results equal to encoding/json's; and the parsers and the hash
# of core/canonjson and core/sha256sum, whose recursion depth and integer
# arithmetic differ under wasm (the JavaScript engine's stack); and
# core/bigint against math/big, with core/pyrand's CPython vectors; and
# core/tokenbucket against golang.org/x/time/rate, with the limiter and
# the dispatch simulation built on it.
WASM_EXEC = $$($(GO) env GOROOT)/lib/wasm/go_js_wasm_exec
wasmtest:
	GOOS=js GOARCH=wasm $(GO) test -exec="$(WASM_EXEC)" ./core/fmath ./core/canonjson ./core/sha256sum ./core/bigint ./core/pyrand ./core/query ./core/tokenbucket ./core/limits ./core/dispatch ./core/heapsort ./calc/crossarch
	GOOS=js GOARCH=wasm $(GO) test -exec="$(WASM_EXEC)" -run '^(TestGolden|TestEncode.*)$$' ./site/widget

test: deps vet staticcheck build worker unit

# worker builds the Cloudflare Worker into build/worker (see worker/wrangler.toml):
# the JavaScript shim of workers-assets-gen (which empties build/worker first),
# the site's handler compiled to app.wasm, the edge layer in front of the
# shim (worker/edge: entry.mjs, the main module, edge.mjs, edge-data.mjs,
# written by workerassets), and public/, the static assets:
# dist/ without the precompressed variants, with a _headers file and
# assets.json for the local workerd run (worker/workerd.capnp).
worker: build
	$(GO) tool workers-assets-gen -mode=go -o build/worker
	GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags="-s -w" -o build/worker/app.wasm ./wasm/worker
	$(GO) run ./worker/cmd/workerassets -dist dist -wrangler worker/wrangler.toml -out build/worker

bench: build
	./scripts/bench.sh

clean:
	rm -rf dist build
