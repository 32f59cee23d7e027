package track_test

import (
	"context"
	"slices"
	"testing"

	"bench/model"
	"bench/model/modeltest"
	"bench/record"
	"bench/track"
	"bench/track/tracktest"
)

// TestConversationRecordsStopReasonsAndCounts drives the real Ollama client
// against the protocol fake: a reply cut at the reply cap is recorded with
// stop reason "length" and counted, and retried calls are summed.
func TestConversationRecordsStopReasonsAndCounts(t *testing.T) {
	srv := modeltest.NewOllama(t,
		modeltest.Text("The fix is to chan").WithDoneReason("length"),
		modeltest.Status(500), // retried by the client
		modeltest.Text("Done."),
		modeltest.Text("Cut again").WithDoneReason("length"),
	)
	rec := &tracktest.FakeRecorder{}
	env := &track.Env{Model: srv.Client(t), Options: model.Options{Seed: 1, NumCtx: 8192}, Rec: rec}
	conv := track.NewConversation(env, "system")
	var cut []bool
	for range 3 {
		conv.Add(model.Message{Role: model.RoleUser, Content: "go on"})
		resp, err := conv.Call(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		cut = append(cut, track.IsCut(resp))
	}
	if !slices.Equal(cut, []bool{true, false, true}) {
		t.Errorf("IsCut = %v, want [true false true]", cut)
	}
	var reasons []string
	for _, ev := range rec.Of(record.EventResponse) {
		reasons = append(reasons, ev.StopReason)
	}
	if want := []string{"length", "stop", "length"}; !slices.Equal(reasons, want) {
		t.Errorf("stop reasons = %v, want %v", reasons, want)
	}
}
