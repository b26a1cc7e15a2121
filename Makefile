# SwapBay — see README.md. PocketBase v0.40 needs Go 1.27: go.mod pins the toolchain and
# GOTOOLCHAIN=auto lets the go command fetch it from the module proxy.
export GOTOOLCHAIN := auto
export CGO_ENABLED ?= 0
# -trimpath: every go command (build, vet, test, fuzz) compiles without the clone's path, so the
# Go build cache is keyed by content alone and a fresh clone of code already built on this machine
# reuses its compiled packages (measured on a second clone of one commit: go vet of every package
# 146 core-s -> 1; compiling the test binaries 80 -> 47, the links that remain). Tests that need
# PocketBase's own test data dir name a dir (tests.NewTestApp(t.TempDir())): its default is found
# through the source path -trimpath removes.
# GOFLAGS in the environment replaces the go env file's, so what that file sets is kept.
ifeq ($(filter -trimpath,$(GOFLAGS)),)
export GOFLAGS := $(strip $(shell go env GOFLAGS) -trimpath)
endif

BIN      := bin/swapbay
HTTP     ?= 127.0.0.1:8090
DATA     ?= ./pb_data
UI_SRC   := $(shell find ui/src ui/index.html ui/hq.html ui/vite.config.ts ui/vite.hq.config.ts ui/package.json -type f 2>/dev/null)
# The Go folders (STYLE.md's layers): hooks/ holds the named invariant hooks when there are any.
GO_DIRS  := pb_app pb_migrations $(wildcard hooks) modules lib

.PHONY: run run-hq build test lint run-lint stage-lint test-go test-go-unit run-test-go-unit run-test-system run-test-fuzz run-test-ui run-test-e2e test-system test-fuzz test-ui test-e2e bench ui-deps e2e-deps tools clean

## run: build and serve on $(HTTP) with $(DATA); loads demo data into an empty data dir
run: build
	@if [ ! -f "$(DATA)/data.db" ]; then ./$(BIN) seed-demo --dir=$(DATA); fi
	./$(BIN) serve --http=$(HTTP) --dir=$(DATA)

## run-hq: three demo cities (own demo data and pack prefix, replicating to local dirs) and head office following them; prints the logins (scripts/run-hq.sh, DESIGN.md §15)
run-hq: build
	BIN=$(BIN) bash scripts/run-hq.sh

## build: the single binary with the UI embedded
build: $(BIN)

$(BIN): ui/dist/index.html $(shell find $(GO_DIRS) ui -name '*.go' 2>/dev/null) go.mod go.sum
	go build -trimpath -o $(BIN) ./pb_app

# npm ci refuses the lock files this npm writes (optional per-platform packages are left out of
# them), so installs use `npm install`, which still follows the locked versions.
ui/node_modules/.package-lock.json: ui/package-lock.json
	cd ui && npm install --no-audit --no-fund

ui-deps: ui/node_modules/.package-lock.json

ui/dist/index.html: ui/node_modules/.package-lock.json $(UI_SRC)
	cd ui && npm run build

e2e/node_modules/.package-lock.json: e2e/package-lock.json
	cd e2e && npm install --no-audit --no-fund

e2e-deps: e2e/node_modules/.package-lock.json

## tools: Chromium for the e2e tests and pdftotext for the PDF tests (installed with apt-get as root, else a one-line hint)
tools:
	@bash scripts/ensure-tools.sh

## test: every test, in stages (each timed by scripts/stage.sh: .ci/run prints the table):
##   tools → build → {test-e2e, lint, test-system, test-go-unit, test-fuzz, test-ui} (make -j$(TEST_JOBS))
# The binary is built once (build) and handed to every test that runs it: the e2e servers and
# the system tests (SWAPBAY_BIN). TEST_JOBS is how many of the last six stages run at once: on
# 2 cores, 2 — the e2e suite (the desktop and phone projects at once: e2e/scripts/run-projects.sh)
# beside the others one after the other, in the order of TEST_STAGES. More jobs (or four e2e runs)
# on 2 cores only starve each other: TEST_JOBS=3 with four e2e runs took 1235 s against 1032 s.
# -k lets every stage finish and be timed when one fails (any failure still fails make test).
export STAGE_DIR ?= $(CURDIR)/.stages
STAGE     := bash scripts/stage.sh
TEST_JOBS ?= 2
TEST_STAGES := test-e2e lint test-system test-go-unit test-fuzz test-ui

test:
	@rm -rf $(STAGE_DIR)
	@$(STAGE) tools bash scripts/ensure-tools.sh
	@$(STAGE) build $(MAKE) --no-print-directory ui-deps e2e-deps build
	@$(MAKE) --no-print-directory -k -j$(TEST_JOBS) $(addprefix run-,$(TEST_STAGES))

lint: ui-deps e2e-deps ui/dist/index.html
	@$(MAKE) --no-print-directory run-$@

run-lint:
	@$(STAGE) lint $(MAKE) --no-print-directory stage-lint

stage-lint:
	go vet $$(go list ./... | grep -v /node_modules/)
	@bad=$$(gofmt -l $(GO_DIRS) internal ui/embed.go); if [ -n "$$bad" ]; then echo "gofmt needed: $$bad"; exit 1; fi
	cd ui && npm run lint && npm run typecheck
	cd e2e && npm run typecheck

# The system tests run the built binary whole (SIGKILL crash and disk-full, the replication
# drill, the hostile catalogue's memory budget, head office following a city, each on real
# `swapbay serve` children): their own stage, beside the UI stages. SYSTEM_RUN names the system
# tests of a package whose other tests are unit tests; test-go-unit skips them.
SYSTEM_PKGS := ./internal/crashtest ./internal/drill ./internal/hostile ./internal/hqdrill
SYSTEM_RUN  := ^(TestSIGKILLLosesNothingAndRunsNothingTwice|TestDiskFullRefusesCleanlyAndRecovers|TestDrillRestoresFromTheReplicaAlone|TestHostileCatalogueStaysWithinTheMemoryBudget|TestHQFollowsACityProcess)$$
UNIT_PKGS    = $$(go list ./... | grep -v -e /node_modules/ -e /internal/crashtest -e /internal/drill -e /internal/hqdrill)

## test-go: every Go test (unit, API, property, concurrency, fuzz) and the system tests
test-go: test-go-unit test-fuzz test-system

# Each stage X is `make X` (its prerequisites first) or `make run-X` (none: `make test` has made
# them all before the stages start, and make -j then starts every stage at once).
test-go-unit: tools ui/dist/index.html
	@$(MAKE) --no-print-directory run-$@

# -vet=off: lint runs the whole of go vet over the same packages (go test's own vet is a subset
# of it), so the unit stage does not type-check every package a second time.
run-test-go-unit:
	@$(STAGE) test-go-unit go test -count=1 -vet=off -skip '$(SYSTEM_RUN)' $(UNIT_PKGS)

test-system: tools build
	@$(MAKE) --no-print-directory run-$@

run-test-system:
	@$(STAGE) test-system env SWAPBAY_BIN=$(CURDIR)/$(BIN) go test -count=1 -run '$(SYSTEM_RUN)' $(SYSTEM_PKGS)

# test-fuzz runs each fuzz target for a short fixed time (the committed corpus under
# testdata/fuzz also runs as plain tests in test-go-unit). A route target spends ~4 s starting
# its app, so the route targets get longer than the pure decoder ones; under a minute in all (about 55 s measured with a warm build cache).
FUZZ_TARGETS := lib/reqx:FuzzInt:3s lib/reqx:FuzzDecode:3s \
	modules/inventory:FuzzDriverRoutes:6s modules/charging:FuzzChargingRoutes:6s \
	modules/custody:FuzzCustodyRoutes:6s modules/system:FuzzSystemRoutes:6s \
	modules/users:FuzzUserRoutes:5s

test-fuzz: tools ui/dist/index.html
	@$(MAKE) --no-print-directory run-$@

run-test-fuzz:
	@$(STAGE) test-fuzz $(MAKE) --no-print-directory stage-test-fuzz

stage-test-fuzz:
	@for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; rest=$${t#*:}; name=$${rest%%:*}; time=$${rest#*:}; \
		echo "fuzz $$pkg $$name $$time"; \
		go test -run '^$$' -fuzz "^$$name\$$" -fuzztime=$$time -fuzzminimizetime=100x -parallel=1 ./$$pkg/ || exit 1; \
	done

test-ui: ui-deps
	@$(MAKE) --no-print-directory run-$@

run-test-ui:
	@$(STAGE) test-ui bash -c 'cd ui && npm test'

# The desktop and phone projects run at the same time, each with its own server on a free port
# (or on $(E2E_PORT) and $(E2E_PORT)+1 when given) and its own data dir: e2e/scripts/run-projects.sh.
test-e2e: tools build e2e-deps
	@$(MAKE) --no-print-directory run-$@

run-test-e2e:
	@$(STAGE) test-e2e bash -c 'cd e2e && bash scripts/run-projects.sh'

## bench: load run against a large data set; writes BENCHMARKS.md (not part of `make test`)
bench: tools build e2e-deps
	SWAPBAY_BIN=$(CURDIR)/$(BIN) go run ./internal/bench

clean:
	rm -rf bin ui/dist/assets ui/dist/index.html .stages
