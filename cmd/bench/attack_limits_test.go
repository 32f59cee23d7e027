package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"bench/internal/testsupport"
	"bench/internal/testsupport/fixture"
	"bench/model"
	"bench/model/modeltest"
	"bench/record"
)

// slowImport is the reference leap.py made slow: importing it takes
// twenty seconds, so only its grading runs past a short episode limit (the
// agent never runs the tests).
const slowImport = `
import time as _time

_time.sleep(20)
`

// TestAttackGradingWithinTheEpisodeLimit: --episode-timeout covers grading
// too: a correct fix whose grading would take 20 s on a 6 s limit ends as
// a timeout within the limit, not as a pass.
func TestAttackGradingWithinTheEpisodeLimit(t *testing.T) {
	fixture.FullOnly(t, "grade's TestControlsGrowTheTimeout and TestAttackWorkspaceOverTheLimit")
	t.Parallel()
	fixture.NeedPython(t)
	fix := testsupport.TaskFile(t, leapTask(t), "solution")
	srv := modeltest.NewOllama(t, scriptedModel(map[int]script{1: {calls: []model.ToolCall{writeFile("leap.py", fix+slowImport)}}}))
	start := time.Now()
	_, data := benchRunIn(t, srv, "--tracks", "agent", "--episode-timeout", "6s")
	ep := episode(t, data, "agent", 1)
	if ep.Passed || ep.ExitReason != record.ExitTimeout {
		t.Errorf("passed %v, exit %s, %d/%d, error %q; want a timeout", ep.Passed, ep.ExitReason, ep.TestsPassed, ep.TestsTotal, ep.Error)
	}
	if ep.WallMS > 9000 || time.Since(start) > 18*time.Second {
		t.Errorf("the episode took %d ms (the run %s) on a 6 s limit", ep.WallMS, time.Since(start))
	}
}

// sparseFiles is Python run at import of leap.py: it makes n sparse files
// of 4 MiB each (no data on disk) in the workspace, once.
const sparseFiles = `
import os as _os

if not _os.path.exists("sparse"):
    _os.makedirs("sparse")
    for _i in range(%d):
        with open("sparse/%%05d.bin" %% _i, "wb") as _f:
            _f.truncate(4 << 20)
    print("MADE %d SPARSE FILES", flush=True)
`

// sparseRun has the agent write the reference fix plus n sparse files and
// run the tests, with the extra bench run arguments.
func sparseRun(t *testing.T, n int, args ...string) (record.Episode, []string) {
	t.Helper()
	fix := testsupport.TaskFile(t, leapTask(t), "solution")
	srv := modeltest.NewOllama(t, scriptedModel(map[int]script{1: {calls: []model.ToolCall{
		writeFile("leap.py", fix+fmt.Sprintf(sparseFiles, n, n)), runTests(),
	}}}))
	_, data := benchRunIn(t, srv, append([]string{"--tracks", "agent"}, args...)...)
	res := toolResults(srv)[1]
	if len(res) != 2 || !strings.Contains(res[1], fmt.Sprintf("MADE %d SPARSE FILES", n)) {
		t.Fatalf("the sparse files were not made: %q", res)
	}
	return episode(t, data, "agent", 1), res
}

// TestAttackWorkspaceOverTheLimit: a workspace whose files add up to more
// than --workspace-limit (here 60 sparse files of 4 MiB on a 64 MiB limit)
// is not copied for grading: the episode fails and says why.
func TestAttackWorkspaceOverTheLimit(t *testing.T) {
	t.Parallel()
	fixture.NeedPython(t)
	ep, _ := sparseRun(t, 60, "--workspace-limit", "64MiB")
	if ep.Passed || !strings.Contains(ep.Error, "--workspace-limit") {
		t.Errorf("passed %v, %d/%d, error %q; want a failure naming the limit", ep.Passed, ep.TestsPassed, ep.TestsTotal, ep.Error)
	}
}

// TestAttackSparseWorkspaceUnderTheLimit: the same 240 MiB of sparse files
// under the default limit are graded as they are: the fix passes.
func TestAttackSparseWorkspaceUnderTheLimit(t *testing.T) {
	fixture.FullOnly(t, "grade's TestSealKeepsSparseFilesSparse and TestAttackWorkspaceOverTheLimit")
	t.Parallel()
	fixture.NeedPython(t)
	ep, _ := sparseRun(t, 60)
	if !ep.Passed || ep.Error != "" {
		t.Errorf("passed %v, %d/%d, error %q; want the fix to pass", ep.Passed, ep.TestsPassed, ep.TestsTotal, ep.Error)
	}
}

// TestWorkspaceLimitIsARunSetting: --workspace-limit is recorded in
// run.json (the default left out), is what a resumed run grades with, and
// cannot be changed by --resume, since it decides verdicts.
func TestWorkspaceLimitIsARunSetting(t *testing.T) {
	t.Parallel()
	fixture.NeedPython(t)
	dir := filepath.Join(t.TempDir(), "run")
	if _, stderr, err := runCLI(t, "run", "--tracks", "oracle", "--tasks", "leap_year", "--workspace-limit", "64MiB", "--out", dir); err != nil {
		t.Fatalf("bench run: %v\n%s", err, stderr)
	}
	data, err := record.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if data.Run.WorkspaceLimit != 64<<20 {
		t.Errorf("run.json records workspace_limit %d, want %d", data.Run.WorkspaceLimit, 64<<20)
	}
	_, _, err = runCLI(t, "run", "--resume", dir, "--workspace-limit", "1MiB")
	if err == nil || !strings.Contains(err.Error(), "workspace-limit") {
		t.Errorf("--resume with --workspace-limit: %v; want a refusal naming it", err)
	}
	if raw, _ := os.ReadFile(filepath.Join(sharedOracleRun(t), record.RunFile)); strings.Contains(string(raw), "workspace_limit") {
		t.Errorf("the default limit is written to run.json:\n%s", raw)
	}
}
