# SwapBay — see README.md. PocketBase v0.40 needs Go 1.27: go.mod pins the toolchain and
# GOTOOLCHAIN=auto lets the go command fetch it from the module proxy.
export GOTOOLCHAIN := auto
export CGO_ENABLED ?= 0

BIN      := bin/swapbay
HTTP     ?= 127.0.0.1:8090
DATA     ?= ./pb_data
UI_SRC   := $(shell find ui/src ui/index.html ui/vite.config.ts ui/package.json -type f 2>/dev/null)
# The Go folders (STYLE.md's layers): hooks/ holds the named invariant hooks when there are any.
GO_DIRS  := pb_app pb_migrations $(wildcard hooks) modules lib

.PHONY: run build test lint test-go test-fuzz test-ui test-e2e bench ui-deps e2e-deps tools clean

## run: build and serve on $(HTTP) with $(DATA); loads demo data into an empty data dir
run: build
	@if [ ! -f "$(DATA)/data.db" ]; then ./$(BIN) seed-demo --dir=$(DATA); fi
	./$(BIN) serve --http=$(HTTP) --dir=$(DATA)

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

## test: every test — lint, Go (unit, API, property, concurrency), UI unit, Playwright e2e
test: tools lint test-go test-ui test-e2e

lint: ui-deps e2e-deps ui/dist/index.html
	go vet $$(go list ./... | grep -v /node_modules/)
	@bad=$$(gofmt -l $(GO_DIRS) internal ui/embed.go); if [ -n "$$bad" ]; then echo "gofmt needed: $$bad"; exit 1; fi
	cd ui && npm run lint && npm run typecheck
	cd e2e && npm run typecheck

test-go: tools ui/dist/index.html
	go test -count=1 $$(go list ./... | grep -v /node_modules/)
	$(MAKE) test-fuzz

# test-fuzz runs each fuzz target for a short fixed time (the committed corpus under
# testdata/fuzz also runs as plain tests in test-go). A route target spends ~4 s starting
# its app, so the route targets get longer than the pure decoder ones; under a minute in all (about 55 s measured with a warm build cache).
FUZZ_TARGETS := lib/reqx:FuzzInt:3s lib/reqx:FuzzDecode:3s \
	modules/inventory:FuzzDriverRoutes:6s modules/charging:FuzzChargingRoutes:6s \
	modules/custody:FuzzCustodyRoutes:6s modules/system:FuzzSystemRoutes:6s \
	modules/users:FuzzUserRoutes:5s

test-fuzz:
	@for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; rest=$${t#*:}; name=$${rest%%:*}; time=$${rest#*:}; \
		echo "fuzz $$pkg $$name $$time"; \
		go test -run '^$$' -fuzz "^$$name\$$" -fuzztime=$$time -fuzzminimizetime=100x -parallel=1 ./$$pkg/ || exit 1; \
	done

test-ui: ui-deps
	cd ui && npm test

# The desktop and phone projects run at the same time, each with its own server on a free port
# (or on $(E2E_PORT) and $(E2E_PORT)+1 when given) and its own data dir: e2e/scripts/run-projects.sh.
test-e2e: tools build e2e-deps
	cd e2e && bash scripts/run-projects.sh

## bench: load run against a large data set; writes BENCHMARKS.md (not part of `make test`)
bench: tools build e2e-deps
	go run ./internal/bench

clean:
	rm -rf bin ui/dist/assets ui/dist/index.html
