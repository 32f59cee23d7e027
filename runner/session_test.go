package runner

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"bench/internal/testsupport/fixture"
	"bench/model"
	"bench/model/modeltest"
	"bench/record"
	"bench/tasks"
	"bench/track"
)

// oracleSpec is a valid spec of an oracle run of leap_year with two seeds into dir.
func oracleSpec(t *testing.T, dir string) Spec {
	s := Spec{Model: model.Config{Backend: model.BackendOllama, Model: model.DefaultModel, Timeout: model.DefaultTimeout}, RunSettings: record.DefaultSettings()} // bench run's defaults
	s.Tasks, s.Tracks, s.Seeds, s.Dir = []tasks.Task{task(t, "leap_year")}, []string{"oracle"}, []int{1, 2}, dir
	return s
}

func TestNewRunRejectsBadSpecs(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "never")
	cases := map[string]struct {
		change func(*Spec)
		want   string
	}{
		"nan temperature": {func(s *Spec) { s.Temperature = math.NaN() }, "--temperature must be a finite number"},
		"inf temperature": {func(s *Spec) { s.Temperature = math.Inf(1) }, "--temperature must be a finite number"},
		"nan top-p":       {func(s *Spec) { s.TopP = math.NaN() }, "--top-p must be a finite number"},
		"parallel 65":     {func(s *Spec) { s.Parallel = 65 }, "--parallel must be at most 64, got 65"},
		"parallel 0":      {func(s *Spec) { s.Parallel = 0 }, "--parallel must be at least 1"},
		"timeout":         {func(s *Spec) { s.Model.Timeout = -5 * time.Second }, "--timeout must be positive"},
		"episode timeout": {func(s *Spec) { s.EpisodeTimeoutMS = 0 }, "--episode-timeout must be positive"},
		"track":           {func(s *Spec) { s.Tracks = []string{"agnet"} }, `unknown track "agnet"`},
		"seed":            {func(s *Spec) { s.Seeds = []int{-1} }, "seed -1 is negative"},
		"posture":         {func(s *Spec) { s.Posture = "maybe" }, `unknown --posture "maybe"`},
		"token limit":     {func(s *Spec) { s.TokenLimit = -1 }, "--token-limit must be 0"},
		"max tokens":      {func(s *Spec) { s.MaxTokens = -1 }, "--max-tokens must be 0"},
	}
	for name, c := range cases {
		s := oracleSpec(t, dir)
		c.change(&s)
		if _, err := NewRun(s); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want %q", name, err, c.want)
		}
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatal("a rejected spec created its folder")
	}
}

func TestNewRunExecuteAndResume(t *testing.T) {
	fixture.ParallelPython(t)
	dir := filepath.Join(t.TempDir(), "a", "run")
	s, err := NewRun(oracleSpec(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatal("NewRun created the folder")
	}
	if s.Run.ID != "run" || s.Run.Model != "" || s.Run.Host != "" || s.Run.EpisodeTimeoutMS != record.DefaultEpisodeTimeout.Milliseconds() || s.Run.MaxTokens != record.DefaultMaxTokens {
		t.Fatalf("run.json contents: %+v", s.Run)
	}
	client, err := s.ConnectInspected(Inspect(context.Background(), s.ServerConfigs()))
	if err != nil || client != nil {
		t.Fatalf("an oracle run connected: %v %v", client, err)
	}
	if err := s.Execute(context.Background(), nil, ExecOptions{}); err != nil {
		t.Fatal(err)
	}
	all, _ := tasks.Load(tasks.Embedded())
	r, err := Resume(dir, all, ResumeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if done, passed := r.Finished(); done != 2 || passed != 2 || len(r.Pending()) != 0 {
		t.Fatalf("resumed: %d done, %d passed, %d pending", done, passed, len(r.Pending()))
	}
	if got := ConfigFrom(r.Run); got.EpisodeTimeout() != record.DefaultEpisodeTimeout || ModelOptions(got.RunSettings, 0).MaxReplyTokens != record.DefaultMaxTokens || got.MaxTurns != record.DefaultMaxTurns {
		t.Fatalf("ConfigFrom(run.json) = %+v", got)
	}
	// A missing trajectory is named when the run is resumed.
	os.Remove(filepath.Join(dir, "trajectories", "leap_year", "oracle", "seed-2.jsonl"))
	r, err = Resume(dir, all, ResumeOptions{})
	if err != nil || len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "leap_year/oracle/seed-2 is missing") {
		t.Fatalf("err %v, warnings %q; want one naming the missing trajectory", err, r.Warnings)
	}
	for _, o := range []ResumeOptions{{Timeout: -5 * time.Second}, {Parallel: 65}} {
		if _, err := Resume(dir, all, o); err == nil {
			t.Errorf("Resume accepted %+v", o)
		}
	}
}

func TestExecuteFailedStartLeavesNothing(t *testing.T) {
	root := filepath.Join(t.TempDir(), "new")
	s := &Session{Dir: filepath.Join(root, "run"), Run: record.Run{ID: "run", RunSettings: record.RunSettings{Temperature: math.NaN()}}}
	if err := s.Execute(context.Background(), nil, ExecOptions{}); err == nil {
		t.Fatal("a run.json that cannot be written was accepted")
	}
	if _, err := os.Stat(root); !os.IsNotExist(err) {
		t.Fatalf("a failed start left %s behind", root)
	}
}

// TestResumeAfterTheServerWentAway: the server dies mid-run; the breaker
// stops the run; resumed against a new server, every episode is on disk
// once, finished. The track is a fake that asks the model once, and the
// task's tests are `true`: what is tested is the session, not Python.
// (cmd/bench keeps the same story end to end through the CLI.)
func TestResumeAfterTheServerWentAway(t *testing.T) {
	var served atomic.Int32
	var first *modeltest.Server
	first = modeltest.NewOllama(t, modeltest.Always(modeltest.Func(func(modeltest.Request) modeltest.Reply {
		switch n := served.Add(1); {
		case n == 2:
			go first.Close() // the server dies while it answers the second call
			return modeltest.Hang()
		case n > 2:
			return modeltest.Hang() // a call that got in before Close finished gets no answer either
		}
		return modeltest.Text("done")
	})))
	quick := quickTask()
	fake := []track.Track{{Name: "workflow", Run: askModel}}
	spec := Spec{Model: first.Config(), RunSettings: record.DefaultSettings()}
	spec.Model.RetryWindow = 100 * time.Millisecond // a dead server is given up on quickly
	spec.Tasks, spec.Tracks, spec.Seeds = []tasks.Task{quick}, []string{"workflow"}, []int{1, 2, 3, 4, 5, 6}
	spec.Dir = filepath.Join(t.TempDir(), "run")
	s, err := NewRun(spec)
	if err != nil {
		t.Fatal(err)
	}
	client, err := s.ConnectInspected(Inspect(context.Background(), s.ServerConfigs()))
	if err != nil {
		t.Fatal(err)
	}
	err = s.Execute(context.Background(), client, ExecOptions{Tracks: fake})
	var stop *StopError
	if !errors.As(err, &stop) {
		t.Fatalf("err %v, want the breaker's StopError", err)
	}
	data, _ := record.Read(spec.Dir)
	if len(data.Episodes) != 1+BreakerThreshold {
		t.Fatalf("%d episodes on disk, want 1 done and %d lost", len(data.Episodes), BreakerThreshold)
	}

	second := modeltest.NewOllama(t, modeltest.Always(modeltest.Text("done")))
	r, err := Resume(spec.Dir, []tasks.Task{quick}, ResumeOptions{Host: second.URL})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Pending()) != 5 {
		t.Fatalf("%d pending, want 5 (3 lost, 2 never started)", len(r.Pending()))
	}
	client, err = r.ConnectInspected(Inspect(context.Background(), r.ServerConfigs()))
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Execute(context.Background(), client, ExecOptions{Tracks: fake}); err != nil {
		t.Fatal(err)
	}
	data, err = record.Read(spec.Dir)
	if err != nil || len(data.Warnings) != 0 {
		t.Fatalf("%v, warnings %q", err, data.Warnings)
	}
	if len(data.Episodes) != 6 {
		t.Fatalf("%d episodes, want 6", len(data.Episodes))
	}
	for _, ep := range data.Episodes {
		if ep.ExitReason != record.ExitDone || ep.Lost() || ep.Host != second.URL && ep.Seed != 1 {
			t.Errorf("%s on %s: exit %s, lost %v, %q", ep.Key(), ep.Host, ep.ExitReason, ep.Lost(), ep.Error)
		}
	}
	if again, err := Resume(spec.Dir, []tasks.Task{quick}, ResumeOptions{Host: second.URL}); err != nil || len(again.Pending()) != 0 {
		t.Errorf("a second resume: %v; it would run episodes again", err)
	}
}

// askModel is a fake track that asks the model once: done when it
// answers, the call's error when it fails.
func askModel(ctx context.Context, env *track.Env) track.Outcome {
	if _, err := env.Model.Chat(ctx, model.Request{Messages: []model.Message{{Role: model.RoleUser, Content: "fix " + env.Task.Name}}}); err != nil {
		return track.Outcome{Exit: record.ExitError, Err: err}
	}
	return track.Outcome{Exit: record.ExitDone}
}

// TestServerConfigsWaitLessInAPool: with several hosts, a client waits
// PoolRetryWindow for a server that refuses connections, so that the pool
// moves its episodes on; with one host it keeps the client's own window
// (model.DefaultRetryWindow), and a window the run sets always stands.
func TestServerConfigsWaitLessInAPool(t *testing.T) {
	for _, c := range []struct {
		name   string
		hosts  []string
		window time.Duration
		want   time.Duration
	}{
		{"two hosts", []string{"http://a:11434", "http://b:11434"}, 0, PoolRetryWindow},
		{"one host", []string{"http://a:11434"}, 0, 0},
		{"two hosts, a window set", []string{"http://a:11434", "http://b:11434"}, time.Second, time.Second},
	} {
		spec := Spec{Model: model.Config{Backend: model.BackendOllama, Model: model.DefaultModel, Timeout: model.DefaultTimeout, RetryWindow: c.window},
			RunSettings: record.DefaultSettings(), Hosts: c.hosts}
		spec.Tasks, spec.Tracks, spec.Seeds, spec.Dir = []tasks.Task{quickTask()}, []string{"workflow"}, []int{1}, filepath.Join(t.TempDir(), "run")
		s, err := NewRun(spec)
		if err != nil {
			t.Fatal(err)
		}
		cfgs := s.ServerConfigs()
		if len(cfgs) != len(c.hosts) {
			t.Fatalf("%s: %d configs, want %d", c.name, len(cfgs), len(c.hosts))
		}
		for _, cfg := range cfgs {
			if cfg.RetryWindow != c.want {
				t.Errorf("%s: %s waits %v for a refusing server, want %v", c.name, cfg.Host, cfg.RetryWindow, c.want)
			}
		}
	}
}
