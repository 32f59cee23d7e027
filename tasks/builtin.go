package tasks

import (
	"slices"
	"sync"
)

// suiteTasks is the built-in suite, loaded once per process: loading
// reads, parses and checks every task's files (milliseconds), and a run,
// its checks and its views ask for the suite many times.
var suiteTasks = sync.OnceValues(func() ([]Task, error) { return Load(Suite()) })

// Builtin returns every task compiled into bench (as Load(Suite())),
// sorted by name. Each call returns its own copy, slices included, so
// that no caller can change what the next one gets.
func Builtin() ([]Task, error) {
	all, err := suiteTasks()
	if err != nil {
		return nil, err
	}
	out := make([]Task, len(all))
	for i, t := range all {
		t.TestCmd, t.TestFiles, t.Tests = slices.Clone(t.TestCmd), slices.Clone(t.TestFiles), slices.Clone(t.Tests)
		out[i] = t
	}
	return out, nil
}
