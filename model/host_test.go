package model_test

import (
	"testing"

	"bench/model"
)

// TestOllamaHostAsOllamaReadsIt: OLLAMA_HOST means what it means to the
// ollama CLI; a host without a port gets Ollama's 11434, not HTTP's 80.
func TestOllamaHostAsOllamaReadsIt(t *testing.T) {
	cases := []struct{ env, want string }{
		{"", "http://127.0.0.1:11434"},
		{"0.0.0.0", "http://0.0.0.0:11434"},
		{"localhost", "http://localhost:11434"},
		{"box:9999", "http://box:9999"},
		{"[::1]", "http://[::1]:11434"},
		{"http://box", "http://box:80"},
		{"https://box", "https://box:443"},
		{"http://box:11435/", "http://box:11435"},
	}
	for _, c := range cases {
		t.Setenv("OLLAMA_HOST", c.env)
		got, err := model.Config{}.BaseURL()
		if err != nil || got != c.want {
			t.Errorf("OLLAMA_HOST=%q: %q %v, want %q", c.env, got, err, c.want)
		}
	}
}

// TestHostFlagWithoutPort: --host localhost on the Ollama backend is
// Ollama's port too; with a scheme the scheme's port holds.
func TestHostFlagWithoutPort(t *testing.T) {
	t.Setenv("OLLAMA_HOST", "elsewhere:1")
	cases := []struct {
		cfg  model.Config
		want string
	}{
		{model.Config{Host: "localhost"}, "http://localhost:11434"},
		{model.Config{Host: "10.0.0.5"}, "http://10.0.0.5:11434"},
		{model.Config{Host: "http://box"}, "http://box"},
		{model.Config{Host: "box:8000"}, "http://box:8000"},
		{model.Config{Backend: model.BackendOpenAI, Host: "localhost"}, "http://localhost/v1"},
	}
	for _, c := range cases {
		got, err := c.cfg.BaseURL()
		if err != nil || got != c.want {
			t.Errorf("%+v: %q %v, want %q", c.cfg, got, err, c.want)
		}
	}
}

// TestOpenAIBaseURLFromTheEnvironment: with no --host, the OpenAI
// backend talks to OPENAI_BASE_URL, else DefaultOpenAIHost, with /v1 added
// to a bare address.
func TestOpenAIBaseURLFromTheEnvironment(t *testing.T) {
	cfg := model.Config{Backend: model.BackendOpenAI}
	t.Setenv("OPENAI_BASE_URL", "")
	if got, err := cfg.BaseURL(); err != nil || got != model.DefaultOpenAIHost {
		t.Errorf("no OPENAI_BASE_URL: %q %v, want %q", got, err, model.DefaultOpenAIHost)
	}
	t.Setenv("OPENAI_BASE_URL", "http://gpu:8000")
	if got, err := cfg.BaseURL(); err != nil || got != "http://gpu:8000/v1" {
		t.Errorf("OPENAI_BASE_URL=http://gpu:8000: %q %v, want http://gpu:8000/v1", got, err)
	}
}
