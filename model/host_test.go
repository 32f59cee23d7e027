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
		if d := model.DefaultHost(model.BackendOllama); d != c.want {
			t.Errorf("OLLAMA_HOST=%q: DefaultHost = %q, want %q", c.env, d, c.want)
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

func TestDefaultHostOpenAI(t *testing.T) {
	t.Setenv("OPENAI_BASE_URL", "")
	if d := model.DefaultHost(model.BackendOpenAI); d != model.DefaultOpenAIHost {
		t.Errorf("DefaultHost(openai) = %q", d)
	}
	t.Setenv("OPENAI_BASE_URL", "http://gpu:8000")
	if d := model.DefaultHost(model.BackendOpenAI); d != "http://gpu:8000/v1" {
		t.Errorf("DefaultHost(openai) with OPENAI_BASE_URL = %q", d)
	}
}
