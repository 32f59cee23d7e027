package runflags

import (
	"os"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"bench/grade"
	"bench/internal/cliexit"
	"bench/model"
	"bench/record"
	"bench/runner"
	"bench/tasks"
)

// Spec reads the flags of a new run (bench run's) into a runner.Spec,
// benchVersion recorded in it.
func Spec(c *cli.Context, benchVersion string) (runner.Spec, error) {
	seeds, err := ParseSeeds(c.String("seeds"))
	if err != nil {
		return runner.Spec{}, err
	}
	selected, err := runTasks(c)
	if err != nil {
		return runner.Spec{}, err
	}
	shard, err := shardFlag(c)
	if err != nil {
		return runner.Spec{}, err
	}
	mcfg, err := modelConfig(c)
	if err != nil {
		return runner.Spec{}, err
	}
	if err := record.CheckUID(c.String("run-uid")); err != nil {
		return runner.Spec{}, cliexit.Usagef("--run-uid: %w", err)
	}
	settings, dims, err := settingsFrom(c, runSetting)
	if err != nil {
		return runner.Spec{}, err
	}
	return runner.Spec{
		Model: mcfg, Models: splitRaw(mcfg.Model), Hosts: hosts(c), Shard: shard, UID: c.String("run-uid"),
		Tasks: selected, Tracks: parseTracks(c.String("tracks")), Seeds: seeds, RunSettings: settings, Dimensions: dims,
		Dir: c.String("out"), BenchVersion: benchVersion,
	}, nil
}

// DoctorSpec reads bench doctor's flags into the runner.Spec of the run
// it checks for: its tracks (all by default), tasks, models and hosts,
// --think and --workflow-model, one seed and the other settings' defaults.
func DoctorSpec(c *cli.Context) (runner.Spec, error) {
	tracks, err := PickTracks(c.String("tracks"), "--tracks")
	if err != nil {
		return runner.Spec{}, err
	}
	selected, err := runTasks(c)
	if err != nil {
		return runner.Spec{}, err
	}
	mcfg, err := modelConfig(c)
	if err != nil {
		return runner.Spec{}, err
	}
	settings, _, err := settingsFrom(c, doctorSetting)
	if err != nil {
		return runner.Spec{}, err
	}
	return runner.Spec{Model: mcfg, Models: splitRaw(mcfg.Model), Hosts: hosts(c), Tasks: selected, Tracks: tracks, Seeds: []int{1}, RunSettings: settings}, nil
}

// runTasks is the tasks --tasks names among the catalogue (with
// --tasks-dir's), else those a run takes by default.
func runTasks(c *cli.Context) ([]tasks.Task, error) {
	all, err := tasks.Catalogue(c.String("tasks-dir"))
	if err != nil {
		return nil, err
	}
	return PickRunTasks(all, c.String("tasks"))
}

// settingsFrom reads the flags of the settings' table that the command
// takes (has says which) into the run's settings, the others left at
// their defaults, and the dimensions: the settings that may be one given
// several values, which hold their first.
func settingsFrom(c *cli.Context, has func(record.Def) bool) (record.RunSettings, []record.Dimension, error) {
	s := record.DefaultSettings()
	var dims []record.Dimension
	for _, d := range record.Table {
		if !has(d) {
			continue
		}
		v := c.Value(d.Name)
		if d.Dimension {
			values := splitRaw(c.String(d.Name))
			if len(values) == 0 {
				return s, nil, cliexit.Usagef("--%s is empty: give a value, or several separated by commas", d.Name)
			}
			first, err := d.Parse(values[0])
			if err != nil {
				return s, nil, cliexit.UsageOf(err)
			}
			if len(values) > 1 {
				dims = append(dims, record.Dimension{Name: d.Name, Values: values})
			}
			v = first
		}
		if d.Unit == record.UnitBytes {
			n, err := grade.ParseSize(c.String(d.Name))
			if err != nil {
				return s, nil, cliexit.Usagef("--%s: %w", d.Name, err)
			}
			if def, _ := grade.ParseSize(d.Shown); n == def {
				n = 0 // run.json leaves the default out, as runs before the flag did
			}
			v = n
		}
		d.Set(&s, v)
	}
	return s, dims, nil
}

// shardFlag reads --shard; nil when not given.
func shardFlag(c *cli.Context) (*record.Shard, error) {
	if !c.IsSet("shard") {
		return nil, nil
	}
	s, err := runner.ParseShard(c.String("shard"))
	return s, cliexit.UsageOf(err)
}

// hosts is the pool of servers: --host URL1,URL2, else a comma-separated
// OLLAMA_HOST on the Ollama backend; nil leaves the one server to the
// model package's defaults.
func hosts(c *cli.Context) []string {
	if c.IsSet("host") {
		return splitRaw(c.String("host"))
	}
	if env := os.Getenv("OLLAMA_HOST"); c.String("backend") == model.BackendOllama && strings.Contains(env, ",") {
		return splitRaw(env)
	}
	return nil
}

// retryWindow reads --retry-window as model.Config takes it: 0 when it is
// not given (the default), -1 for "0" (no waiting); a negative one is refused.
func retryWindow(c *cli.Context) (time.Duration, error) {
	if !c.IsSet("retry-window") {
		return 0, nil
	}
	switch d := c.Duration("retry-window"); {
	case d < 0:
		return 0, cliexit.Usagef("--retry-window must not be negative, got %s", d)
	case d == 0:
		return -1, nil
	default:
		return d, nil
	}
}

// modelConfig reads the Model flags of c.
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
