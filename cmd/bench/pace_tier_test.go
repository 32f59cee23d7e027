package main

import "testing"

// paceFullOnly skips t in short mode (make test): t drives whole runs
// through the command line with real grading and costs seconds of CPU, and
// what it checks in short mode is covered faster elsewhere (the package
// named by covered, or a shorter test here). Full mode (go test without
// -short, as CI runs it) always runs t, so no check is lost; see
// docs/TESTING.md.
func paceFullOnly(t *testing.T, covered string) {
	t.Helper()
	if testing.Short() {
		t.Skip("full mode only (CI runs it); in short mode: " + covered)
	}
}

// paceFew returns cases, or in short mode only their first n: the others
// run in full mode (CI), and covered names what checks them faster in
// short mode, which t logs.
func paceFew[T any](t *testing.T, cases []T, n int, covered string) []T {
	t.Helper()
	if !testing.Short() || len(cases) <= n {
		return cases
	}
	t.Logf("short mode: %d of %d cases (full mode runs them all); the others: %s", n, len(cases), covered)
	return cases[:n]
}
