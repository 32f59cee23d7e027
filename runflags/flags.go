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
		&cli.DurationFlag{Name: "retry-window", Usage: "how long a model server that cannot be reached is waited for before the episode is lost to it; 0 waits not at all",
			DefaultText: fmt.Sprintf("%s, %s with several --host", model.DefaultRetryWindow, runner.PoolRetryWindow)},
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
		if runSetting(d) {
			out = append(out, settingFlag(d, d.Help))
		}
	}
	return out
}

// runSetting says bench run takes the setting as a flag of its own.
func runSetting(d record.Def) bool { return d.Source == record.FromTable }

// doctorChecks are the settings of the table that bench doctor takes, each
// with what it checks for them.
var doctorChecks = map[string]string{
	"think":          "check that the model can think, as bench run --think needs",
	"workflow-model": "check also the hybrid's second model, as bench run --workflow-model asks it (without tools)",
}

// doctorSetting says bench doctor takes the setting.
func doctorSetting(d record.Def) bool { _, ok := doctorChecks[d.Name]; return ok }

// DoctorSettings are the flags of the settings bench doctor takes, made
// from the table as bench run's are, with doctor's help.
func DoctorSettings() []cli.Flag {
	var out []cli.Flag
	for _, d := range record.Table {
		if doctorSetting(d) {
			out = append(out, settingFlag(d, doctorChecks[d.Name]))
		}
	}
	return out
}

// Tasks is --tasks, which picks among the catalogue for run, doctor and
// predict; usage says what for.
func Tasks(usage string) cli.Flag {
	return &cli.StringFlag{Name: "tasks", Aliases: []string{"task"}, Usage: usage}
}

// Tracks is --tracks, for run and doctor.
func Tracks(value, usage string) cli.Flag {
	return &cli.StringFlag{Name: "tracks", Aliases: []string{"track"}, Value: value, Usage: usage}
}

// settingFlag is the flag of one setting, with its help.
func settingFlag(d record.Def, usage string) cli.Flag {
	def := d.Get(record.DefaultSettings())
	if d.Dimension { // one value, or several: a dimension of the plan
		return &cli.StringFlag{Name: d.Name, Value: fmt.Sprint(def), Usage: usage}
	}
	switch v := def.(type) {
	case time.Duration:
		return &cli.DurationFlag{Name: d.Name, Value: v, Usage: usage}
	case float64:
		return &cli.Float64Flag{Name: d.Name, Value: v, Usage: usage}
	case bool:
		return &cli.BoolFlag{Name: d.Name, Value: v, Usage: usage}
	case int:
		return &cli.IntFlag{Name: d.Name, Value: v, Usage: usage}
	case int64:
		if d.Unit == record.UnitBytes {
			return &cli.StringFlag{Name: d.Name, Value: d.Shown, Usage: usage}
		}
		return &cli.Int64Flag{Name: d.Name, Value: v, Usage: usage}
	}
	return &cli.StringFlag{Name: d.Name, Value: fmt.Sprint(def), Usage: usage}
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
