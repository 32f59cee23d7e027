package runflags

import (
	"fmt"
	"time"

	"github.com/urfave/cli/v2"

	"bench/internal/cliexit"
	"bench/model"
	"bench/record"
	"bench/runner"
	"bench/sandbox"
)

// Model are the flags that choose the model server, shared by the
// commands that talk to one (doctor, run).
func Model() []cli.Flag {
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

// Settings are the flags of bench run made from the settings' table
// (record.Table): each one's name, default and help, of the kind its
// field holds.
func Settings() []cli.Flag {
	var out []cli.Flag
	for _, d := range record.Table {
		if d.Source == record.FromTable {
			out = append(out, settingFlag(d))
		}
	}
	return out
}

// settingFlag is the flag of one setting.
func settingFlag(d record.Def) cli.Flag {
	def := d.Get(record.DefaultSettings())
	if d.Dimension { // one value, or several: a dimension of the plan
		return &cli.StringFlag{Name: d.Name, Value: fmt.Sprint(def), Usage: d.Help}
	}
	switch v := def.(type) {
	case time.Duration:
		return &cli.DurationFlag{Name: d.Name, Value: v, Usage: d.Help}
	case float64:
		return &cli.Float64Flag{Name: d.Name, Value: v, Usage: d.Help}
	case bool:
		return &cli.BoolFlag{Name: d.Name, Value: v, Usage: d.Help}
	case int:
		return &cli.IntFlag{Name: d.Name, Value: v, Usage: d.Help}
	case int64:
		if d.Unit == record.UnitBytes {
			return &cli.StringFlag{Name: d.Name, Value: d.Shown, Usage: d.Help}
		}
		return &cli.Int64Flag{Name: d.Name, Value: v, Usage: d.Help}
	}
	return &cli.StringFlag{Name: d.Name, Value: fmt.Sprint(def), Usage: d.Help}
}

// Sandbox is --sandbox, shared by run and doctor.
func Sandbox() cli.Flag {
	return &cli.StringFlag{Name: "sandbox", Value: string(sandbox.Auto),
		Usage: "confine every test run: auto (each layer the kernel allows, a warning for the rest), on (refuse to run without all of them) or off"}
}

// SandboxMode reads --sandbox.
func SandboxMode(c *cli.Context) (sandbox.Mode, error) {
	m, err := sandbox.ParseMode(c.String("sandbox"))
	return m, cliexit.UsageOf(err)
}

// TasksDir is the --tasks-dir flag every command that reads tasks shares.
func TasksDir() cli.Flag {
	return &cli.StringFlag{
		Name:  "tasks-dir",
		Usage: "add the tasks in `DIR` (one folder per task, as in tasks/) to the built-in ones",
	}
}
