package main

import (
	pf "bench/preflight"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/urfave/cli/v2"

	"bench/grade"
	"bench/internal/cliexit"
	"bench/model"
	"bench/plan"
	"bench/progress"
	"bench/record"
	"bench/runner"
	"bench/sandbox"
	"bench/tasks"
	"bench/testrun"
)

func runCommand() *cli.Command {
	return &cli.Command{
		Name:      "run",
		Usage:     "run the experiment: tasks × tracks × seeds against a model, recorded in a results folder",
		ArgsUsage: " ",
		Description: "Runs every task × track × seed as one episode (a fresh copy of the task, one track, graded with the\n" +
			"pristine tests), records each in the results folder as it finishes, then prints the report on stdout.\n" +
			"Progress goes to stderr. The doctor's checks run first; nothing is created if they fail. Ctrl-C stops\n" +
			"cleanly (again to quit at once); --resume DIR finishes the run.\n\n" +
			"Examples:\n" +
			"  bench run --tracks workflow,agent --seeds 1 --out results/lesson\n" +
			"  bench run --tasks parse_date --tracks agent --seeds 1,2,3,1 --out results/twins\n" +
			"  bench run --tracks oracle                        # no model needed\n" +
			"  bench run --model qwen3:8b,gemma3:4b --host http://gpu1:11434,http://gpu2:11434 --seeds 1,2,3\n" +
			"  bench run --shard 2/3 --seeds 1,2,3 --out results/sweep/shard-2   # one of three machines\n" +
			"  bench run --resume results/lesson",
		Flags: slices.Concat(modelFlags(), []cli.Flag{
			&cli.StringFlag{Name: "tasks", Aliases: []string{"task"}, Usage: "comma-separated task names, or all (default: the four course tasks)"},
			tasksDirFlag(),
			&cli.StringFlag{Name: "tracks", Aliases: []string{"track"}, Value: "workflow,agent", Usage: "comma-separated tracks: " + strings.Join(runner.TrackWords(), ", ")},
			&cli.StringFlag{Name: "seeds", Aliases: []string{"seed"}, Value: "1", Usage: "comma-separated seeds and ranges (1..8); a repeated seed is a twin run"},
		}, settingFlags(), []cli.Flag{
			&cli.StringFlag{Name: "shard", Usage: "run part i of n of the plan (i/n, e.g. 2/3): the same split on every machine; merge the parts with bench report A B C"},
			&cli.StringFlag{Name: "run-uid", Usage: "the run's identity in run.json (default: a new random one); give every shard of one sweep the same to report them as one run"},
			sandboxFlag(),
			&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "results folder (default: " + runner.ResultsDir + "/<UTC time>-<model>)"},
			&cli.StringFlag{Name: "resume", Usage: "finish the run in this results folder, as its run.json describes it (only --host, --parallel, --parallel-per-host, --timeout, --retry-window, --tasks-dir, --sandbox, --keep-workspaces and --format may be given)"},
			&cli.BoolFlag{Name: "keep-workspaces", Usage: "keep each episode's workspace after grading"},
			replayFlag(),
			&cli.BoolFlag{Name: "dry-run", Usage: "print the plan (tasks × tracks × models × seeds, shard, hosts), its episodes and the most model calls and reply tokens it may spend, and exit: no server is asked, nothing is written"},
			&cli.StringFlag{Name: "calibrate", Usage: "estimate the wall time from the episodes of a previous run of the same model in `DIR` (else the estimate comes after the first episodes)"},
			formatFlag(reportFormats...),
		}),
		Action: runAction,
	}
}

func runAction(c *cli.Context) error {
	cliexit.StopCleanly(c.Context, runInterruptNotice)
	if handled, err := replayHook(c); handled {
		return err
	}
	if c.Args().Present() {
		return usagef("run takes no arguments, got %q; name tasks with --tasks", c.Args().First())
	}
	if err := checkFormat(c.String("format")); err != nil {
		return err
	}
	s, err := session(c)
	if err != nil {
		return err
	}
	for _, w := range s.Warnings {
		fmt.Fprintln(c.App.ErrWriter, "warning:", w)
	}
	est, err := estimator(c, s)
	if err != nil {
		return err
	}
	if c.Bool("dry-run") {
		return dryRun(c, s, est)
	}
	ctx := c.Context
	mode, err := sandboxMode(c)
	if err != nil {
		return err
	}
	asked, ok := checkReady(ctx, c.App.ErrWriter, s, mode)
	if !ok {
		return cli.Exit("", 1)
	}
	if err := useSandbox(c.App.ErrWriter, s, mode); err != nil {
		return err
	}
	servers, err := s.ConnectInspected(asked) // what the checks asked: each server once
	if err != nil {
		return err
	}
	return execute(ctx, c, s, servers, est)
}

// runInterruptNotice is what the first interrupt of bench run prints.
const runInterruptNotice = "\ninterrupt: no new episodes; stopping the running ones (press Ctrl-C again to quit at once)"

// session makes the run's Session from the flags, or from the run.json of --resume.
func session(c *cli.Context) (*runner.Session, error) {
	if dir := c.String("resume"); dir != "" {
		return resumeSession(c, dir)
	}
	spec, err := specFrom(c)
	if err != nil {
		return nil, err
	}
	if err := spec.Check(); err != nil {
		return nil, usage(err) // every check of the spec is on a flag's value
	}
	return runner.NewRun(spec)
}

// specFrom reads the flags of a new run into a runner.Spec.
func specFrom(c *cli.Context) (runner.Spec, error) {
	tracks := parseTracks(c.String("tracks"))
	seeds, err := parseSeeds(c.String("seeds"))
	if err != nil {
		return runner.Spec{}, err
	}
	all, err := tasks.Catalogue(c.String("tasks-dir"))
	if err != nil {
		return runner.Spec{}, err
	}
	selected, err := pickRunTasks(all, splitList(c.String("tasks")))
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
		return runner.Spec{}, usagef("--run-uid: %w", err)
	}
	settings, dims, err := settingsFrom(c)
	if err != nil {
		return runner.Spec{}, err
	}
	return runner.Spec{
		Model: mcfg, Models: splitRaw(mcfg.Model), Hosts: hostList(c), Shard: shard, UID: c.String("run-uid"),
		Tasks: selected, Tracks: tracks, Seeds: seeds, RunSettings: settings, Dimensions: dims,
		Dir: c.String("out"), BenchVersion: version(),
	}, nil
}

// resumeSession makes the Session that finishes the run in dir; the flags
// that run.json records are refused.
func resumeSession(c *cli.Context, dir string) (*runner.Session, error) {
	for _, f := range runDefiningFlags {
		if c.IsSet(f) {
			return nil, usagef("--resume continues the run as %s describes it; drop --%s (start a new run with --out to change it)", filepath.Join(dir, "run.json"), f)
		}
	}
	if c.Duration("timeout") <= 0 {
		return nil, usagef("--timeout must be positive, got %s", c.Duration("timeout"))
	}
	all, err := tasks.Catalogue(c.String("tasks-dir"))
	if err != nil {
		return nil, err
	}
	window, err := retryWindow(c)
	if err != nil {
		return nil, err
	}
	opts := runner.ResumeOptions{Hosts: hostList(c), Timeout: c.Duration("timeout"), RetryWindow: window, ParallelPerHost: c.Int("parallel-per-host")}
	if c.IsSet("parallel") {
		opts.Parallel = c.Int("parallel") // else the run's own
		if opts.Parallel == 0 {
			return nil, usage(runner.CheckParallel(0))
		}
	}
	return runner.Resume(dir, all, opts)
}

// runDefiningFlags are the flags whose values run.json records; a resumed
// run takes them from there and refuses new ones: the plan's, and the
// settings that define the run (record.Def.Defines).
// --host is not among them: a server may move between sessions, and the
// model digest check in Connect still proves the same weights answer.
var runDefiningFlags = slices.Concat([]string{"tasks", "tracks", "seeds"}, definingSettings(), []string{"out", "shard", "run-uid"})

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

// settingFlags are the flags of bench run made from the settings' table
// (record.Table): each one's name, default and help, of the kind its
// field holds.
func settingFlags() []cli.Flag {
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

// settingsFrom reads the flags of the settings' table into the run's
// settings, and the dimensions: the settings that may be one given
// several values, which hold their first.
func settingsFrom(c *cli.Context) (record.RunSettings, []record.Dimension, error) {
	s := record.DefaultSettings()
	var dims []record.Dimension
	for _, d := range record.Table {
		if d.Source != record.FromTable {
			continue
		}
		v := c.Value(d.Name)
		if d.Dimension {
			values := splitRaw(c.String(d.Name))
			if len(values) == 0 {
				return s, nil, usagef("--%s is empty: give a value, or several separated by commas", d.Name)
			}
			first, err := d.Parse(values[0])
			if err != nil {
				return s, nil, usage(err)
			}
			if len(values) > 1 {
				dims = append(dims, record.Dimension{Name: d.Name, Values: values})
			}
			v = first
		}
		if d.Unit == record.UnitBytes {
			n, err := grade.ParseSize(c.String(d.Name))
			if err != nil {
				return s, nil, usagef("--%s: %w", d.Name, err)
			}
			if n == grade.DefaultWorkspaceLimit {
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
	return s, usage(err)
}

// hostList is the pool of servers: --host URL1,URL2, else a comma-separated
// OLLAMA_HOST on the Ollama backend; nil leaves the one server to the
// model package's defaults.
func hostList(c *cli.Context) []string {
	if c.IsSet("host") {
		return splitRaw(c.String("host"))
	}
	if env := os.Getenv("OLLAMA_HOST"); c.String("backend") == model.BackendOllama && strings.Contains(env, ",") {
		return splitRaw(env)
	}
	return nil
}

// splitRaw splits a comma-separated list keeping blanks (trimmed), for the
// runner to refuse with a clear message; "" is no list.
func splitRaw(s string) []string {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	parts := strings.Split(s, ",")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

// checkFormat checks the --format of the final report.
func checkFormat(f string) error {
	_, err := reportWriter(f)
	return err
}

// parseTracks splits a comma-separated list of track words, dropping
// repeats; runner.NewRun checks each word.
func parseTracks(s string) []string {
	var out []string
	for _, w := range splitList(s) {
		if !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// maxSeedRange is the most seeds one range a..b of --seeds may stand for.
const maxSeedRange = 100000

// parseSeeds parses a comma-separated list of whole numbers and ranges
// a..b (every seed from a to b); repeats are kept (twin runs).
func parseSeeds(s string) ([]int, error) {
	if len(splitList(s)) == 0 {
		return nil, usagef("--seeds is empty: give a comma-separated list of whole numbers such as 1,2,3 or a range such as 1..8")
	}
	var seeds []int
	for _, p := range strings.Split(s, ",") {
		p = strings.TrimSpace(p)
		if p == "" {
			return nil, usagef("bad --seeds %q: an empty seed between commas; give a comma-separated list such as 1,2,3", s)
		}
		lo, hi, isRange := strings.Cut(p, "..")
		if !isRange {
			hi = lo
		}
		a, err := parseSeed(s, lo)
		if err != nil {
			return nil, err
		}
		b, err := parseSeed(s, hi)
		if err != nil {
			return nil, err
		}
		if b < a || b-a >= maxSeedRange {
			return nil, usagef("bad --seeds %q: the range %s must run upwards over at most %d seeds, such as 1..8", s, p, maxSeedRange)
		}
		for n := a; n <= b; n++ {
			seeds = append(seeds, n)
		}
	}
	return seeds, nil
}

// parseSeed parses one seed p of the --seeds value s.
func parseSeed(s, p string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(p))
	if err != nil {
		return 0, usagef("bad --seeds %q: %q is not a whole number; give a comma-separated list such as 1,2,3 or a range such as 1..8", s, p)
	}
	if n < 0 {
		return 0, usagef("bad --seeds %q: %d is negative; seeds are 0 or more (servers take -1 as \"pick a random seed\", which no run can repeat)", s, n)
	}
	return n, nil
}

// splitList splits a comma-separated flag value, dropping blanks.
func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// checkReady runs the doctor's checks and returns what the servers said;
// on failure it prints the checks, and then what stops the run, by cause
// (refusalHelp). Nothing has been created yet.
func checkReady(ctx context.Context, errw io.Writer, s *runner.Session, mode sandbox.Mode) ([]runner.Inspection, bool) {
	res := preflightAll(ctx, s, mode)
	if pf.OK(res.Checks) {
		return res.Servers, true
	}
	for _, c := range res.Checks {
		fmt.Fprintln(errw, c)
	}
	fmt.Fprintln(errw, refusalHelp(s, res.Checks))
	return nil, false
}

// refusalHelp says what stops the run, one paragraph per cause the failed
// checks name (a server that cannot be reached, a model it lacks, a model
// without tools or thinking, servers that disagree), and that nothing was
// created or changed.
func refusalHelp(s *runner.Session, checks []pf.Check) string {
	var paras []string
	add := func(p string) {
		if !slices.Contains(paras, p) {
			paras = append(paras, p)
		}
	}
	local := false
	for _, c := range checks {
		if c.OK() {
			continue
		}
		if pf.Local(c.Name) {
			local = true
			continue
		}
		add(refusalOf(s, c))
	}
	if local {
		add("The checks of this machine above failed (each says how to fix it).")
	}
	unchanged := "Nothing was created or changed."
	if s.Resumed {
		unchanged = s.Dir + " is unchanged; resume it once this is fixed, or, if the server has moved, add --host URL."
	}
	return strings.Join(append(paras, unchanged), "\n")
}

// refusalOf is the paragraph of one failed check of a model server.
func refusalOf(s *runner.Session, c pf.Check) string {
	name, backend := s.Model.Model, s.Model.Backend
	if c.Model != "" {
		name = c.Model // the model the failed check asked about (a pool's, or --workflow-model)
	}
	switch c.Kind {
	case model.ErrUnreachable:
		how := (&model.Error{Kind: model.ErrUnreachable, Backend: backend, Host: c.Host, Model: name}).Fix()
		if backend == "" || backend == model.BackendOllama {
			how += fmt.Sprintf("; once it runs, pull the model if it is not there yet: `%s`", model.PullCommand(c.Host, name))
		}
		p := fmt.Sprintf("bench run could not reach the model server at %s: %s.", c.Host, how)
		if !s.Resumed { // a resumed run keeps its tracks
			p += " A run with --tracks oracle needs no server."
		}
		return p
	case model.ErrModelNotFound:
		return fmt.Sprintf("The model server at %s is up, but it has no model %s: %s, or choose one it has with --model.", c.Host, name,
			(&model.Error{Kind: model.ErrModelNotFound, Backend: backend, Host: c.Host, Model: name}).Fix())
	case model.ErrNoToolSupport:
		need, rest := tracksByTools(s.Run.Tracks)
		return fmt.Sprintf("Model %s on %s cannot call tools, which the %s track needs: run without it with --tracks %s, or choose a model that supports tools with --model.",
			name, c.Host, strings.Join(need, " and "), strings.Join(rest, ","))
	case model.ErrNoThinking:
		return fmt.Sprintf("Model %s cannot think, which --think asks for: drop --think, or choose a model that can with --model.", name)
	case model.ErrModelMismatch:
		return "The servers of the pool do not serve the model the same (see above): make them agree, or run on one of them with --host."
	}
	return "bench run could not use the model server at " + c.Host + " (the check above says what failed and how to fix it)."
}

// tracksByTools splits the run's tracks into those that offer the model
// tools and the others; with no others, the others are the workflow.
func tracksByTools(tracks []string) (tools, rest []string) {
	for _, t := range tracks {
		if runner.UsesTools(t) {
			tools = append(tools, t)
		} else {
			rest = append(rest, t)
		}
	}
	if len(rest) == 0 {
		rest = []string{"workflow"}
	}
	return tools, rest
}

// preflightAll runs the doctor's checks against every host and model of
// the run at once, and the local ones (python3, the sandbox, the tasks)
// once meanwhile.
func preflightAll(ctx context.Context, s *runner.Session, mode sandbox.Mode) pf.Result {
	need := pf.NeedsOf(s.Run.Tracks)
	need.ToolFree = s.ToolFreeModels()
	need.Think, need.Sandbox = s.Run.Think, mode
	return pf.Gather(ctx, s.ServerConfigs(), need, s.Tasks)
}

// useSandbox puts every test run of this process in the sandbox that mode
// asks for, records its layers on the run, and says once which layers this
// machine lacks.
func useSandbox(errw io.Writer, s *runner.Session, mode sandbox.Mode) error {
	cfg := sandbox.Config{Mode: mode}
	layers, err := sandbox.Plan(cfg)
	if err != nil {
		return err
	}
	testrun.SetSandbox(cfg)
	if !s.Resumed {
		s.Run.Sandbox = &record.Sandbox{FS: layers.FS, Net: layers.Net, PID: layers.PID}
	}
	if missing := layers.Missing(); mode != sandbox.Off && len(missing) > 0 {
		fmt.Fprintf(errw, "warning: the sandbox lacks %s on this machine (%s); bench doctor says how to add it, --sandbox on refuses to run without it\n", strings.Join(missing, ", "), layers)
	}
	return nil
}

// execute runs the pending episodes, then prints the report; a run stopped
// early says how to resume it.
func execute(ctx context.Context, c *cli.Context, s *runner.Session, servers []runner.Server, est *plan.Estimator) error {
	// Progress goes to stderr so that `bench run > report.txt` keeps only the report.
	out := c.App.ErrWriter
	pl, err := plan.Of(s, typedDir(c))
	if err != nil {
		return err
	}
	printPlanLines(out, pl, s, servers, est)
	planned, pending := s.Plan(), s.Pending()
	keep := c.Bool("keep-workspaces")
	if keep {
		fmt.Fprintf(out, "workspaces are kept under %s (bench-<task>-*); each trajectory's end event names its own\n", os.TempDir())
	}
	done, passed := s.Finished()
	prog := progress.New(out, len(planned), done, passed)
	prog.Expect(pending, est, len(pl.Models) > 1)
	var stand atomic.Int64 // the planned episodes that stand on disk: not lost, not interrupted
	stand.Store(int64(done))
	count := func(ep record.Episode) {
		if runner.Finished(ep) {
			stand.Add(1)
		}
		prog.Episode(ep)
	}
	runErr := s.Execute(ctx, servers, runner.ExecOptions{Keep: keep, Start: prog.Begin, Call: prog.Call, Progress: count, Warn: func(w string) { fmt.Fprintln(out, "warning:", w) }})
	prog.Finish()
	var stopped *runner.StopError
	switch {
	case errors.As(runErr, &stopped):
		fmt.Fprintf(out, "bench run: %v.\n%d of %d episodes stand in %s; the lost ones are not counted and will be redone.\n%s, resume with: bench run --resume %s\n", runErr, stand.Load(), len(planned), pl.Dir, stopped.Remedy(), pl.Dir)
		return cli.Exit("", 1)
	case runErr != nil:
		return runErr
	case ctx.Err() != nil:
		fmt.Fprintf(out, "interrupted: %d of %d episodes are recorded in %s (episodes cut short are marked interrupted and will be redone).\nResume with: bench run --resume %s\n", prog.Done(), len(planned), pl.Dir, pl.Dir)
		if note := goRunNote(os.Args[0]); note != "" {
			fmt.Fprintln(out, note)
		}
		return cli.Exit("", 130)
	}
	return printReport(c, s.Dir, c.String("format"))
}
