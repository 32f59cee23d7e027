# bench — common tasks. `make test` is the README's test command and what CI runs.
GO ?= go
BIN := bin/bench
# The version stamped into the binary (GOFLAGS may disable Go's own VCS stamping).
VERSION ?= $(shell git describe --always --dirty 2>/dev/null || echo devel)
DEMO := results/demo-oracle

.PHONY: build test lint demo benchmarks clean

build:
	$(GO) build -trimpath -ldflags "-s -w -X main.buildVersion=$(VERSION)" -o $(BIN) ./cmd/bench

test: lint
	$(GO) test ./...

lint:
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

# demo needs no model server: the detector replay, an oracle run (which
# prints its report as text), the same report as Markdown with its plot, and
# one episode's transcript.
demo: build
	$(BIN) detect
	rm -rf $(DEMO)
	$(BIN) run --tracks oracle --out $(DEMO)
	$(BIN) report $(DEMO) --format markdown --plot $(DEMO)/report.svg
	$(BIN) show $(DEMO) --task parse_date --track oracle --seed 1

# benchmarks runs the Go benchmarks (figures quoted in issue closing notes).
benchmarks:
	$(GO) test -run '^$$' -bench . -benchmem ./...

clean:
	rm -rf bin
