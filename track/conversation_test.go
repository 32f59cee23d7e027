package track

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"bench/model"
	"bench/record"
)

func TestDigest(t *testing.T) {
	a := model.Message{Content: "x", ToolCalls: []model.ToolCall{{Name: "read_file", Arguments: `{"path":"a"}`}}}
	b := model.Message{Content: "x", ToolCalls: []model.ToolCall{{Name: "read_file", Arguments: `{"path":"b"}`}}}
	c := model.Message{Content: "xread_file", ToolCalls: []model.ToolCall{{Name: "", Arguments: `{"path":"a"}`}}}
	again := model.Message{Content: "x", ToolCalls: []model.ToolCall{{Name: "read_file", Arguments: `{"path":"a"}`}}}
	if Digest(a) != Digest(again) || len(Digest(a)) != 8 {
		t.Errorf("digest %q is not a stable 8-digit hex", Digest(a))
	}
	if Digest(a) == Digest(b) || Digest(a) == Digest(c) {
		t.Error("different replies share a digest")
	}
}

func TestExitFor(t *testing.T) {
	live := context.Background()
	dead, cancel := context.WithCancel(live)
	cancel()
	for _, tc := range []struct {
		ctx  context.Context
		err  error
		want record.ExitReason
	}{
		{live, errors.New("500"), record.ExitError},
		{live, fmt.Errorf("call: %w", context.Canceled), record.ExitInterrupted},
		{dead, errors.New("anything"), record.ExitInterrupted},
		{live, fmt.Errorf("call: %w", model.ErrInterrupted), record.ExitInterrupted},
		{live, fmt.Errorf("call: %w", model.ErrServer), record.ExitError},
	} {
		if got := ExitFor(tc.ctx, tc.err); got != tc.want {
			t.Errorf("ExitFor(%v) = %q, want %q", tc.err, got, tc.want)
		}
	}
}
