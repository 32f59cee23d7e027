// Package testsupport holds what tests of several packages share: whether
// Python and Go are here (tools.go, from package fixture, which test
// binaries that need no more link alone), one in-memory sink of episodes and
// trajectories (sink.go), and one fake model that answers every course
// task with its solution (solver.go), and the bench binary that the
// test packages driving it as a user would share, built once (bench.go).
// Fakes only: no production code imports this package.
package testsupport
