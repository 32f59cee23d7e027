//go:build !race

package sandbox

// raceEnabled says that this binary was built with -race.
const raceEnabled = false
