package replay_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"bench/internal/testsupport/fixture"
	"bench/internal/testsupport/replayrun"
	"bench/model"
	"bench/model/modeltest"
	"bench/record"
	"bench/replay"
	"bench/runner"
	"bench/tasks"
	"bench/workflow"
)

// allTracks are the tracks every recording of these tests runs.
var allTracks = []string{"workflow", "workflow-retry", "hybrid", "agent", "oracle"}

// hybridNote is the note the scripted hybrid agent gives run_workflow;
// the fake tells the hybrid's inner request from the workflow tracks' by it.
const hybridNote = "apply the 400-year rule"

// leapWrong is the fix the workflow tracks get first: it drops the
// century rule instead of adding the 400-year one, and fails two tests.
const leapWrong = `"""Calendar helpers for the Gregorian calendar."""


def is_leap(year):
    """Return True when year has a 29th of February."""
    return year % 4 == 0


def days_in_year(year):
    """Return 366 for a leap year and 365 otherwise."""
    return 366 if is_leap(year) else 365
`

// leapModel is the scripted model of every track on leap_year, on the
// fake Ollama server. The workflow tracks get leapWrong first and the
// solution on a second request (unless rightFirst); the hybrid's inner
// call, told apart by hybridNote, gets the solution; the hybrid agent
// delegates once and stops; the agent runs the tests, reads leap.py,
// writes the solution, runs the tests again and stops. Each reply reports
// its own token counts, so that the sums of a replay are checked.
type leapModel struct {
	solution   string
	rightFirst bool
}

// reply answers one request.
func (m leapModel) reply(r modeltest.Request) modeltest.Reply {
	users, tools := 0, 0
	for _, msg := range r.Messages {
		switch msg.Role {
		case model.RoleUser:
			users++
		case model.RoleTool:
			tools++
		}
	}
	fix := func(content string, k int) modeltest.Reply {
		return modeltest.Text(fmt.Sprintf("FILE: leap.py\n```python\n%s```\n", content)).WithUsage(300+k, 40+k)
	}
	switch {
	case len(r.Tools) == 0 && r.Messages[0].Content == workflow.SystemPrompt:
		switch {
		case strings.Contains(r.Last().Content, hybridNote):
			return fix(m.solution, 7)
		case users == 1 && !m.rightFirst:
			return fix(leapWrong, 1)
		}
		return fix(m.solution, 2)
	case slices.Contains(r.Tools, "run_workflow"):
		if tools == 0 {
			return modeltest.Calls(modeltest.Call("run_workflow", fmt.Sprintf(`{"note":%q}`, hybridNote))).WithUsage(500, 20)
		}
		return modeltest.Text("The workflow fixed leap.py.").WithUsage(900, 9)
	}
	steps := []modeltest.Reply{
		modeltest.Calls(modeltest.Call("run_tests", `{}`)),
		modeltest.Calls(modeltest.Call("read_file", `{"path":"leap.py"}`)),
		modeltest.Calls(modeltest.Call("write_file", fmt.Sprintf(`{"path":"leap.py","content":%q}`, m.solution))),
		modeltest.Calls(modeltest.Call("run_tests", `{}`)),
	}
	if tools < len(steps) {
		return steps[tools].WithUsage(600+100*tools, 30+tools)
	}
	return modeltest.Text("Done: leap.py follows the Gregorian calendar.").WithUsage(1100, 12)
}

// recording is a run recorded against the fake server, which is closed
// once the run is done.
type recording struct {
	dir      string // the run folder
	taskRoot string // the folder of the task copy the run used (one subfolder per task)
	data     record.Data
	srv      *modeltest.Server
}

// copyTasks copies the embedded task name into a new tasks folder and
// returns the folder.
func copyTasks(t *testing.T, name string) string {
	t.Helper()
	return copyTasksInto(t, t.TempDir(), name)
}

// copyTasksInto copies the embedded task name into the tasks folder root.
func copyTasksInto(t *testing.T, root, name string) string {
	t.Helper()
	if err := fixture.CourseTask(t, name).CopyDir(".", filepath.Join(root, name)); err != nil {
		t.Fatal(err)
	}
	return root
}

// loadTasks loads the tasks of a tasks folder.
func loadTasks(t *testing.T, root string) []tasks.Task {
	t.Helper()
	all, err := tasks.FromDir(root)
	if err != nil {
		t.Fatal(err)
	}
	return all
}

// recordRun runs tracks on a copy of leap_year with seed 1 through the
// real runner (NewRun, Connect, Execute) against a fake Ollama answering
// with m, then closes the server. The task copy and the run folder are
// made in base.
func recordRun(t *testing.T, base string, m leapModel, tracks ...string) recording {
	t.Helper()
	root := copyTasksInto(t, filepath.Join(base, "tasks"), "leap_year")
	m.solution = readFile(t, filepath.Join(root, "leap_year", "solution", "leap.py"))
	srv := modeltest.NewOllama(t, modeltest.Always(modeltest.Func(m.reply)))
	spec := runner.Spec{Model: srv.Config(), RunSettings: record.DefaultSettings()}
	spec.Tasks, spec.Tracks, spec.Seeds = loadTasks(t, root), tracks, []int{1}
	spec.Dir = filepath.Join(base, "recorded")
	s, err := runner.NewRun(spec)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	servers, err := s.ConnectInspected(runner.Inspect(ctx, s.ServerConfigs()))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Execute(ctx, servers, runner.ExecOptions{}); err != nil {
		t.Fatal(err)
	}
	srv.Close()
	data, err := record.Read(spec.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(data.Episodes) != len(tracks) {
		t.Fatalf("recorded %d episodes, want %d", len(data.Episodes), len(tracks))
	}
	return recording{dir: spec.Dir, taskRoot: root, data: data, srv: srv}
}

// shared is the recording of every track with leapModel{} that most
// tests replay, made once by the first test that asks (sharedRun) in a
// folder TestMain removes; the tests only read it.
var shared struct {
	once sync.Once
	dir  string
	run  recording
	ok   bool
}

// TestMain removes the shared recording's folder after the tests.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "bench-replay-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	shared.dir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// sharedRun is the shared recording of every track, made on first use.
func sharedRun(t *testing.T) recording {
	t.Helper()
	shared.once.Do(func() {
		shared.run = recordRun(t, shared.dir, leapModel{}, allTracks...)
		shared.ok = true
	})
	if !shared.ok {
		t.Fatal("the shared recording failed (see the first test that made it)")
	}
	return shared.run
}

// only keeps the episodes of src of the given tracks.
func only(src *replay.Source, tracks ...string) *replay.Source {
	src.Episodes = slices.DeleteFunc(src.Episodes, func(e replay.Episode) bool { return !slices.Contains(tracks, e.Recorded.Track) })
	return src
}

// episode is the recorded episode of a track.
func (r recording) episode(t *testing.T, track string) record.Episode {
	t.Helper()
	i := slices.IndexFunc(r.data.Episodes, func(ep record.Episode) bool { return ep.Track == track })
	if i < 0 {
		t.Fatalf("no recorded %s episode", track)
	}
	return r.data.Episodes[i]
}

// events is the recorded trajectory of a track's episode.
func (r recording) events(t *testing.T, track string) []record.Event {
	t.Helper()
	events, _, err := record.ReadTrajectory(r.data.TrajectoryPath(r.episode(t, track)))
	if err != nil {
		t.Fatal(err)
	}
	return events
}

// replayed is one episode replayed: the fresh episode as the runner
// would append it, the player's result and the new trajectory.
type replayed struct {
	ep     record.Episode
	res    record.Replay
	events []record.Event
}

// replayAll replays every episode of src into a new run folder as `bench
// run --replay` does (replayrun: runner.NewReplay and Execute, the player
// as the only model client, for the hybrid's inner call too) and reads
// back each track's episode, result and trajectory. No model client is
// made: nothing but the player can answer.
func replayAll(t *testing.T, src *replay.Source) map[string]replayed {
	t.Helper()
	data := replayrun.Run(t, src)
	out := map[string]replayed{}
	for _, ep := range data.Episodes {
		events, warnings, err := record.ReadTrajectory(data.TrajectoryPath(ep))
		if err != nil || len(warnings) > 0 {
			t.Fatalf("reading the replayed trajectory of %s: %v %v", ep.Key(), err, warnings)
		}
		out[ep.Track] = replayed{ep: ep, res: *ep.Replay, events: events}
	}
	if len(out) != len(src.Episodes) {
		t.Fatalf("%d tracks replayed, want %d", len(out), len(src.Episodes))
	}
	return out
}

// open opens the recording against the tasks of root.
func (r recording) open(t *testing.T, root string) *replay.Source {
	t.Helper()
	src, err := replay.Open(r.dir, loadTasks(t, root))
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// readFile reads a file as text.
func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// editFile replaces old, which must occur once, by new in a file.
func editFile(t *testing.T, path, old, new string) {
	t.Helper()
	text := readFile(t, path)
	if strings.Count(text, old) != 1 {
		t.Fatalf("%s holds %q %d times, want once", path, old, strings.Count(text, old))
	}
	if err := os.WriteFile(path, []byte(strings.Replace(text, old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// copyRun copies a run folder, to damage the copy.
func copyRun(t *testing.T, dir string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "copy")
	if err := os.CopyFS(dst, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	return dst
}

// seqOf is the seq of the n-th (from 0) event of events that match.
func seqOf(t *testing.T, events []record.Event, n int, match func(record.Event) bool) int {
	t.Helper()
	for _, ev := range events {
		if match(ev) {
			if n == 0 {
				return ev.Seq
			}
			n--
		}
	}
	t.Fatalf("no such event in %v", kinds(events))
	return -1
}

// kinds lists the kind of every event.
func kinds(events []record.Event) []string {
	out := make([]string, len(events))
	for i, ev := range events {
		out[i] = ev.Kind
	}
	return out
}
