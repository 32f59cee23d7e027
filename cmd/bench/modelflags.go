package main

import (
	"fmt"
	"time"

	"github.com/urfave/cli/v2"

	"bench/model"
	"bench/record"
	"bench/runner"
)

// modelFlags are the flags that choose the model server, shared by the
// commands that talk to one (doctor, run).
func modelFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "backend", Value: model.BackendOllama, Usage: settingHelp("backend")},
		&cli.StringFlag{Name: "host", Usage: "model server URL or host:port (default: $OLLAMA_HOST or " + model.DefaultOllamaHost + "; openai: $OPENAI_BASE_URL or " + model.DefaultOpenAIHost + ")"},
		&cli.StringFlag{Name: "model", Value: model.DefaultModel, Usage: settingHelp("model")},
		&cli.DurationFlag{Name: "timeout", Value: model.DefaultTimeout, Usage: "limit for one model call"},
		&cli.DurationFlag{Name: "retry-window", Usage: fmt.Sprintf("how long a model server that cannot be reached is waited for before the episode is lost to it; 0 waits not at all (default %s, %s with several --host)", model.DefaultRetryWindow, runner.PoolRetryWindow)},
	}
}

// settingHelp is the help of a setting of the table (record.Table).
func settingHelp(name string) string {
	d, _ := record.Lookup(name)
	return d.Help
}

// retryWindow reads --retry-window as model.Config takes it: 0 when it is
// not given (the default), -1 for "0" (no waiting); a negative one is refused.
func retryWindow(c *cli.Context) (time.Duration, error) {
	if !c.IsSet("retry-window") {
		return 0, nil
	}
	switch d := c.Duration("retry-window"); {
	case d < 0:
		return 0, usagef("--retry-window must not be negative, got %s", d)
	case d == 0:
		return -1, nil
	default:
		return d, nil
	}
}

// modelConfig reads the modelFlags of c.
func modelConfig(c *cli.Context) (model.Config, error) {
	window, err := retryWindow(c)
	return model.Config{
		Backend:     c.String("backend"),
		Host:        c.String("host"),
		Model:       c.String("model"),
		Timeout:     c.Duration("timeout"),
		RetryWindow: window,
	}, err
}
