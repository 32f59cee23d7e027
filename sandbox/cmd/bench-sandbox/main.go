// Command bench-sandbox is bench's sandbox helper built on its own: a
// small executable that links only package sandbox/internal/helper, so that
// each of its two starts per test run costs about 6 ms of CPU here, where
// a start of bench itself costs 15 ms. make build puts it beside bench,
// where bench finds it (or BENCH_SANDBOX_HELPER names it); without it,
// bench serves as its own helper. docs/SANDBOX.md says more.
package main

import (
	"os"

	// Its init function serves the helper, and never returns then.
	_ "bench/sandbox/internal/helper"
)

func main() {
	os.Stderr.WriteString("bench-sandbox is bench's sandbox helper: bench starts it, with a hidden first argument; run bench instead\n")
	os.Exit(2)
}
