package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"bench/internal/words"
	"bench/model"
	"bench/record"
	"bench/runner"
	"bench/tasks"
	"bench/testrun"
)

// defaultTemperature is the sampling temperature when --temperature is not
// given: low enough for mostly stable code, high enough that seeds matter.
const defaultTemperature = 0.7

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
			"  bench run --resume results/lesson",
		Flags: append(modelFlags(),
			&cli.StringFlag{Name: "tasks", Usage: "comma-separated task names (default: all)"},
			tasksDirFlag(),
			&cli.StringFlag{Name: "tracks", Value: "workflow,agent", Usage: "comma-separated tracks: " + strings.Join(runner.TrackWords(), ", ")},
			&cli.StringFlag{Name: "seeds", Value: "1", Usage: "comma-separated seeds; a repeated seed is a twin run"},
			&cli.Float64Flag{Name: "temperature", Value: defaultTemperature, Usage: "sampling temperature"},
			&cli.IntFlag{Name: "num-ctx", Value: 8192, Usage: "context window sent with every request"},
			&cli.IntFlag{Name: "max-tokens", Value: 4096, Usage: "cap on one reply's tokens, sent with every request as num_predict / max_tokens (0 = the server's default, unlimited on Ollama)"},
			&cli.Float64Flag{Name: "top-p", Usage: "nucleus sampling; 0 leaves the server's default"},
			&cli.BoolFlag{Name: "think", Usage: "let thinking models think"},
			&cli.IntFlag{Name: "max-turns", Value: 25, Usage: "agent: model turns before the final call without tools"},
			&cli.IntFlag{Name: "token-limit", Usage: "agent: token budget per episode (0 = none)"},
			&cli.IntFlag{Name: "tries", Value: 2, Usage: "workflow-retry: attempts"},
			&cli.StringFlag{Name: "posture", Value: "off", Usage: "coding guidance and workspace snapshot for the agent: off, auto (ask the detector) or on"},
			&cli.IntFlag{Name: "parallel", Value: 1, Usage: "episodes run at once"},
			&cli.StringFlag{Name: "out", Usage: "results folder (default: results/<UTC time>-<model>)"},
			&cli.StringFlag{Name: "resume", Usage: "finish the run in this results folder, as its run.json describes it (only --host, --parallel, --timeout, --tasks-dir, --keep-workspaces and --format may be given)"},
			&cli.BoolFlag{Name: "keep-workspaces", Usage: "keep each episode's workspace after grading"},
			&cli.StringFlag{Name: "format", Value: "text", Usage: "output format of the report printed at the end: text, markdown, csv or json"},
		),
		Action: runAction,
	}
}

// runSetup is everything a run needs, from flags or from a run.json.
type runSetup struct {
	run    record.Run
	tasks  []tasks.Task
	mcfg   model.Config
	keep   bool
	dir    string
	resume bool
	format string
}

func runAction(c *cli.Context) error {
	if c.Args().Present() {
		return fmt.Errorf("run takes no arguments, got %q; name tasks with --tasks", c.Args().First())
	}
	s, err := setupRun(c)
	if err != nil {
		return err
	}
	ctx, stop := interruptContext(c.Context, c.App.ErrWriter)
	defer stop()
	if !checkReady(ctx, c.App.ErrWriter, s) {
		return cli.Exit("", 1)
	}
	client, err := connect(ctx, &s)
	if err != nil {
		return err
	}
	w, done, err := openResults(&s)
	if err != nil {
		return err
	}
	return execute(ctx, c, s, client, w, done)
}

// setupRun reads and checks the flags, or the run.json of --resume.
func setupRun(c *cli.Context) (runSetup, error) {
	if dir := c.String("resume"); dir != "" {
		return setupResume(c, dir)
	}
	tracks, err := parseTracks(c.String("tracks"))
	if err != nil {
		return runSetup{}, err
	}
	seeds, err := parseSeeds(c.String("seeds"))
	if err != nil {
		return runSetup{}, err
	}
	if err := checkFlags(c); err != nil {
		return runSetup{}, err
	}
	all, err := loadTasks(c.String("tasks-dir"))
	if err != nil {
		return runSetup{}, err
	}
	selected := all
	if names := splitList(c.String("tasks")); len(names) > 0 {
		if selected, err = tasks.Select(all, names); err != nil {
			return runSetup{}, err
		}
	}
	refs, err := taskRefs(selected)
	if err != nil {
		return runSetup{}, err
	}
	s := runSetup{
		tasks: selected, keep: c.Bool("keep-workspaces"), format: c.String("format"),
		mcfg: modelConfig(c),
		run: record.Run{
			Format: record.FormatVersion, BenchVersion: version(),
			Backend: c.String("backend"), Host: c.String("host"), Model: c.String("model"),
			Temperature: c.Float64("temperature"), NumCtx: c.Int("num-ctx"), TopP: c.Float64("top-p"), Think: c.Bool("think"),
			MaxTokens: c.Int("max-tokens"),
			Seeds:     seeds, Tasks: refs, Tracks: tracks, Posture: c.String("posture"),
			PromptsSHA256: runner.PromptsDigest(tracks),
			MaxTurns:      c.Int("max-turns"), TokenLimit: c.Int("token-limit"), Tries: c.Int("tries"), Parallel: c.Int("parallel"),
			Started: time.Now().UTC(),
		},
	}
	host, err := s.mcfg.BaseURL()
	if err != nil {
		return runSetup{}, err
	}
	s.run.Host = host
	if !needsModel(tracks) {
		// No track calls a model: say so, rather than record one that was never asked.
		s.run.Backend, s.run.Host, s.run.Model = "", "", ""
	}
	s.dir = c.String("out")
	if s.dir == "" {
		s.dir = filepath.Join("results", s.run.Started.Format("20060102T150405Z")+"-"+safeName(cmp.Or(s.run.Model, "no-model")))
	}
	if err := checkOutDir(s.dir); err != nil {
		return runSetup{}, err
	}
	s.run.ID = filepath.Base(s.dir)
	return s, nil
}

// checkOutDir accepts a new or empty results folder, or one holding a run
// (which record.Create refuses with a pointer to --resume); it refuses a
// file and a folder holding other things, which a run must not mix with.
func checkOutDir(dir string) error {
	info, err := os.Stat(dir)
	if err != nil {
		return nil
	}
	if !info.IsDir() {
		return fmt.Errorf("--out %s is a file; give a folder for the results (a new one, or an empty one)", dir)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("--out %s cannot be read: %w", dir, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "run.json")); err == nil || len(entries) == 0 {
		return nil
	}
	return fmt.Errorf("--out %s already holds other files (%s, …) and no run.json; give a new or empty folder", dir, entries[0].Name())
}

// setupResume rebuilds a run's setup from its run.json; the tasks must be
// unchanged since the run started.
func setupResume(c *cli.Context, dir string) (runSetup, error) {
	for _, f := range runDefiningFlags {
		if c.IsSet(f) {
			return runSetup{}, fmt.Errorf("--resume continues the run as %s describes it; drop --%s (start a new run with --out to change it)", filepath.Join(dir, "run.json"), f)
		}
	}
	data, err := record.Read(dir)
	if err != nil {
		return runSetup{}, fmt.Errorf("cannot resume %s: %w", dir, err)
	}
	r := data.Run
	all, err := loadTasks(c.String("tasks-dir"))
	if err != nil {
		return runSetup{}, err
	}
	var names []string
	for _, ref := range r.Tasks {
		names = append(names, ref.Name)
	}
	selected, err := tasks.Select(all, names)
	if err != nil {
		return runSetup{}, fmt.Errorf("cannot resume %s: %w", dir, err)
	}
	refs, err := taskRefs(selected)
	if err != nil {
		return runSetup{}, err
	}
	for i, ref := range refs {
		if ref.Checksum != r.Tasks[i].Checksum {
			return runSetup{}, fmt.Errorf("cannot resume %s: task %s has changed since the run started (checksum %s, run.json has %s)", dir, ref.Name, ref.Checksum, r.Tasks[i].Checksum)
		}
	}
	if d := runner.PromptsDigest(r.Tracks); r.PromptsSHA256 != "" && d != r.PromptsSHA256 {
		return runSetup{}, fmt.Errorf("cannot resume %s: this bench sends other prompts than the one that started the run (prompts digest %.12s, run.json has %.12s); finish it with that build, or start a new run with --out", dir, d, r.PromptsSHA256)
	}
	if err := checkFormat(c.String("format")); err != nil {
		return runSetup{}, err
	}
	if r.Parallel = c.Int("parallel"); r.Parallel < 1 {
		return runSetup{}, fmt.Errorf("--parallel must be at least 1, got %d", r.Parallel)
	}
	return runSetup{
		run: r, tasks: selected, dir: dir, resume: true, keep: c.Bool("keep-workspaces"), format: c.String("format"),
		mcfg: model.Config{Backend: r.Backend, Host: cmp.Or(c.String("host"), r.Host), Model: r.Model, Timeout: c.Duration("timeout")},
	}, nil
}

// runDefiningFlags are the flags whose values run.json records; a resumed
// run takes them from there and refuses new ones.
// --host is not among them: a server may move between sessions, and the
// model digest check in connect still proves the same weights answer.
var runDefiningFlags = []string{"backend", "model", "tasks", "tracks", "seeds", "temperature", "num-ctx", "top-p", "max-tokens", "think", "max-turns", "token-limit", "tries", "posture", "out"}

// checkFlags checks the flags that are not lists.
func checkFlags(c *cli.Context) error {
	if b := c.String("backend"); b != "ollama" && b != "openai" {
		return fmt.Errorf("unknown --backend %q: use ollama or openai", b)
	}
	if p := c.String("posture"); p != "off" && p != "auto" && p != "on" {
		return fmt.Errorf("unknown --posture %q: use off, auto or on", p)
	}
	for _, f := range []string{"parallel", "max-turns", "tries", "num-ctx"} {
		if c.Int(f) < 1 {
			return fmt.Errorf("--%s must be at least 1, got %d", f, c.Int(f))
		}
	}
	if c.Int("max-tokens") < 0 {
		return fmt.Errorf("--max-tokens must be 0 (the server's default) or more, got %d", c.Int("max-tokens"))
	}
	if c.Int("token-limit") < 0 {
		return fmt.Errorf("--token-limit must be 0 (no limit) or more, got %d", c.Int("token-limit"))
	}
	if t := c.Float64("temperature"); t < 0 {
		return fmt.Errorf("--temperature must be 0 or more, got %g", t)
	}
	if p := c.Float64("top-p"); p < 0 || p > 1 {
		return fmt.Errorf("--top-p must be between 0 and 1, got %g", p)
	}
	if err := checkFormat(c.String("format")); err != nil {
		return err
	}
	if c.Duration("timeout") <= 0 {
		return fmt.Errorf("--timeout must be positive, got %s", c.Duration("timeout"))
	}
	return nil
}

// checkFormat checks the --format of the final report.
func checkFormat(f string) error {
	_, err := reportWriter(f)
	return err
}

// parseTracks splits a comma-separated list of track words and checks each.
func parseTracks(s string) ([]string, error) {
	words := splitList(s)
	if len(words) == 0 {
		return nil, fmt.Errorf("--tracks is empty: name at least one of %s", strings.Join(runner.TrackWords(), ", "))
	}
	seen := map[string]bool{}
	var out []string
	for _, w := range words {
		if _, ok := runner.LookupTrack(w); !ok {
			return nil, fmt.Errorf("unknown track %q in --tracks: valid tracks are %s", w, strings.Join(runner.TrackWords(), ", "))
		}
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out, nil
}

// parseSeeds parses a comma-separated list of whole numbers; repeats are kept (twin runs).
func parseSeeds(s string) ([]int, error) {
	if len(splitList(s)) == 0 {
		return nil, fmt.Errorf("--seeds is empty: give a comma-separated list of whole numbers such as 1,2,3")
	}
	parts := strings.Split(s, ",")
	seeds := make([]int, 0, len(parts))
	for _, p := range parts {
		p = strings.TrimSpace(p)
		if p == "" {
			return nil, fmt.Errorf("bad --seeds %q: an empty seed between commas; give a comma-separated list such as 1,2,3", s)
		}
		n, err := strconv.Atoi(p)
		if err != nil {
			return nil, fmt.Errorf("bad --seeds %q: %q is not a whole number; give a comma-separated list such as 1,2,3", s, p)
		}
		if n < 0 {
			return nil, fmt.Errorf("bad --seeds %q: %d is negative; seeds are 0 or more (servers take -1 as \"pick a random seed\", which no run can repeat)", s, n)
		}
		seeds = append(seeds, n)
	}
	return seeds, nil
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

// safeName makes a model name usable in a folder name.
func safeName(m string) string {
	return strings.NewReplacer(":", "-", "/", "-", "\\", "-", " ", "-").Replace(m)
}

// taskRefs names the tasks with their checksums, for run.json.
func taskRefs(ts []tasks.Task) ([]record.TaskRef, error) {
	refs := make([]record.TaskRef, 0, len(ts))
	for _, t := range ts {
		sum, err := t.Checksum()
		if err != nil {
			return nil, fmt.Errorf("checksumming task %s: %w", t.Name, err)
		}
		refs = append(refs, record.TaskRef{Name: t.Name, Checksum: sum})
	}
	return refs, nil
}

// needsModel reports whether any of the tracks calls the model.
func needsModel(tracks []string) bool { return slices.ContainsFunc(tracks, runner.NeedsModel) }

// serverHelp is the paragraph printed when the preflight finds no usable
// model server.
func serverHelp(modelName string) string {
	return "bench run needs a model server and could not use one (see the checks above); nothing was created or changed.\n" +
		"Start Ollama with \"ollama serve\" and fetch the model with \"ollama pull " + modelName + "\",\n" +
		"or point bench at another server with --host URL or the OLLAMA_HOST variable,\n" +
		"or at an OpenAI-compatible one (mlx_lm.server, llama.cpp, vLLM) with --backend openai --host URL.\n" +
		"A run with --tracks oracle needs no server."
}

// resumeHelp is serverHelp for --resume, which keeps the run's backend and
// model but may be pointed at the server's new address.
func resumeHelp(s runSetup) string {
	return fmt.Sprintf("bench run --resume needs the run's model server and could not use it (see the checks above); %s is unchanged.\n"+
		"Start the %s server with %s on it, or, if the server has moved, add --host URL.", s.dir, s.mcfg.Backend, s.mcfg.Model)
}

// checkReady runs the doctor's checks; on failure it prints them, and the
// server help when a server check failed. Nothing has been created yet.
func checkReady(ctx context.Context, errw io.Writer, s runSetup) bool {
	need := needs{model: needsModel(s.run.Tracks), tools: slices.ContainsFunc(s.run.Tracks, runner.UsesTools)}
	lines, ok := preflight(ctx, s.mcfg, need, s.tasks)
	if ok {
		return true
	}
	serverFailed := false
	for _, l := range lines {
		fmt.Fprintln(errw, l)
		if !l.OK && l.Name != checkPython && l.Name != checkTasks {
			serverFailed = true
		}
	}
	if serverFailed {
		if s.resume {
			fmt.Fprintln(errw, resumeHelp(s))
		} else {
			fmt.Fprintln(errw, serverHelp(s.mcfg.Model))
		}
	} else {
		fmt.Fprintln(errw, "bench run stopped before creating anything: the checks above failed.")
	}
	return false
}

// connect makes the model client when a track needs one and records the
// model's digest in the run.
func connect(ctx context.Context, s *runSetup) (model.Chatter, error) {
	if !needsModel(s.run.Tracks) {
		return nil, nil
	}
	client, err := model.New(s.mcfg)
	if err != nil {
		return nil, err
	}
	info, err := client.Inspect(ctx)
	if err != nil {
		return nil, fmt.Errorf("asking the server about %s: %w", s.mcfg.Model, err)
	}
	if s.resume && s.run.ModelDigest != "" && info.Digest != "" && info.Digest != s.run.ModelDigest {
		return nil, fmt.Errorf("cannot resume %s: the server's %s is now %s, the run started with %s", s.dir, s.run.Model, info.Digest, s.run.ModelDigest)
	}
	if !s.resume {
		s.run.ModelDigest = info.Digest
	}
	return client, nil
}

// openResults creates the results folder, or reopens it on resume and
// returns the episodes it already holds.
func openResults(s *runSetup) (*record.Writer, []record.Episode, error) {
	if !s.resume {
		w, err := record.Create(s.dir, s.run)
		return w, nil, err
	}
	w, data, err := record.Resume(s.dir)
	if err != nil {
		return nil, nil, fmt.Errorf("cannot resume %s: %w", s.dir, err)
	}
	return w, data.Episodes, nil
}

// execute runs the pending episodes, then prints the report.
func execute(ctx context.Context, c *cli.Context, s runSetup, client model.Chatter, w *record.Writer, done []record.Episode) error {
	// Progress goes to stderr so that `bench run > report.txt` keeps only the report.
	out := c.App.ErrWriter
	plan := runner.Plan(s.tasks, s.run.Tracks, s.run.Seeds)
	pending := runner.Pending(plan, done)
	cfg := runner.Config{
		RunID: s.run.ID, Model: client,
		Options:  model.Options{Temperature: s.run.Temperature, NumCtx: s.run.NumCtx, TopP: s.run.TopP, Think: s.run.Think, MaxReplyTokens: s.run.MaxTokens},
		MaxTurns: s.run.MaxTurns, TokenLimit: s.run.TokenLimit, Tries: s.run.Tries,
		Posture: s.run.Posture, Keep: s.keep, Tracks: runner.Tracks(),
	}
	fmt.Fprintf(out, "bench run: %s (%s × %s × %s) into %s", words.Plural(len(plan), "episode"), words.Plural(len(s.tasks), "task"), words.Plural(len(s.run.Tracks), "track"), words.Plural(len(s.run.Seeds), "seed"), s.dir)
	if skipped := len(plan) - len(pending); skipped > 0 {
		fmt.Fprintf(out, "; %d already finished", skipped)
	}
	fmt.Fprintln(out)
	if s.keep {
		fmt.Fprintf(out, "workspaces are kept under %s (bench-<task>-*); each trajectory's end event names its own\n", os.TempDir())
	}
	prog := newProgress(out, len(plan), len(plan)-len(pending), passedCount(plan, done))
	runErr := runner.Run(ctx, cfg, runner.WriterSink{W: w}, pending, s.run.Parallel, prog.episode)
	prog.finish()
	if err := w.Close(); err != nil && runErr == nil {
		runErr = err
	}
	if runErr != nil {
		return runErr
	}
	if ctx.Err() != nil {
		fmt.Fprintf(c.App.ErrWriter, "interrupted: %d of %d episodes are recorded in %s (episodes cut short are marked interrupted and will be redone).\nResume with: bench run --resume %s\n", prog.done, len(plan), s.dir, s.dir)
		return cli.Exit("", 130)
	}
	return printReport(c, s.dir, s.format)
}

// passedCount counts the passes among the already finished episodes of plan.
func passedCount(plan []runner.Job, done []record.Episode) int {
	inPlan := map[string]bool{}
	for _, j := range plan {
		inPlan[j.Key()] = true
	}
	n := 0
	for _, ep := range done {
		if ep.Passed && inPlan[ep.Key()] && ep.ExitReason != record.ExitInterrupted {
			n++
		}
	}
	return n
}

// exitNow ends the process on a second interrupt; tests replace it.
var exitNow = os.Exit

// interruptContext returns a context cancelled by the first SIGINT or
// SIGTERM; a second one exits at once.
func interruptContext(parent context.Context, errw io.Writer) (context.Context, func()) {
	ctx, cancel := context.WithCancel(parent)
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	finished := make(chan struct{})
	go func() {
		select {
		case <-sig:
		case <-finished:
			return
		}
		fmt.Fprintln(errw, "\ninterrupt: no new episodes; stopping the running ones (press Ctrl-C again to quit at once)")
		cancel()
		select {
		case <-sig:
			fmt.Fprintln(errw, "second interrupt: quitting now")
			testrun.KillAll()
			exitNow(130)
		case <-finished:
		}
	}()
	return ctx, func() {
		signal.Stop(sig)
		close(finished)
		cancel()
	}
}
