package runner_test

import (
	"testing"
	"time"

	"bench/model/modeltest"
)

// TestPyramidModelTimeIsTheClientsWait: model_ms is the time the episode
// waited for the model, as the client measured it, and server_ms beside it
// the server's own account (Ollama's total_duration): a server that takes
// 5 ms by its clock while the call waits 300 ms shows both. (cmd/bench's
// TestFaultsModelTimeIsTheClientsWait checks the same through the command
// line with real grading, in full mode.)
func TestPyramidModelTimeIsTheClientsWait(t *testing.T) {
	t.Parallel()
	srv := modeltest.NewOllama(t, modeltest.Always(modeltest.Text("done").After(300*time.Millisecond).WithDuration(5*time.Millisecond)))
	spec := pyramidSpec(t, []string{"workflow"}, 1)
	spec.Tasks = spec.Tasks[:1]
	spec.Model = srv.Config()
	s := execute(t, spec, nil)
	data := read(t, s.Dir)
	if len(data.Episodes) != 1 {
		t.Fatalf("%d episodes, want 1", len(data.Episodes))
	}
	ep := data.Episodes[0]
	calls := len(srv.Requests()) // the fake track counts no calls of its own
	if calls != 1 || ep.ModelMS < 300 || ep.ModelMS > ep.WallMS || ep.ServerMS != 5 {
		t.Fatalf("%d calls, model_ms %d, server_ms %d, wall_ms %d; want 1 call, model_ms >= 300 (the wait) and <= wall_ms, server_ms 5 (the server's)", calls, ep.ModelMS, ep.ServerMS, ep.WallMS)
	}
}
