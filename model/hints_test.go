package model_test

import (
	"strings"
	"testing"
	"time"

	"bench/model"
)

// TestFix: each failure's hint names what is wrong and the command that
// fixes it, with the host and port in use.
func TestFix(t *testing.T) {
	const (
		local   = "http://127.0.0.1:11434"
		other   = "http://127.0.0.1:9999"
		remote  = "http://gpu-box:11434"
		openai  = "http://127.0.0.1:8080/v1"
		openai2 = "http://10.1.2.3:8000/v1"
	)
	cases := []struct {
		name       string
		err        model.Error
		want, not  []string
		wantInHead []string
	}{
		{"missing on default host", model.Error{Kind: model.ErrModelNotFound, Backend: "ollama", Host: local, Model: "nosuch"},
			[]string{"`ollama pull nosuch`"}, []string{"OLLAMA_HOST=", "ollama serve"}, []string{`"nosuch"`, local}},
		{"missing on another port", model.Error{Kind: model.ErrModelNotFound, Backend: "ollama", Host: other, Model: "nosuch"},
			[]string{"`OLLAMA_HOST=127.0.0.1:9999 ollama pull nosuch`"}, []string{"ollama serve"}, nil},
		{"missing on a remote host", model.Error{Kind: model.ErrModelNotFound, Backend: "ollama", Host: remote, Model: "m:1b"},
			[]string{"`OLLAMA_HOST=gpu-box:11434 ollama pull m:1b`"}, nil, nil},
		{"unreachable default", model.Error{Kind: model.ErrUnreachable, Backend: "ollama", Host: local},
			[]string{"`ollama serve`", "--backend openai"}, []string{"OLLAMA_HOST=127"}, []string{"127.0.0.1:11434"}},
		{"unreachable other port", model.Error{Kind: model.ErrUnreachable, Backend: "ollama", Host: other},
			[]string{"`OLLAMA_HOST=127.0.0.1:9999 ollama serve`"}, nil, []string{"127.0.0.1:9999"}},
		{"unreachable remote", model.Error{Kind: model.ErrUnreachable, Backend: "ollama", Host: remote},
			[]string{"on gpu-box", "`OLLAMA_HOST=0.0.0.0:11434 ollama serve`"}, nil, nil},
		{"dropped", model.Error{Kind: model.ErrUnreachable, Backend: "ollama", Host: local, Detail: "the connection dropped: EOF"},
			[]string{"`ollama serve`"}, nil, []string{"dropped the connection"}},
		{"openai unreachable, ollama tag", model.Error{Kind: model.ErrUnreachable, Backend: "openai", Host: openai, Model: "qwen3:8b"},
			[]string{"port 8080", "mlx_lm.server --port 8080", "llama-server", "--backend ollama"}, []string{"qwen3:8b", "ollama serve"}, []string{"127.0.0.1:8080"}},
		{"openai unreachable, hub id", model.Error{Kind: model.ErrUnreachable, Backend: "openai", Host: openai2, Model: "mlx-community/Qwen3-8B-4bit"},
			[]string{"mlx_lm.server --model mlx-community/Qwen3-8B-4bit --port 8000"}, nil, nil},
		{"openai missing, ollama tag", model.Error{Kind: model.ErrModelNotFound, Backend: "openai", Host: openai, Model: "qwen3:8b"},
			[]string{"--model", "bench doctor --backend openai --host " + openai}, []string{"ollama pull", "mlx_lm.server --model qwen3:8b"}, []string{`"qwen3:8b"`}},
		{"no tools", model.Error{Kind: model.ErrNoToolSupport, Backend: "ollama", Host: other, Model: "tiny"},
			[]string{"OLLAMA_HOST=127.0.0.1:9999 ollama pull " + model.DefaultModel, "--model"}, nil, []string{`"tiny"`}},
		{"no tools openai", model.Error{Kind: model.ErrNoToolSupport, Backend: "openai", Host: openai, Model: "tiny"},
			[]string{"--jinja"}, []string{"ollama"}, nil},
		{"no thinking", model.Error{Kind: model.ErrNoThinking, Backend: "ollama", Host: local, Model: "tiny"},
			[]string{"drop --think, or choose a model that can"}, nil, []string{`model "tiny" cannot think`}},
		{"timeout", model.Error{Kind: model.ErrTimeout, Backend: "ollama", Host: local, Timeout: 90 * time.Second},
			[]string{"--timeout"}, nil, []string{"1m30s"}},
		{"bad reply", model.Error{Kind: model.ErrBadReply, Backend: "ollama", Host: other},
			[]string{"127.0.0.1:9999", "Ollama server"}, nil, nil},
		{"bad reply openai", model.Error{Kind: model.ErrBadReply, Backend: "openai", Host: openai},
			[]string{openai, "/v1"}, []string{"Ollama"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fix, msg := c.err.Fix(), c.err.Error()
			for _, w := range c.want {
				if !strings.Contains(fix, w) {
					t.Errorf("Fix() = %q lacks %q", fix, w)
				}
			}
			for _, w := range c.not {
				if strings.Contains(fix, w) {
					t.Errorf("Fix() = %q has %q", fix, w)
				}
			}
			for _, w := range c.wantInHead {
				if !strings.Contains(msg, w) {
					t.Errorf("Error() = %q lacks %q", msg, w)
				}
			}
			if !strings.HasSuffix(msg, fix) || strings.Count(msg, fix) != 1 {
				t.Errorf("Error() = %q does not end with its fix once", msg)
			}
		})
	}
}
