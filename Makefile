# retrylab: `make serve` builds everything and serves it on 127.0.0.1:8080;
# `make test` runs every test (vet, staticcheck, unit, golden, browser).
ADDR ?= 127.0.0.1:8080
GO ?= go

.PHONY: all build serve test vet staticcheck unit bench wasm worker clean deps

all: build

# build writes dist/: the wasm playground, then the pages.
build:
	./build.sh

serve: build
	$(GO) run ./site/cmd/retrylab serve -addr $(ADDR) -dist dist

vet:
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet ./wasm/...

staticcheck:
	$(GO) tool staticcheck ./...
	GOOS=js GOARCH=wasm $(GO) tool staticcheck ./wasm/...

# deps installs what the browser tests need when it is missing (as root).
deps:
	./scripts/deps.sh

unit:
	$(GO) test ./...

test: deps vet staticcheck build unit

bench: build
	./scripts/bench.sh

clean:
	rm -rf dist build
