# bench — common tasks. `make test` is the README's test command and what CI runs.
GO ?= go
BIN := bin/bench
# The version stamped into the binary (GOFLAGS may disable Go's own VCS stamping).
VERSION ?= $(shell git describe --always --dirty 2>/dev/null || echo devel)
DEMO := results/demo-oracle

.PHONY: build test test-full lint demo benchmarks smoke clean

build:
	$(GO) build -trimpath -ldflags "-s -w -X main.buildVersion=$(VERSION)" -o $(BIN) ./cmd/bench

# test is the README's test command: every package in short mode, the CLI
# end to end against protocol fakes and the real-Ollama suite included; short
# mode leaves out only the long sweeps (every task of the suite through both
# tracks, the 1,000-episode browser page, the kill tests), which test-full
# and CI's race run take.
test: lint
	$(GO) test -short ./...

test-full: lint
	$(GO) test ./...

lint:
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

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
