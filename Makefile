# bench — common tasks. `make test` is the README's test command and what CI runs.
GO ?= go
BIN := bin/bench

.PHONY: build test lint demo bench clean

build:
	$(GO) build -o $(BIN) ./cmd/bench

test: lint
	$(GO) test ./...

lint:
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

# demo needs no model server: the detector replay, an oracle run, its report.
demo: build
	$(BIN) detect
	$(BIN) run --tracks oracle --out results/demo-oracle
	$(BIN) report results/demo-oracle

# bench runs the Go benchmarks (figures quoted in issue closing notes).
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

clean:
	rm -rf bin
