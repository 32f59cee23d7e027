package model_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"bench/model"
	"bench/model/modeltest"
	"bench/record"
)

// TestOllamaErrorBodies replays error bodies as Ollama 0.24 writes them;
// each becomes bench's own message, stops the run (the setup is wrong), and none is retried.
func TestOllamaErrorBodies(t *testing.T) {
	cases := []struct {
		name  string
		rep   modeltest.Reply
		think bool
		kind  error
		want  []string
	}{
		{"unknown model", modeltest.StatusText(404, "model 'nosuch' not found"), false, model.ErrModelNotFound,
			[]string{`model "qwen3:8b" not found on http://127.0.0.1:`, "ollama pull qwen3:8b"}},
		{"no thinking", modeltest.StatusText(400, `"tiny" does not support thinking`), true, model.ErrNoThinking,
			[]string{`model "qwen3:8b" cannot think: drop --think, or choose a model that can`}},
		{"no tools", modeltest.StatusText(400, "registry.ollama.ai/library/tiny:latest does not support tools"), false, model.ErrNoToolSupport,
			[]string{`model "qwen3:8b"`, "does not support tool calling"}},
		{"bad option", modeltest.StatusText(500, `option "num_predict" must be of type integer`), false, model.ErrRequest,
			[]string{`rejected the request: option "num_predict" must be of type integer`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := modeltest.NewOllama(t, c.rep, modeltest.Text("never"))
			req := userRequest("hi")
			req.Options.Think = c.think
			_, err := newClient(t, srv.Config()).Chat(context.Background(), req)
			if k, _ := model.KindOf(c.kind); !errors.Is(err, c.kind) || model.Kind(err) != record.ErrorRefused || k.Meaning != model.Stops {
				t.Fatalf("err = %v (kind %q), want %v", err, model.Kind(err), c.kind)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("message %q lacks %q", err, w)
				}
			}
			if n := len(srv.Requests()); n != 1 {
				t.Errorf("%d requests: a refusal is not retried", n)
			}
		})
	}
}

// TestOllamaFakeRefusesAsOllamaDoes: the fake's own refusal of an unknown
// model is Ollama's body.
func TestOllamaFakeRefusesAsOllamaDoes(t *testing.T) {
	srv := modeltest.NewOllama(t)
	cfg := srv.Config()
	cfg.Model = "nosuch"
	_, err := newClient(t, cfg).Chat(context.Background(), userRequest("hi"))
	var e *model.Error
	if !errors.As(err, &e) || e.Kind != model.ErrModelNotFound || e.Detail != "model 'nosuch' not found" {
		t.Fatalf("err = %v (%+v)", err, e)
	}
}

// TestOpenAIErrorBodies: Ollama's /v1 writes its refusals in OpenAI's shape.
func TestOpenAIErrorBodies(t *testing.T) {
	srv := modeltest.NewOpenAI(t, modeltest.StatusText(404, `model "nosuch" not found, try pulling it first`))
	_, err := newClient(t, srv.Config()).Chat(context.Background(), userRequest("hi"))
	if !errors.Is(err, model.ErrModelNotFound) || strings.Contains(err.Error(), "ollama pull") || !strings.Contains(err.Error(), "--model") {
		t.Fatalf("err = %v", err)
	}
}
