package cause

import (
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"bench/record"
	"bench/tasks"
)

// Input is everything Derive reads about one episode. Task, Episode and
// Events are required; the rest is optional evidence that a caller may
// have gathered elsewhere.
type Input struct {
	Task    Task           // the task as its folder has it
	Episode record.Episode // the verdict: passed, failed_tests, exit reason, cut replies, errors
	Events  []record.Event // the episode's trajectory, in order

	// Grading is grading's own test output, when the run recorded it;
	// nil until it does. Without it the end state is read from the
	// track's last test run after its last write.
	Grading *Grading
	// Baseline is the normalised output of the tests on the task's
	// original files, for an episode whose trajectory has no test run
	// before its first write (an agent that edited before it ran the
	// tests). Every episode of a task starts from the same files, so the
	// first test run of another episode of the task serves (see
	// Baseline), as does a run on a fresh copy of them (the runner makes
	// one as such an episode ends). "" when unknown.
	Baseline string
	// Witnesses are passing episodes of the same task (and model) and the
	// files they wrote: one that wrote a file other than the source is
	// evidence for needs_other_file.
	Witnesses []Witness
}

// Task is what Derive needs of a task: its source, its tests and the
// files of its repo/ as every episode starts with them.
type Task struct {
	Name      string
	Source    string   // the file the workflows send and rewrite
	TestFiles []string // the protected test files
	Tests     []string // the test names: "test_century", "TestClamp"
	Framework string   // tasks.FrameworkUnittest or tasks.FrameworkGo
	Files     map[string]string
}

// maxFileBytes is the largest repo/ file TaskOf keeps; larger or binary
// files are left out of Task.Files.
const maxFileBytes = 1 << 20

// TaskOf reads what Derive needs from a loaded task: its manifest's fields
// and the text files of its repo/.
func TaskOf(t tasks.Task) (Task, error) {
	out := Task{
		Name: t.Name, Source: t.Source, Framework: t.Framework,
		TestFiles: slices.Clone(t.TestFiles), Tests: slices.Clone(t.Tests),
		Files: map[string]string{},
	}
	err := fs.WalkDir(t.FS, tasks.Repo, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(t.FS, p)
		if err != nil {
			return err
		}
		if len(b) <= maxFileBytes && utf8.Valid(b) {
			out.Files[strings.TrimPrefix(p, "repo/")] = string(b)
		}
		return nil
	})
	if err != nil {
		return Task{}, fmt.Errorf("reading the files of task %s: %w", t.Name, err)
	}
	return out, nil
}

// Grading is grading's own test run: its normalised output, as the
// tracks' test_run events hold theirs.
type Grading struct {
	Output string
}

// Witness is a passing episode of the same task: its key, its track and
// the files it wrote (see Wrote).
type Witness struct {
	Episode string   // the episode's key, record.Episode.Key
	Track   string   // the track that passed
	Wrote   []string // the files it wrote, relative to the workspace
}

// Read reads the trajectory of episode ep of the run folder data into an
// Input for Derive, with the warnings of a torn or malformed line. When
// the end event holds grading's test output (its output field, which the
// end event, recorded once grading is done, has room for), that is
// Grading. Baseline and Witnesses are left to the caller (see Gather,
// Baseline and Wrote).
func Read(data record.Data, ep record.Episode, task Task) (Input, []string, error) {
	events, warnings, err := record.ReadTrajectory(data.TrajectoryPath(ep))
	if err != nil {
		return Input{}, nil, err
	}
	return Input{Task: task, Episode: ep, Events: events, Grading: gradingOf(events)}, warnings, nil
}

// gradingOf is grading's output as the last end event of events holds it,
// or nil.
func gradingOf(events []record.Event) *Grading {
	for i := len(events) - 1; i >= 0; i-- {
		if ev := events[i]; ev.Kind == record.EventEnd {
			if ev.Output == "" {
				return nil
			}
			return &Grading{Output: ev.Output}
		}
	}
	return nil
}

// Baseline returns the output of the first test run of a trajectory
// before its first write: the tests on the task's original files. ok is
// false when the trajectory wrote before it ran the tests, or never ran
// them.
func Baseline(events []record.Event) (output string, ok bool) {
	for _, ev := range events {
		switch ev.Kind {
		case record.EventWrite, record.EventFallbackWrite:
			return "", false
		case record.EventTestRun:
			return ev.Output, ev.Error == ""
		}
	}
	return "", false
}

// Wrote returns the files a trajectory wrote (write and fallback_write
// events), cleaned and sorted.
func Wrote(events []record.Event) []string {
	var out []string
	for _, ev := range events {
		if ev.Kind == record.EventWrite || ev.Kind == record.EventFallbackWrite {
			out = append(out, path.Clean(ev.Path))
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
