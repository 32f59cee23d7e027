package oracle

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"bench/record"
	"bench/track/tracktest"
)

// TestOracleOverlaysTheSolution: the workspace ends up holding solution/,
// each of its files recorded as one write with its size, and no model is
// asked (the fixture has none to ask).
func TestOracleOverlaysTheSolution(t *testing.T) {
	env, rec := tracktest.Fixture(t, "leap_year", nil)
	out := Oracle(context.Background(), env)
	if out.Exit != record.ExitDone || out.Err != nil {
		t.Fatalf("exit %q, err %v", out.Exit, out.Err)
	}
	want, err := fs.ReadFile(env.Task.FS, "solution/leap.py")
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(env.Dir, "leap.py")); string(got) != string(want) {
		t.Errorf("leap.py is not the solution's:\n%s", got)
	}
	writes := rec.Of(record.EventWrite)
	if len(writes) != 1 || writes[0].Path != "leap.py" || writes[0].Bytes != len(want) || writes[0].Reason != "oracle overlay" {
		t.Errorf("write events %+v; want one for leap.py of %d bytes", writes, len(want))
	}
	if kinds := rec.Kinds(); len(kinds) != len(writes) {
		t.Errorf("events %v; want only the writes", kinds)
	}
}

// TestOracleWithoutASolution: a task with no solution/ ends the episode
// with an error that says so, and records nothing.
func TestOracleWithoutASolution(t *testing.T) {
	env, rec := tracktest.Fixture(t, "leap_year", nil)
	env.Task.FS = fstest.MapFS{"repo/leap.py": {Data: []byte("x = 1\n")}}
	out := Oracle(context.Background(), env)
	if out.Exit != record.ExitError || out.Err == nil || !strings.Contains(out.Err.Error(), "no solution/ folder") {
		t.Fatalf("exit %q, err %v; want an error naming the missing solution/", out.Exit, out.Err)
	}
	if len(rec.Kinds()) != 0 {
		t.Errorf("events %v; want none", rec.Kinds())
	}
}
