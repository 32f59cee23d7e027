package workflow

import (
	"context"
	"errors"
	"testing"

	"bench/model"
	"bench/model/modeltest"
	"bench/record"
	"bench/track/tracktest"
)

func TestOllamaWorkflowServerDown(t *testing.T) {
	t.Parallel()
	env, rec := tracktest.Fixture(t, "slugify", nil)
	env.Model, _ = ollama(t, modeltest.Always(modeltest.Status(500)))
	out := Workflow(context.Background(), env)
	if out.Exit != record.ExitError || !errors.Is(out.Err, model.ErrServer) {
		t.Errorf("outcome = %+v; want error from the server", out)
	}
	if n := len(rec.Of(record.EventWrite)) + len(rec.Of(record.EventFallbackWrite)); n != 0 {
		t.Errorf("%d writes after a failed call", n)
	}
}
