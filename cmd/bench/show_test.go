package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/otiai10/copy"
)

// The golden tests read testdata/show-run, a SYNTHETIC run folder: scripted
// fake-model replies played through the real tracks (see show_fixture_test.go).

func TestShowTranscript(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ golden, task, track, repeat, format string }{
		{"show-agent.txt.golden", "parse_date", "agent", "0", "text"},
		{"show-agent.md.golden", "parse_date", "agent", "0", "markdown"},
		{"show-workflow.txt.golden", "slugify", "workflow", "", "text"},
		{"show-retry.md.golden", "slugify", "workflow-retry", "", "markdown"},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			args := []string{"show", showRun, "--task", tc.task, "--track", tc.track, "--seed", "1", "--format", tc.format}
			if tc.repeat != "" {
				args = append(args, "--repeat", tc.repeat)
			}
			out, errOut, err := runCLI(t, args...)
			if err != nil || errOut != "" {
				t.Fatalf("err %v, stderr %q", err, errOut)
			}
			checkGolden(t, tc.golden, out)
		})
	}
}

func TestShowFull(t *testing.T) {
	t.Parallel()
	out, _, err := runCLI(t, "show", showRun, "--task", "slugify", "--track", "workflow", "--full")
	if err != nil {
		t.Fatal(err)
	}
	short, _, _ := runCLI(t, "show", showRun, "--task", "slugify", "--track", "workflow")
	if !strings.Contains(short, "more lines)") {
		t.Fatalf("the shortened transcript cuts nothing:\n%s", short)
	}
	if strings.Contains(out, "more lines)") || strings.Contains(out, "more failing test") {
		t.Errorf("--full still shortens:\n%s", out)
	}
	// The whole normalised test output and the whole system prompt are shown.
	for _, want := range []string{"Ran 7 tests in Xs", "NameError: name 're' is not defined", "not only the part you changed"} {
		if !strings.Contains(out, want) {
			t.Errorf("--full output lacks %q", want)
		}
	}
	if len(out) < 2*len(short) {
		t.Errorf("--full (%d bytes) is not much longer than the short form (%d bytes)", len(out), len(short))
	}
}

func TestShowListsWhenNotOne(t *testing.T) {
	t.Parallel()
	out, _, err := runCLI(t, "show", showRun)
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "show-list.txt.golden", out)

	out, _, err = runCLI(t, "show", showRun, "--track", "agent", "--seed", "1", "--format", "markdown")
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "show-list-agent.md.golden", out)
}

func TestShowNoMatch(t *testing.T) {
	t.Parallel()
	out, _, err := runCLI(t, "show", showRun, "--task", "no_such_task")
	if err == nil {
		t.Fatal("no matching episode succeeded")
	}
	if !strings.Contains(out, "no episode in "+showRun+" matches") || !strings.Contains(out, "slugify") {
		t.Errorf("output does not list the run's episodes:\n%s", out)
	}
}

func TestShowDiff(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ golden, format string }{
		{"show-diff.txt.golden", "text"},
		{"show-diff.md.golden", "markdown"},
	} {
		out, errOut, err := runCLI(t, "show", "--diff", showRun, "--task", "parse_date", "--track", "agent", "--seed", "1", "--format", tc.format)
		if err != nil || errOut != "" {
			t.Fatalf("err %v, stderr %q", err, errOut)
		}
		checkGolden(t, tc.golden, out)
	}
	// The same pair given explicitly, the other way round.
	out, _, err := runCLI(t, "show", "--diff", showRun, "--task", "parse_date", "--track", "agent", "--seed", "1", "--repeat", "1,0")
	if err != nil || !strings.Contains(out, "seed-1-r1 vs seed-1") || !strings.Contains(out, "diverge at step 2") {
		t.Errorf("--repeat 1,0: err %v\n%s", err, out)
	}
}

func TestShowDiffWithoutTwin(t *testing.T) {
	t.Parallel()
	out, _, err := runCLI(t, "show", "--diff", showRun, "--task", "slugify", "--track", "workflow", "--seed", "1")
	if err == nil || !strings.Contains(err.Error(), "the episode has no twin") || !strings.Contains(out, "slugify") {
		t.Errorf("err %v\nstdout %s", err, out)
	}
	// It names the twins that exist rather than suggest a command that fails.
	if want := "this run's twins: --task parse_date --track agent --seed 1"; !strings.Contains(err.Error(), want) {
		t.Errorf("err %v; want %q", err, want)
	}
	if strings.Contains(err.Error(), "--seeds 1,1\n") {
		t.Errorf("err %v", err)
	}
}

func TestShowOrdersTracksAsTheRegistry(t *testing.T) {
	t.Parallel()
	dir := scratchRun(t)
	src := filepath.Join(dir, "trajectories", "parse_date", "agent", "seed-1.jsonl")
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	wf := filepath.Join(dir, "trajectories", "parse_date", "workflow")
	if err := os.MkdirAll(wf, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(wf, "seed-1.jsonl"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err := runCLI(t, "show", dir, "--task", "parse_date", "--seed", "1", "--repeat", "0")
	if err != nil {
		t.Fatal(err)
	}
	w, a := strings.Index(out, "parse_date  workflow"), strings.Index(out, "parse_date  agent")
	if w < 0 || a < 0 || w > a {
		t.Errorf("workflow should come before agent, as in bench report:\n%s", out)
	}
}

func TestShowJSON(t *testing.T) {
	t.Parallel()
	out, _, err := runCLI(t, "show", showRun, "--task", "slugify", "--track", "workflow", "-f", "json")
	if err != nil {
		t.Fatal(err)
	}
	var ep struct {
		Task, Track string
		Episode     struct{ Passed bool }
		Events      []struct{ Kind string }
	}
	if err := json.Unmarshal([]byte(out), &ep); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if ep.Task != "slugify" || ep.Track != "workflow" || len(ep.Events) == 0 || ep.Events[len(ep.Events)-1].Kind != "end" {
		t.Errorf("%+v", ep)
	}
	out, _, err = runCLI(t, "show", showRun, "--format", "json")
	var list struct {
		Matched  int
		Episodes []struct{ Task, Track string }
	}
	if err != nil || json.Unmarshal([]byte(out), &list) != nil || len(list.Episodes) != 4 || list.Matched != 4 {
		t.Errorf("list: err %v\n%s", err, out)
	}
	if _, _, err := runCLI(t, "show", showRun, "--diff", "--format", "json"); err == nil || !strings.Contains(err.Error(), "not json") {
		t.Errorf("--diff --format json: err %v", err)
	}
}

func TestShowKeptWorkspace(t *testing.T) {
	t.Parallel()
	dir := scratchRun(t)
	path := filepath.Join(dir, "trajectories", "slugify", "workflow", "seed-1.jsonl")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	last := lines[len(lines)-1]
	if !strings.Contains(last, `"kind":"end"`) {
		t.Fatalf("last line is not the end event: %s", last)
	}
	lines[len(lines)-1] = strings.Replace(last, `"kind":"end"`, `"kind":"end","path":"/tmp/kept/slugify-workflow-1"`, 1)
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err := runCLI(t, "show", dir, "--task", "slugify", "--track", "workflow")
	if err != nil || !strings.Contains(out, "The episode's workspace was kept at /tmp/kept/slugify-workflow-1") {
		t.Errorf("err %v\n%s", err, out)
	}
	out, _, _ = runCLI(t, "show", showRun, "--task", "slugify", "--track", "workflow")
	if strings.Contains(out, "was kept at") {
		t.Errorf("a workspace that was not kept is named:\n%s", out)
	}
}

// scratchRun copies the synthetic run into a temp folder a test may damage.
func scratchRun(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "run")
	if err := copy.Copy(showRun, dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestShowTornLastLine(t *testing.T) {
	t.Parallel()
	dir := scratchRun(t)
	path := filepath.Join(dir, "trajectories", "parse_date", "agent", "seed-1-r1.jsonl")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// Cut the file in the middle of its last line (the end event), as a
	// run killed mid-write leaves it.
	last := strings.LastIndex(strings.TrimSuffix(string(b), "\n"), "\n")
	if err := os.WriteFile(path, b[:last+20], 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, err := runCLI(t, "show", dir, "--task", "parse_date", "--track", "agent", "--seed", "1", "--repeat", "1")
	if err != nil {
		t.Fatalf("a torn line failed the command: %v", err)
	}
	if !strings.Contains(errOut, "warning: ") || !strings.Contains(errOut, "torn last line") {
		t.Errorf("no torn-line warning on stderr: %q", errOut)
	}
	if !strings.Contains(out, "I fixed the ValueError") || !strings.Contains(out, "no end event: the trajectory stops here") {
		t.Errorf("transcript of the torn trajectory:\n%s", out)
	}
}

func TestShowMissingTrajectory(t *testing.T) {
	t.Parallel()
	dir := scratchRun(t)
	path := filepath.Join(dir, "trajectories", "slugify", "workflow", "seed-1.jsonl")
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	_, _, err := runCLI(t, "show", dir, "--task", "slugify", "--track", "workflow")
	if err == nil || !strings.Contains(err.Error(), "episode slugify/workflow/seed-1 has no trajectory") || !strings.Contains(err.Error(), path) {
		t.Errorf("err = %v; want one naming the episode and %s", err, path)
	}
	out, _, err := runCLI(t, "show", dir, "--task", "slugify")
	if err != nil || !strings.Contains(out, "missing") {
		t.Errorf("listing: err %v\n%s", err, out)
	}
}

func TestShowUnfinishedEpisode(t *testing.T) {
	t.Parallel()
	dir := scratchRun(t)
	// Drop the last line of episodes.jsonl: its trajectory is then all there is.
	path := filepath.Join(dir, "episodes.jsonl")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	last := strings.LastIndex(strings.TrimSuffix(string(b), "\n"), "\n")
	if err := os.WriteFile(path, b[:last+1], 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err := runCLI(t, "show", dir, "--track", "workflow-retry")
	if err != nil || !strings.Contains(out, "outcome: unknown") {
		t.Errorf("err %v\n%s", err, out)
	}
	out, _, _ = runCLI(t, "show", dir, "--task", "slugify")
	if !strings.Contains(out, "unfinished") {
		t.Errorf("listing does not mark the unfinished episode:\n%s", out)
	}
}

func TestShowBadInput(t *testing.T) {
	t.Parallel()
	missing := filepath.Join(t.TempDir(), "no-such-run")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"show"}, "show needs one run folder"},
		{[]string{"show", missing}, "run folder " + missing + " does not exist"},
		{[]string{"show", t.TempDir()}, "run.json is missing"},
		{[]string{"show", showRun, "--seed", "one"}, `--seed "one" is not a whole number`},
		{[]string{"show", showRun, "--format", "html"}, `unknown --format "html"`},
		{[]string{"show", "--diff", showRun, "--repeat", "1,1"}, "two different repeats"},
		{[]string{"show", "--diff", showRun, "--repeat", "2"}, "two different repeats"},
	} {
		_, _, err := runCLI(t, tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("bench %s: err = %v, want %q", strings.Join(tc.args, " "), err, tc.want)
		}
	}
}
