package main

import (
	"github.com/urfave/cli/v2"

	"bench/model"
)

// modelFlags are the flags that choose the model server, shared by the
// commands that talk to one (doctor, run).
func modelFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "backend", Value: model.BackendOllama, Usage: "model server protocol: ollama or openai (mlx_lm.server, llama.cpp, vLLM)"},
		&cli.StringFlag{Name: "host", Usage: "model server URL or host:port (default: $OLLAMA_HOST or " + model.DefaultOllamaHost + "; openai: $OPENAI_BASE_URL or " + model.DefaultOpenAIHost + ")"},
		&cli.StringFlag{Name: "model", Value: model.DefaultModel, Usage: "model name as the server knows it"},
		&cli.DurationFlag{Name: "timeout", Value: model.DefaultTimeout, Usage: "limit for one model call"},
	}
}

// modelConfig reads the modelFlags of c.
func modelConfig(c *cli.Context) model.Config {
	return model.Config{
		Backend: c.String("backend"),
		Host:    c.String("host"),
		Model:   c.String("model"),
		Timeout: c.Duration("timeout"),
	}
}
