# bench — common tasks. `make test` is the README's test command and what CI runs.
GO ?= go
BIN := bin/bench
# The version stamped into the binary (GOFLAGS may disable Go's own VCS stamping).
VERSION ?= $(shell git describe --always --dirty 2>/dev/null || echo devel)
DEMO := results/demo-oracle

.PHONY: build helper test test-full lint demo benchmarks smoke clean

# CGO_ENABLED is 0 for every command here unless it is set: bench needs no
# C, and a static binary starts without the dynamic loader. That start is
# paid at every test run, where bench (or a test binary) is the sandbox's
# helper, started once or twice per run: 11 ms of CPU instead of 15 for a
# small binary, and runner's short tests took 13.4-13.7 s of CPU instead
# of 15.8-16.3 s. -race needs cgo: with -race in TESTFLAGS, go test gets
# CGO_ENABLED=1. The tasks' own Go builds take their environment from
# bench, not from here.
export CGO_ENABLED ?= 0
RACE_CGO := $(if $(findstring -race,$(TESTFLAGS)),CGO_ENABLED=1)

# build shares the compiled packages of go test's builds (no -trimpath,
# which would compile everything again; -ldflags only changes the link).
# It puts bench-sandbox, the sandbox's helper built on its own, beside
# bench, which finds it there: each test run starts the helper twice, and
# the small binary starts with 6 ms of CPU here, bench with 15 ms
# (docs/SANDBOX.md).
build: helper
	$(GO) build -ldflags "-s -w -X main.buildVersion=$(VERSION)" -o $(BIN) ./cmd/bench

HELPER := bin/bench-sandbox
helper:
	$(GO) build -ldflags "-s -w" -o $(HELPER) ./sandbox/cmd/bench-sandbox

# OLLAMA_DIR is the folder of the real Ollama server's start script, found
# as the real-server suite (integration/) finds it: $$BENCH_OLLAMA_DIR, else
# shared/ollama beside the clone or beside a folder above it; empty if none.
OLLAMA_DIR := $(or $(BENCH_OLLAMA_DIR),$(shell d="$$PWD"; while p=$$(dirname "$$d"); do if [ -f "$$p/shared/ollama/start" ]; then echo "$$p/shared/ollama"; break; fi; [ "$$p" = "$$d" ] && break; d="$$p"; done))

# ollama_note says loudly, after the tests, that the real-server suite
# skipped (go test prints only "ok" for a package whose tests all skipped).
ollama_note = if [ ! -f '$(OLLAMA_DIR)/start' ]; then echo '*** $@: no real Ollama server (../shared/ollama beside the clone, or BENCH_OLLAMA_DIR): the real-server suite bench/integration SKIPPED every test; its "ok" is not a pass. CI sets BENCH_OLLAMA_REQUIRED=1, which makes it fail. ***' >&2; fi

# TESTFLAGS and PKGS narrow or extend make test (CI runs it as
# make test TESTFLAGS='-race -v' PKGS='<the concurrent packages>').
TESTFLAGS ?=
PKGS ?= ./...
# GOTEST is how every test target calls go test: -vet=off (go vet runs
# once, in lint) and -ldflags=-w (test binaries without DWARF: each of
# some 60 links is faster; stack traces keep their file:line), with
# BENCH_SANDBOX_HELPER naming the helper make helper built, so that the
# test binaries, which have none beside them, sandbox their test runs
# through it rather than through themselves (package sandbox's own tests
# take both ways).
GOTEST := BENCH_SANDBOX_HELPER='$(CURDIR)/$(HELPER)' $(RACE_CGO) $(GO) test -vet=off -ldflags=-w

# test is the README's test command: every package in short mode, a fast
# tier. Short mode leaves out the long tests (every task of the suite
# through both tracks, the 1,000-episode browser page, the kill tests, the
# sweeps on real Slurm and GNU parallel), the command-line tests that drive
# whole runs with real grading for seconds each (each names the faster test
# that covers it; docs/TESTING.md), and the real-Ollama suite but its smoke
# test; test-full and CI run them all. vet runs once, in lint (-vet=off: go
# test would run part of it again; GOTEST). BENCH_OLLAMA_DIR is passed on so that
# Go's test cache keys on whether the server is there.
test: lint helper
	@echo 'BENCH_OLLAMA_DIR=$(OLLAMA_DIR) $(GOTEST) -short $(TESTFLAGS) $(PKGS)'
	@status=0; BENCH_OLLAMA_DIR='$(OLLAMA_DIR)' $(GOTEST) -short $(TESTFLAGS) $(PKGS) || status=$$?; $(ollama_note); exit $$status

test-full: lint helper
	@echo 'BENCH_OLLAMA_DIR=$(OLLAMA_DIR) $(GOTEST) ./...'
	@status=0; BENCH_OLLAMA_DIR='$(OLLAMA_DIR)' $(GOTEST) ./... || status=$$?; $(ollama_note); exit $$status

# lint runs go vet with GOGC=400: vet type-checks every dependency from
# source, and its collector took a fifth of its CPU (46.7 CPU-s from a
# clean cache, 37.4 at 400).
lint:
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi
	GOGC=400 $(GO) vet ./...

# demo needs no model server: the detector replay, an oracle run over every
# task of the suite, Python and Go (which prints its report as text), the
# same report as Markdown with its plot and as the HTML page, and one
# episode's transcript.
demo: build
	$(BIN) detect
	rm -rf $(DEMO)
	$(BIN) run --tracks oracle --tasks all --out $(DEMO)
	$(BIN) report $(DEMO) --format markdown --plot $(DEMO)/report.svg
	$(BIN) report $(DEMO) --format html > $(DEMO)/report.html
	$(BIN) show $(DEMO) --task parse_date --track oracle --seed 1

# smoke runs the main job (workflow and agent) against a real Ollama at
# $OLLAMA_HOST with the smallest Qwen3, pulled if missing, on one task, and
# prints the report. A maintainer runs it before a release; it needs the
# model download, so it is not part of `make test`.
SMOKE_MODEL ?= qwen3:0.6b
SMOKE_TASK ?= leap_year
SMOKE_OUT := results/smoke
smoke: build
	@command -v ollama >/dev/null || { echo "smoke: needs the ollama command (https://ollama.com) and a server at \$$OLLAMA_HOST"; exit 1; }
	ollama show $(SMOKE_MODEL) >/dev/null 2>&1 || ollama pull $(SMOKE_MODEL)
	rm -rf $(SMOKE_OUT)
	$(BIN) run --model $(SMOKE_MODEL) --tasks $(SMOKE_TASK) --tracks workflow,agent --seeds 1 --out $(SMOKE_OUT)

# benchmarks runs the Go benchmarks (figures quoted in issue closing notes).
benchmarks:
	$(GO) test -run '^$$' -bench . -benchmem ./...

clean:
	rm -rf bin
