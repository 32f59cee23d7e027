package cause_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"bench/internal/testsupport/fixture"
	"bench/model/modeltest"
	"bench/record"
	"bench/tasks"
)

// Runs that several tests only read are made once, by the first test that
// asks, in a folder TestMain removes: each real episode costs test runs,
// and the tests that read the same scenario need not pay for it again. A
// test that changes a run works on a copy (copyRun).

// sharedDir is the folder of the shared runs, made by TestMain.
var sharedDir string

// TestMain makes the shared runs' folder and removes it after the tests.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "bench-cause-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	sharedDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// sharedRun is one run made on first use and only read after.
type sharedRun struct {
	name string
	once sync.Once
	data record.Data
	ok   bool
}

// get returns the run, made by build in its own folder under sharedDir by
// the first test that asks; a later test fails if that one failed.
func (s *sharedRun) get(t *testing.T, build func(dir string) record.Data) record.Data {
	t.Helper()
	s.once.Do(func() {
		dir := filepath.Join(sharedDir, s.name)
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		s.data = build(dir)
		s.ok = true
	})
	if !s.ok {
		t.Fatalf("the shared run %s failed (see the first test that made it)", s.name)
	}
	return s.data
}

var parseDateShared = sharedRun{name: "parse_date"}

// parseDateRun is one run of parse_date on the workflow and the agent:
// the workflow's reply is the task's partial/ fix (which fixes the line
// the traceback names and leaves the month off by one), and the agent
// writes the same fix without running the tests, and stops. The
// workflow's episode fails with masked_failure; the agent's has no test
// run of its own.
func parseDateRun(t *testing.T) (tasks.Task, record.Data) {
	t.Helper()
	fixture.ParallelPython(t)
	task := fixture.CourseTask(t, "parse_date")
	data := parseDateShared.get(t, func(dir string) record.Data {
		partial := overlay(t, task, "partial/dateparse.py")
		return runIn(t, dir, task, []string{"workflow", "agent"}, nil,
			fileReply("dateparse.py", partial), writeFile("dateparse.py", partial), modeltest.Text("Fixed the day's comma."))
	})
	return task, data
}

var receiptShared = sharedRun{name: "receipt_total"}

// receiptRun is one run of receipt_total on the workflow and the agent:
// the workflow writes its partial/ fix (rounding in receipt.py) and
// fails, since the fix belongs in money.py, which it does not send; the
// agent writes the solution's money.py, runs the tests and passes.
func receiptRun(t *testing.T) (tasks.Task, record.Data) {
	t.Helper()
	fixture.ParallelPython(t)
	task := fixture.SuiteTask(t, "receipt_total")
	data := receiptShared.get(t, func(dir string) record.Data {
		return runIn(t, dir, task, []string{"workflow", "agent"}, nil,
			fileReply("receipt.py", overlay(t, task, "partial/receipt.py")),
			writeFile("money.py", overlay(t, task, "solution/money.py")), modeltest.Calls(modeltest.Call("run_tests", `{}`)), modeltest.Text("Fixed."))
	})
	return task, data
}

// copyRun copies a run folder, to change the copy, and reads it back.
func copyRun(t *testing.T, data record.Data) record.Data {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "copy")
	if err := os.CopyFS(dst, os.DirFS(data.Dir)); err != nil {
		t.Fatal(err)
	}
	cp, err := record.Read(dst)
	if err != nil || len(cp.Warnings) > 0 {
		t.Fatalf("reading the copy back: %v %v", err, cp.Warnings)
	}
	return cp
}
