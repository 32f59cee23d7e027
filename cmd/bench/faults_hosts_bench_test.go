package main

import (
	"context"
	"io"
	"path/filepath"
	"testing"
	"testing/fstest"
	"time"

	"bench/internal/testsupport/fixture"
	"bench/model"
	"bench/model/modeltest"
	"bench/preflight"
	"bench/record"
	"bench/runner"
	"bench/sandbox"
	"bench/tasks"
	"bench/track"
)

// faultsDiscardSink stores nothing: the benchmark of hosts measures the
// model's side of a run.
type faultsDiscardSink struct{}

func (faultsDiscardSink) Trajectory(record.Episode) (runner.Trajectory, error) {
	return faultsNoTrajectory{}, nil
}
func (faultsDiscardSink) Append(record.Episode) error { return nil }

type faultsNoTrajectory struct{}

func (faultsNoTrajectory) Record(record.Event) {}
func (faultsNoTrajectory) Err() error          { return nil }
func (faultsNoTrajectory) Close() error        { return nil }

// faultsCallingTrack is a fake track that calls the model four times, as a
// short agent episode does, and tests nothing.
func faultsCallingTrack(ctx context.Context, env *track.Env) track.Outcome {
	for range 4 {
		if _, err := env.Model.Chat(ctx, model.Request{Messages: []model.Message{{Role: model.RoleUser, Content: "go on"}}, Options: env.Options}); err != nil {
			return track.Outcome{Exit: record.ExitError, Err: err}
		}
	}
	return track.Outcome{Exit: record.ExitDone}
}

// faultsHostsRun is bench run's path from the checks to the last episode
// against urls, with 24 four-call episodes of a task whose tests cost
// nothing; it returns its wall time.
func faultsHostsRun(b *testing.B, urls []string) time.Duration {
	ctx := context.Background()
	start := time.Now()
	spec := runner.Spec{Model: model.Config{Backend: model.BackendOllama, Model: model.DefaultModel, Timeout: model.DefaultTimeout}, RunSettings: record.DefaultSettings()}
	spec.Tasks, spec.Tracks, spec.Seeds = []tasks.Task{fixture.CourseTask(b, "leap_year")}, []string{"workflow"}, []int{1}
	spec.Hosts, spec.ParallelPerHost, spec.Dir = urls, 2, filepath.Join(b.TempDir(), "run")
	spec.Model.RetryBase = time.Millisecond
	s, err := runner.NewRun(spec)
	if err != nil {
		b.Fatal(err)
	}
	asked, ok := preflight.Ready(ctx, io.Discard, s, sandbox.Off)
	if !ok {
		b.Fatal("the checks failed")
	}
	servers, err := s.ConnectInspected(asked)
	if err != nil {
		b.Fatal(err)
	}
	quick := tasks.Task{Name: "quick", TestCmd: []string{"true"}, Timeout: 10 * time.Second, FS: fstest.MapFS{"repo/a.py": {Data: []byte("x = 1\n")}}}
	seeds := make([]int, 24)
	for i := range seeds {
		seeds[i] = i + 1
	}
	jobs := runner.PlanVariants([]tasks.Task{quick}, []string{"fake"}, []string{modeltest.DefaultModel}, []string{""}, seeds)
	cfg := runner.Config{RunID: "hosts", Tracks: []track.Track{{Name: "fake", Run: faultsCallingTrack}}}
	if err := runner.RunPool(ctx, cfg, servers, faultsDiscardSink{}, jobs, runner.PoolOptions{}); err != nil {
		b.Fatal(err)
	}
	return time.Since(start)
}

// BenchmarkFaultsHostsAddUp runs the same plan on one and on two servers
// whose every answer (the model's and the metadata's) takes 300 ms, each
// taking 2 episodes at once: from the checks before the run to its last
// episode, two hosts should take at most 1/1.85 of one host's time.
//
//	go test -run '^$' -bench FaultsHostsAddUp -benchtime 1x ./cmd/bench/
func BenchmarkFaultsHostsAddUp(b *testing.B) {
	fake := func() string {
		srv := modeltest.NewOllama(b, modeltest.Always(modeltest.Text("ok")))
		srv.Latency = 300 * time.Millisecond
		return srv.URL
	}
	one, two := []string{fake()}, []string{fake(), fake()}
	faultsHostsRun(b, one) // the oracle check of the task and the interpreter, which a process does once
	var t1, t2 time.Duration
	for i := 0; i < b.N; i++ {
		t1 += faultsHostsRun(b, one)
		t2 += faultsHostsRun(b, two)
	}
	b.ReportMetric(t1.Seconds()/float64(b.N), "s/run-1-host")
	b.ReportMetric(t2.Seconds()/float64(b.N), "s/run-2-hosts")
	b.ReportMetric(float64(t1)/float64(t2), "speedup")
}
