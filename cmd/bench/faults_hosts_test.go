package main

import (
	"path/filepath"
	"testing"
	"time"

	"bench/internal/testsupport"
	"bench/internal/testsupport/fixture"
	"bench/model/modeltest"
)

// TestFaultsModelTimeIsTheClientsWait: model_ms is the time the episode
// waited for the model, as the client measured it, and server_ms beside it
// the server's own account (Ollama's total_duration): a server that takes
// 5 ms by its clock while the call waits 300 ms shows both.
func TestFaultsModelTimeIsTheClientsWait(t *testing.T) {
	fixture.FullOnly(t, "runner's TestPyramidModelTimeIsTheClientsWait, with a fake track")
	t.Parallel()
	solver := testsupport.NewSolver(t)
	srv := modeltest.NewOllama(t, modeltest.Always(modeltest.Func(func(r modeltest.Request) modeltest.Reply {
		return solver.Reply(r).After(300 * time.Millisecond).WithDuration(5 * time.Millisecond)
	})))
	_, data, _ := faultsRun(t, srv, filepath.Join(t.TempDir(), "run"), "1")
	if len(data.Episodes) != 1 {
		t.Fatalf("%d episodes", len(data.Episodes))
	}
	ep := data.Episodes[0]
	if ep.ModelCalls != 1 || ep.ModelMS < 300 || ep.ModelMS > ep.WallMS || ep.ServerMS != 5 {
		t.Fatalf("%d calls, model_ms %d, server_ms %d, wall_ms %d; want model_ms >= 300 (the wait) and server_ms 5 (the server's)", ep.ModelCalls, ep.ModelMS, ep.ServerMS, ep.WallMS)
	}
}

// TestFaultsRunAsksEachServerOnce: the checks before a run and the run
// itself share what the servers said: each server of a pool is asked about
// the model once (it was asked twice, once by the checks and once to
// connect), and all of them at once (BenchmarkFaultsHostsAddUp).
func TestFaultsRunAsksEachServerOnce(t *testing.T) {
	t.Parallel()
	solver := testsupport.NewSolver(t)
	a := modeltest.NewOllama(t, modeltest.Always(modeltest.Func(solver.Reply)))
	b := modeltest.NewOllama(t, modeltest.Always(modeltest.Func(solver.Reply)))
	dir := filepath.Join(t.TempDir(), "run")
	if _, stderr, err := runCLI(t, "run", "--host", a.URL+","+b.URL, "--tracks", "agent", "--tasks", "leap_year", "--seeds", "1,2", "--out", dir); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	for _, srv := range []*modeltest.Server{a, b} {
		if tags, show := srv.Hits("GET", "/api/tags"), srv.Hits("POST", "/api/show"); tags != 1 || show != 1 {
			t.Errorf("%s was asked /api/tags %d times and /api/show %d times, want once each", srv.URL, tags, show)
		}
	}
}
