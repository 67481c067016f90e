# sessionkeep build. `make demo` and `make test` do all the set-up on a fresh machine:
# npm packages (node-api-headers, TypeScript), Go modules, the addon and the TypeScript.

GO      ?= go
NPM     ?= npm
ADDON   := build/Release/sessionkeep.node
GO_SRC  := $(shell find native bridge session persistence -name '*.go' -o -name '*.c' -o -name '*.h' -o -name '*.sh') go.mod go.sum
TS_SRC  := $(shell find ts -name '*.ts') tsconfig.json

.PHONY: all deps build addon ts demo test test-go test-node bench bench-context clean

all: build

# npm ci installs exactly package-lock.json; --ignore-scripts skips our own install script
# (node-gyp rebuild), since this Makefile builds the addon itself.
node_modules/.package-lock.json: package.json package-lock.json
	$(NPM) ci --ignore-scripts --no-audit --no-fund

.go-modules: go.mod go.sum
	$(GO) mod download
	@touch $@

deps: node_modules/.package-lock.json .go-modules

$(ADDON): $(GO_SRC) node_modules/.package-lock.json .go-modules
	sh native/build-addon.sh

addon: $(ADDON)

dist/.built: $(TS_SRC) node_modules/.package-lock.json
	npx tsc -p .
	@touch $@

ts: dist/.built

build: addon ts

# The demo streams seed 000's conversation in one process and restores it in another.
demo: build
	node dist/demo/seed000.js

test: build
	$(MAKE) test-go test-node

test-go: .go-modules
	$(GO) vet ./...
	$(GO) test -race -count=1 ./...

test-node: build
	node --test --test-concurrency=1 test/*.test.mjs

clean:
	rm -rf build dist .go-modules

# The core figures: addon load, ingest of 10,000 chunks until durable, restore of 2,000
# messages, each in fresh processes.
bench: build
	node bench/core.mjs

# buildContext at a 32K budget on 1,000 and 20,000 messages: the cost must not grow with
# the session (it reads counts through indexes, the tail and cached summaries).
bench-context: build
	node bench/context.mjs
