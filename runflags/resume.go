package runflags

import (
	"path/filepath"
	"slices"

	"github.com/urfave/cli/v2"

	"bench/internal/cliexit"
	"bench/model"
	"bench/record"
	"bench/runner"
)

// Defining are the flags whose values run.json records; a resumed run
// takes them from there and refuses new ones: the plan's, and the
// settings that define the run (record.Def.Defines).
// --host is not among them: a server may move between sessions, and the
// model digest check in Connect still proves the same weights answer.
var Defining = slices.Concat([]string{"tasks", "tracks", "seeds"}, definingSettings(), []string{"out", "shard", "run-uid"})

// definingSettings are the flags of the settings that define the run.
func definingSettings() []string {
	var out []string
	for _, d := range record.Table {
		if d.Defines && d.Source != record.Recorded {
			out = append(out, d.Name)
		}
	}
	return out
}

// Resume reads the flags bench run --resume DIR takes into the options
// of runner.Resume; a flag that run.json records is refused.
func Resume(c *cli.Context, dir string) (runner.ResumeOptions, error) {
	for _, f := range Defining {
		if c.IsSet(f) {
			return runner.ResumeOptions{}, cliexit.Usagef("--resume continues the run as %s describes it; drop --%s (start a new run with --out to change it)", filepath.Join(dir, record.RunFile), f)
		}
	}
	if err := model.CheckTimeout(c.Duration("timeout")); err != nil {
		return runner.ResumeOptions{}, cliexit.UsageOf(err)
	}
	window, err := retryWindow(c)
	if err != nil {
		return runner.ResumeOptions{}, err
	}
	opts := runner.ResumeOptions{Hosts: hosts(c), Timeout: c.Duration("timeout"), RetryWindow: window, ParallelPerHost: c.Int("parallel-per-host")}
	if c.IsSet("parallel") {
		opts.Parallel = c.Int("parallel") // else the run's own
		if opts.Parallel == 0 {
			return runner.ResumeOptions{}, cliexit.UsageOf(runner.CheckParallel(0))
		}
	}
	return opts, nil
}

// ReplayNoServer are the flags of a model server, which a replay never
// contacts.
var ReplayNoServer = []string{"host", "timeout", "retry-window", "parallel-per-host"}

// CheckReplay refuses the flags bench run --replay DIR does not take:
// those that define a run (the recording defines them), --resume, the
// plan's estimate and the model server's; and a --parallel below 1.
func CheckReplay(c *cli.Context, dir string) error {
	for _, f := range Defining {
		if f != "out" && c.IsSet(f) {
			return cliexit.Usagef("--replay runs as the recording %s describes it, so --%s cannot be given: drop it (a new run with other settings needs a model: bench run without --replay)", filepath.Join(dir, record.RunFile), f)
		}
	}
	if c.IsSet("resume") {
		return cliexit.Usagef("--replay and --resume cannot be given together: --replay DIR makes a new run from a recording, --resume DIR finishes a run")
	}
	for _, f := range []string{"dry-run", "calibrate"} {
		if c.IsSet(f) {
			return cliexit.Usagef("--replay has no plan to estimate: it replays the recording's episodes, so --%s cannot be given with it", f)
		}
	}
	for _, f := range ReplayNoServer {
		if c.IsSet(f) {
			return cliexit.Usagef("--replay contacts no model server, so --%s means nothing: drop it", f)
		}
	}
	return cliexit.UsageOf(runner.CheckParallel(c.Int("parallel")))
}
