// Package replayrun replays a recording in tests as bench run --replay
// does: runner.NewReplay and Execute write a new run folder, which is read
// back. The tests of replay and of the shipped examples use it, so that
// they check the replay the command line runs, not a copy of its loop. It
// is a package of its own because testsupport, which runner's tests
// import, cannot import runner.
package replayrun

import (
	"context"
	"path/filepath"
	"testing"

	"bench/record"
	"bench/replay"
	"bench/runner"
)

// Parallel is how many episodes Run replays at once: two, as on the two
// cores the suite is sized for.
const Parallel = 2

// Run replays every episode of src into a new folder under t.TempDir()
// and returns the folder read back; each episode line carries the
// player's result (Replay). It fails t when the replay cannot run, when
// the folder does not read whole, or when an episode lacks its result.
func Run(t testing.TB, src *replay.Source) record.Data {
	t.Helper()
	rr, err := runner.NewReplay(runner.ReplaySpec{Source: src, Dir: filepath.Join(t.TempDir(), "replayed"), Parallel: Parallel, BenchVersion: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if err := rr.Execute(context.Background(), runner.ExecOptions{}); err != nil {
		t.Fatal(err)
	}
	data, err := record.Read(rr.Dir)
	if err != nil || len(data.Warnings) > 0 {
		t.Fatalf("reading the replay's folder: %v %v", err, data.Warnings)
	}
	for _, ep := range data.Episodes {
		if ep.Replay == nil {
			t.Fatalf("the replayed %s carries no replay result", ep.Key())
		}
	}
	return data
}
