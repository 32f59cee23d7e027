package main

import (
	"path/filepath"
	"testing"
	"time"

	"bench/model/modeltest"
)

// TestFaultsModelTimeIsTheClientsWait: model_ms is the time the episode
// waited for the model, as the client measured it, and server_ms beside it
// the server's own account (Ollama's total_duration): a server that takes
// 5 ms by its clock while the call waits 300 ms shows both.
func TestFaultsModelTimeIsTheClientsWait(t *testing.T) {
	t.Parallel()
	solver := newFakeModel(t)
	srv := modeltest.NewOllama(t, modeltest.Always(modeltest.Func(func(r modeltest.Request) modeltest.Reply {
		return solver.reply(r).After(300 * time.Millisecond).WithDuration(5 * time.Millisecond)
	})))
	_, _, data := faultsRun(t, srv, filepath.Join(t.TempDir(), "run"), "1")
	if len(data.Episodes) != 1 {
		t.Fatalf("%d episodes", len(data.Episodes))
	}
	ep := data.Episodes[0]
	if ep.ModelCalls != 1 || ep.ModelMS < 300 || ep.ModelMS > ep.WallMS || ep.ServerMS != 5 {
		t.Fatalf("%d calls, model_ms %d, server_ms %d, wall_ms %d; want model_ms >= 300 (the wait) and server_ms 5 (the server's)", ep.ModelCalls, ep.ModelMS, ep.ServerMS, ep.WallMS)
	}
}
