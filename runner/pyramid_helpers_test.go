package runner_test

import (
	"context"
	"path/filepath"
	"testing"
	"testing/fstest"
	"time"

	"bench/model"
	"bench/record"
	"bench/runner"
	"bench/tasks"
	"bench/track"
)

// The pyramid tests drive a whole Session (NewRun, Inspect and ConnectInspected, Execute, the
// run folder on disk, Resume) with fake tracks and tasks whose test command
// is `true`: what the scheduler, the pool, the shards and the models do
// with episodes, with neither Python nor grading nor a model's real answers.
// cmd/bench keeps a handful of end-to-end tests through the CLI.

// pyramidTask is a task named name whose grading runs `true`.
func pyramidTask(name string) tasks.Task {
	return tasks.Task{Name: name, Source: "a.py", TestCmd: []string{"true"}, Timeout: 10 * time.Second,
		FS: fstest.MapFS{"repo/a.py": {Data: []byte("x = 1\n")}, "solution/a.py": {Data: []byte("x = 2\n")}}}
}

// pyramidTasks are two such tasks.
func pyramidTasks() []tasks.Task { return []tasks.Task{pyramidTask("quick_a"), pyramidTask("quick_b")} }

// askOnce is a fake track: it asks the episode's model once, and fails as
// the call fails; it writes nothing, so grading passes.
func askOnce(ctx context.Context, env *track.Env) track.Outcome {
	if env.Model != nil {
		req := model.Request{Messages: []model.Message{{Role: model.RoleUser, Content: "solve " + env.Task.Name}}}
		if _, err := env.Model.Chat(ctx, req); err != nil {
			return track.Outcome{Exit: record.ExitError, Err: err}
		}
	}
	return track.Outcome{Exit: record.ExitDone}
}

// fakeTracks stands askOnce in for each named track.
func fakeTracks(names ...string) []track.Track {
	var ts []track.Track
	for _, n := range names {
		ts = append(ts, track.Track{Name: n, Run: askOnce})
	}
	return ts
}

// pyramidSpec is a valid spec of tracks over pyramidTasks with seeds, into
// a fresh folder.
func pyramidSpec(t *testing.T, tracks []string, seeds ...int) runner.Spec {
	s := runner.Spec{Model: model.Config{Backend: model.BackendOllama, Model: model.DefaultModel, Timeout: model.DefaultTimeout}, RunSettings: record.DefaultSettings()} // bench run's defaults
	s.Tasks, s.Tracks, s.Seeds = pyramidTasks(), tracks, seeds
	s.Dir = filepath.Join(t.TempDir(), "run")
	return s
}

// execute makes the Session of spec, connects it and executes it with the
// fake tracks, passing the pool's warnings to warn (which may be nil).
func execute(t *testing.T, spec runner.Spec, warn func(string)) *runner.Session {
	t.Helper()
	s, err := runner.NewRun(spec)
	if err != nil {
		t.Fatal(err)
	}
	servers, err := s.ConnectInspected(runner.Inspect(context.Background(), s.ServerConfigs()))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Execute(context.Background(), servers, runner.ExecOptions{Tracks: fakeTracks(spec.Tracks...), Warn: warn}); err != nil {
		t.Fatalf("executing %s: %v", spec.Dir, err)
	}
	return s
}

// read reads the run folder dir.
func read(t *testing.T, dir string) record.Data {
	t.Helper()
	data, err := record.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// resumePending is how many episodes a resume of dir would still run.
func resumePending(t *testing.T, dir string) int {
	t.Helper()
	r, err := runner.Resume(dir, pyramidTasks(), runner.ResumeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return len(r.Pending())
}
