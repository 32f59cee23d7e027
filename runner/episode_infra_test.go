package runner

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"bench/internal/testsupport/fixture"
	"bench/model"
	"bench/model/modeltest"
	"bench/record"
	"bench/scratch"
	"bench/tasks"
	"bench/track"
	"bench/track/tracktest"
)

// solvingReply is the workflow reply that writes leap_year's solution.
func solvingReply(t *testing.T) modeltest.Reply {
	leap := task(t, "leap_year")
	sol := tracktest.ReadOverlay(t, &track.Env{Task: leap}, "solution", leap.Source)
	return modeltest.Text("FILE: " + leap.Source + "\n```python\n" + sol + "```\n")
}

// quickTask is a task whose test command is `true`: grading it starts no
// Python, for tests about everything but grading.
func quickTask() tasks.Task {
	return tasks.Task{Name: "quick", TestCmd: []string{"true"}, Timeout: 10 * time.Second,
		FS: fstest.MapFS{"repo/a.py": {Data: []byte("x = 1\n")}}}
}

// runQuick runs one episode of quickTask with a single fake track.
func runQuick(t *testing.T, cfg Config, fn track.Func) (record.Episode, *tracktest.MemTrajectory) {
	t.Helper()
	cfg.RunID = "test-run"
	cfg.Tracks = []track.Track{{Name: "fake", Run: fn}}
	traj := &tracktest.MemTrajectory{}
	ep, _ := episode(context.Background(), cfg, Job{Task: quickTask(), Track: "fake", Seed: 1}, traj)
	return ep, traj
}

// workflowConfig is a Config with the real workflow track talking to srv.
func workflowConfig(t *testing.T, srv *modeltest.Server) Config {
	cfg := ConfigFrom(record.Run{ID: "infra", RunSettings: record.RunSettings{Temperature: 0.7, NumCtx: 8192, MaxTurns: 5, Tries: 2, Posture: "off"}})
	cfg.Model = srv.Client(t)
	return cfg
}

func TestEpisodeCountsRetries(t *testing.T) {
	fixture.ParallelPython(t)
	srv := modeltest.NewOllama(t, modeltest.Status(500), solvingReply(t))
	ep, _ := runJob(t, workflowConfig(t, srv), "leap_year", "workflow")
	if !ep.Passed || ep.Retries != 1 || ep.ErrorKind != "" {
		t.Fatalf("passed %v, retries %d, kind %q, error %q; want a pass after 1 retry", ep.Passed, ep.Retries, ep.ErrorKind, ep.Error)
	}
}

// TestEpisodeLostToADeadServer: a workflow episode whose server is gone is
// lost, as unreachable. Grading plays no part (ungraded).
func TestEpisodeLostToADeadServer(t *testing.T) {
	srv := modeltest.NewOllama(t)
	cfg := workflowConfig(t, srv)
	srv.Close()
	ep, _ := runJobOn(cfg, ungraded(t, "leap_year"), "workflow")
	if ep.ExitReason != record.ExitError || ep.ErrorKind != record.ErrorUnreachable || !ep.Lost() {
		t.Fatalf("exit %s, kind %q, lost %v, error %q; want an unreachable, lost episode", ep.ExitReason, ep.ErrorKind, ep.Lost(), ep.Error)
	}
}

func TestEpisodeErrorKinds(t *testing.T) {
	cases := []struct {
		err     error
		kind    record.ErrorKind
		retries int
	}{
		{fmt.Errorf("calling: %w", &model.Error{Kind: model.ErrServer, Retries: 3}), record.ErrorServer, 3},
		{&model.Error{Kind: model.ErrTimeout}, record.ErrorCallTimeout, 0},
		{&model.Error{Kind: model.ErrBadReply, Retries: 1}, record.ErrorBadReply, 1},
		{&model.Error{Kind: model.ErrUnreachable}, record.ErrorUnreachable, 0},
		{&model.Error{Kind: model.ErrRequest}, record.ErrorRefused, 0},
		{&model.Error{Kind: model.ErrModelNotFound}, record.ErrorRefused, 0},
		{&model.Error{Kind: model.ErrRequestTooLarge}, record.ErrorRequestTooLarge, 0},
		{errors.New("the disk is full"), record.ErrorHarness, 0},
	}
	for _, c := range cases {
		fail := func(context.Context, *track.Env) track.Outcome {
			return track.Outcome{Exit: record.ExitError, Err: c.err}
		}
		ep, _ := runQuick(t, Config{}, fail)
		if ep.ExitReason != record.ExitError || ep.ErrorKind != c.kind || ep.Retries != c.retries {
			t.Errorf("%v: exit %s, kind %q, retries %d; want error, %q, %d", c.err, ep.ExitReason, ep.ErrorKind, ep.Retries, c.kind, c.retries)
		}
	}
	ok := func(context.Context, *track.Env) track.Outcome { return track.Outcome{Exit: record.ExitDone} }
	if ep, _ := runQuick(t, Config{}, ok); ep.ErrorKind != "" {
		t.Errorf("an episode without error has kind %q", ep.ErrorKind)
	}
}

func TestEpisodeCountsCutRepliesAndRetriesFromEvents(t *testing.T) {
	cut := func(_ context.Context, env *track.Env) track.Outcome {
		env.Rec.Record(record.Event{Kind: record.EventResponse, StopReason: "length", Retries: 2})
		env.Rec.Record(record.Event{Kind: record.EventResponse, StopReason: "stop"})
		env.Rec.Record(record.Event{Kind: record.EventResponse, StopReason: "length"})
		return track.Outcome{Exit: record.ExitDone}
	}
	ep, _ := runQuick(t, Config{}, cut)
	if ep.CutReplies != 2 || ep.Retries != 2 {
		t.Fatalf("cut replies %d, retries %d; want 2 and 2", ep.CutReplies, ep.Retries)
	}
}

func TestEpisodeTimeoutEndsTheEpisode(t *testing.T) {
	fixture.ParallelPython(t)
	// The track solves the task, then waits until its context ends.
	stall := func(ctx context.Context, env *track.Env) track.Outcome {
		if err := scratch.Overlay(env.Task, env.Dir, "solution"); err != nil {
			return track.Outcome{Exit: record.ExitError, Err: err}
		}
		<-ctx.Done()
		return track.Outcome{Exit: track.ExitFor(ctx, ctx.Err()), Err: ctx.Err()}
	}
	cfg := Config{Tracks: []track.Track{{Name: "stall", Run: stall}}, RunSettings: record.RunSettings{EpisodeTimeoutMS: 100}}
	ep, traj := runJob(t, cfg, "leap_year", "stall")
	if ep.ExitReason != record.ExitTimeout || ep.Passed {
		t.Fatalf("exit %s, passed %v; want timeout, not a pass", ep.ExitReason, ep.Passed)
	}
	// The limit covers grading too: none is left for it, and its tests count as not passed.
	if ep.TestsTotal == 0 || ep.TestsPassed != 0 || !ep.GradingTimedOut || ep.ErrorKind != "" {
		t.Fatalf("a timed-out episode: %d/%d, grading timed out %v, kind %q; want its tests counted failed", ep.TestsPassed, ep.TestsTotal, ep.GradingTimedOut, ep.ErrorKind)
	}
	if !strings.Contains(ep.Error, "--episode-timeout") || traj.Last().Exit != record.ExitTimeout {
		t.Fatalf("error %q, end event exit %q", ep.Error, traj.Last().Exit)
	}
}

func TestEpisodeGradingTimeout(t *testing.T) {
	fixture.ParallelPython(t)
	tk := task(t, "leap_year")
	tk.Timeout = time.Millisecond // no python starts this fast
	ok := func(ctx context.Context, env *track.Env) track.Outcome {
		scratch.Overlay(env.Task, env.Dir, "solution")
		return track.Outcome{Exit: record.ExitDone}
	}
	cfg := Config{RunID: "r", Tracks: []track.Track{{Name: "ok", Run: ok}}}
	ep, _ := episode(context.Background(), cfg, Job{Task: tk, Track: "ok", Seed: 1}, &tracktest.MemTrajectory{})
	if !ep.GradingTimedOut || ep.Passed || !strings.Contains(ep.Error, "grading timed out") {
		t.Fatalf("grading timed out %v, passed %v, error %q", ep.GradingTimedOut, ep.Passed, ep.Error)
	}
}

func TestEpisodeRecordsTrajectoryDigest(t *testing.T) {
	fixture.ParallelPython(t)
	dir := filepath.Join(t.TempDir(), "run")
	w, err := record.Create(dir, record.Run{ID: "d", Tasks: []record.TaskRef{{Name: "leap_year"}}, Tracks: []string{"oracle"}, Seeds: []int{1}})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	sink := WriterSink{W: w}
	jobs := PlanVariants([]tasks.Task{task(t, "leap_year")}, []string{"oracle"}, []string{""}, []string{""}, []int{1})
	if err := RunPool(context.Background(), Config{Tracks: Tracks()}, []Server{{Slots: 1}}, sink, jobs, PoolOptions{}); err != nil {
		t.Fatal(err)
	}
	w.Close()
	data, err := record.Read(dir)
	if err != nil || len(data.Episodes) != 1 {
		t.Fatalf("%v, %d episodes", err, len(data.Episodes))
	}
	b, err := os.ReadFile(filepath.Join(dir, "trajectories", "leap_year", "oracle", "seed-1.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	if got := data.Episodes[0].TrajectorySHA256; got != hex.EncodeToString(sum[:]) {
		t.Fatalf("trajectory digest %q, file's is %x", got, sum)
	}
}
