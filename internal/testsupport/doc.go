// Package testsupport holds what tests of several packages share beyond
// package fixture's light helpers: one fake model that answers every
// course task with its solution (solver.go), and the bench binary and its
// sandbox helper that the test packages driving bench as a user would
// share, built once (bench.go). Its test checks that CI requires every
// suite that can skip (ci_test.go).
// Fakes only: no production code imports this package.
package testsupport
