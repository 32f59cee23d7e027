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

// TestInspectCapabilities: /api/show's capabilities say whether the model
// can think and call tools; a server that reports none is assumed able.
func TestInspectCapabilities(t *testing.T) {
	srv := modeltest.NewOllama(t)
	srv.SetModels(
		modeltest.Model{Name: "tiny:latest", Capabilities: []string{"completion"}},
		modeltest.Model{Name: "tinytools:latest", Capabilities: []string{"completion", "tools"}},
		modeltest.Model{Name: "qwen3:8b", Capabilities: []string{"thinking", "completion", "tools"}},
		modeltest.Model{Name: "old:7b"},
	)
	cases := []struct {
		model           string
		tools, thinking bool
		caps            string
	}{
		{"tiny", false, false, "completion"},
		{"tinytools", true, false, "completion,tools"},
		{"qwen3:8b", true, true, "completion,thinking,tools"},
		{"old:7b", true, true, ""},
	}
	for _, c := range cases {
		cfg := srv.Config()
		cfg.Model = c.model
		info, err := newClient(t, cfg).Inspect(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if !info.HasModel || info.Tools != c.tools || info.Thinking != c.thinking || strings.Join(info.Capabilities, ",") != c.caps {
			t.Errorf("%s: %+v, want tools %v thinking %v capabilities %q", c.model, info, c.tools, c.thinking, c.caps)
		}
	}
}

// TestRequire: the preflight's refusal of --think or tools on a model that
// cannot, before anything starts.
func TestRequire(t *testing.T) {
	srv := modeltest.NewOllama(t)
	srv.SetModels(modeltest.Model{Name: "tiny:latest", Capabilities: []string{"completion"}})
	cfg := srv.Config()
	cfg.Model = "tiny"
	info, err := newClient(t, cfg).Inspect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	err = info.Require(true, false)
	if !errors.Is(err, model.ErrNoThinking) || model.Kind(err) != record.ErrorRefused {
		t.Fatalf("Require(think) = %v, want ErrNoThinking", err)
	}
	if want := `model "tiny" cannot think: drop --think, or choose a model that can`; !strings.Contains(err.Error(), want) {
		t.Errorf("message %q lacks %q", err, want)
	}
	if err := info.Require(false, true); !errors.Is(err, model.ErrNoToolSupport) || !strings.Contains(err.Error(), `"tiny"`) {
		t.Errorf("Require(tools) = %v, want ErrNoToolSupport", err)
	}
	if err := info.Require(false, false); err != nil {
		t.Errorf("Require(nothing) = %v", err)
	}
	missing := model.ServerInfo{Backend: model.BackendOllama, Host: srv.URL, Model: "nosuch"}
	if err := missing.Require(false, false); !errors.Is(err, model.ErrModelNotFound) {
		t.Errorf("Require on a missing model = %v, want ErrModelNotFound", err)
	}
}

// TestOpenAIInspectAssumesAbilities: OpenAI-compatible servers report no
// capabilities; thinking and tools are assumed.
func TestOpenAIInspectAssumesAbilities(t *testing.T) {
	srv := modeltest.NewOpenAI(t)
	info, err := newClient(t, srv.Config()).Inspect(context.Background())
	if err != nil || !info.Tools || !info.Thinking || info.Require(true, true) != nil {
		t.Errorf("info %+v err %v", info, err)
	}
}

// TestOpenAIUntaggedNameMatchesLatest: against Ollama's /v1, which lists
// "tiny:latest", --model tiny is found, as on the Ollama side.
func TestOpenAIUntaggedNameMatchesLatest(t *testing.T) {
	srv := modeltest.NewOpenAI(t)
	srv.SetModels(modeltest.Model{Name: "tiny:latest"}, modeltest.Model{Name: "other:7b"}, modeltest.Model{Name: "mlx-community/Qwen3-8B-4bit"})
	cases := map[string]bool{
		"tiny": true, "tiny:latest": true, "other:7b": true, "other": false, "tiny:7b": false,
		"mlx-community/Qwen3-8B-4bit": true, "mlx-community/Qwen3-8B": false,
	}
	for name, want := range cases {
		cfg := srv.Config()
		cfg.Model = name
		info, err := newClient(t, cfg).Inspect(context.Background())
		if err != nil || info.HasModel != want {
			t.Errorf("--model %s: HasModel %v (%v), want %v", name, info.HasModel, err, want)
		}
	}
}
