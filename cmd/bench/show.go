package main

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"bench/cause"
	"bench/internal/inert"
	"bench/internal/suggest"
	"bench/internal/words"
	"bench/record"
	"bench/report/transcript"
	"bench/runner"
	"bench/trackfacts"
)

func showCommand() *cli.Command {
	return &cli.Command{
		Name:      "show",
		Usage:     "show one episode's trajectory as a readable transcript, or where two twin episodes diverge",
		ArgsUsage: "RUN_DIR [--task T] [--track K] [--model M] [--seed S] [--repeat R] [--format text|markdown|json] [--full] | --diff RUN_DIR --task T --track K --seed S [--repeat A,B]",
		Description: "Renders trajectories/<task>/<track>[/<model>]/seed-<s>[-r<k>].jsonl of a run folder: the outcome, the system prompt\n" +
			"(once), then per turn the model's replies, tool calls, tool results, test runs, writes and rejects, and the\n" +
			"exit reason. Long texts are cut to their first lines unless --full. When the flags do not pick exactly one\n" +
			"episode, the matching episodes are listed instead. --diff lines up twin episodes (the same seed, repeats 0\n" +
			"and 1 unless --repeat A,B) one step per line and marks the first step at which they diverge. In a run of\n" +
			"several models, --model picks the model's episodes.\n\n" +
			"Examples:\n" +
			"  bench show lesson/run                           # lists the episodes\n" +
			"  bench show lesson/run --task slugify --track workflow --seed 1\n" +
			"  bench show lesson/twins --task parse_date --track agent --seed 1 --diff",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "task", Aliases: []string{"tasks"}, Usage: "the episode's task"},
			&cli.StringFlag{Name: "track", Aliases: []string{"tracks"}, Usage: "the episode's track (" + strings.Join(runner.TrackWords(), ", ") + ")"},
			&cli.StringFlag{Name: "model", Aliases: []string{"models"}, Usage: "the episode's model, in a run of several models"},
			&cli.StringFlag{Name: "seed", Aliases: []string{"seeds"}, Usage: "the episode's seed"},
			&cli.StringFlag{Name: "repeat", Usage: "the twin: 0 for the first use of the seed, k for its k-th repeat; with --diff, two of them: A,B"},
			formatFlag("text", "markdown", "json"),
			&cli.BoolFlag{Name: "full", Usage: "show long texts (system prompt, files, test output) whole"},
			&cli.BoolFlag{Name: "diff", Usage: "compare two twin episodes step by step"},
		},
		Action: showAction,
	}
}

// showAction reads the run folder and shows one episode, a listing, or a diff.
func showAction(c *cli.Context) error {
	args, err := argsWithTrailingFlags(c)
	if err != nil {
		return err
	}
	if len(args) != 1 {
		return usagef("show needs one run folder: bench show RUN_DIR [--task T --track K --seed S] (got %d arguments)", len(args))
	}
	format, err := pickFormat(c, "text", "markdown", "json")
	if err != nil {
		return err
	}
	data, err := record.Read(args[0])
	if err != nil {
		return withRunsInside(args[0], err)
	}
	showWarn(c.App.ErrWriter, data.Warnings)
	entries, err := transcript.Entries(data)
	if err != nil {
		return fmt.Errorf("listing the trajectories of %s: %w", data.Dir, err)
	}
	sortEntries(entries)
	f := transcript.Filter{Task: c.String("task"), Track: c.String("track"), Model: c.String("model")}
	if f.Seed, err = showIntFlag(c, "seed"); err != nil {
		return err
	}
	if c.Bool("diff") {
		if format == "json" {
			return usagef("show --diff writes text or markdown, not json; without --diff, --format json writes one episode's events")
		}
		return showDiff(c, data, entries, f, format)
	}
	if f.Repeat, err = showIntFlag(c, "repeat"); err != nil {
		return err
	}
	picked := f.Select(entries)
	if len(picked) != 1 {
		if format == "json" {
			return showListJSON(c.App.Writer, data.Dir, entries, picked)
		}
		err := showList(c.App.Writer, data.Dir, entries, picked, format, "bench show "+data.Dir)
		if err != nil && len(picked) == 0 {
			err = fmt.Errorf("%w%s", err, nearestEpisode(f, entries))
		}
		return err
	}
	t, err := transcript.Load(data, picked[0])
	if err != nil {
		return err
	}
	showWarn(c.App.ErrWriter, t.Warnings)
	if ep := picked[0].Episode; ep != nil {
		why := cause.ForEpisode(data, *ep)
		t.Causes, t.CausesHow, t.CausesWhy = why.Causes, why.How, why.Why
	}
	if format == "json" {
		return showEpisodeJSON(c.App.Writer, t)
	}
	if err := transcript.WriteTranscript(c.App.Writer, t, transcript.Options{Format: format, Full: c.Bool("full")}); err != nil {
		return err
	}
	if path := keptWorkspace(t.Events); path != "" {
		_, err = fmt.Fprintf(c.App.Writer, "\nThe episode's workspace was kept at %s\n", inert.Line(path))
	}
	return err
}

// nearestEpisode names, for a --task or --track that no episode has, the
// nearest one the run does have, as "; did you mean --task slugify?".
func nearestEpisode(f transcript.Filter, entries []transcript.Entry) string {
	add := func(list []string, v string) []string {
		if v == "" || slices.Contains(list, v) {
			return list
		}
		return append(list, v)
	}
	var taskNames, trackNames, modelNames []string
	for _, e := range entries {
		taskNames, trackNames, modelNames = add(taskNames, e.Task), add(trackNames, e.Track), add(modelNames, e.Model)
	}
	for _, c := range []struct {
		flag, value string
		known       []string
	}{{"--task", f.Task, taskNames}, {"--track", f.Track, trackNames}, {"--model", f.Model, modelNames}} {
		if c.value == "" || slices.Contains(c.known, c.value) {
			continue
		}
		if n := suggest.Nearest(c.value, c.known); n != "" {
			return fmt.Sprintf("; did you mean %s %s?", c.flag, n)
		}
	}
	return ""
}

// keptWorkspace is the path the end event names when the run kept the
// episode's workspace (--keep-workspaces), or "".
func keptWorkspace(events []record.Event) string {
	for i := len(events) - 1; i >= 0; i-- {
		if events[i].Kind == record.EventEnd {
			return events[i].Path
		}
	}
	return ""
}

// sortEntries orders entries as the report does: by task, then track in
// the registry's order (trackfacts'), model, seed and repeat.
func sortEntries(entries []transcript.Entry) {
	slices.SortStableFunc(entries, func(a, b transcript.Entry) int {
		return cmp.Or(cmp.Compare(a.Task, b.Task), trackfacts.Compare(a.Track, b.Track),
			strings.Compare(a.Model, b.Model), cmp.Compare(a.Seed, b.Seed), cmp.Compare(a.Repeat, b.Repeat))
	})
}

// showDiff shows two twins of the episode picked by f side by side.
func showDiff(c *cli.Context, data record.Data, entries []transcript.Entry, f transcript.Filter, format string) error {
	ra, rb, err := showRepeatPair(c.String("repeat"))
	if err != nil {
		return err
	}
	var ts []transcript.Transcript
	for _, r := range []int{ra, rb} {
		g := f
		g.Repeat = &r
		picked := g.Select(entries)
		if len(picked) != 1 {
			f.Repeat = nil
			if err := showList(c.App.Writer, data.Dir, entries, f.Select(entries), format, "bench show --diff "+data.Dir); err != nil {
				return err
			}
			if len(picked) == 0 {
				return noTwin(f, entries, r)
			}
			return fmt.Errorf("show --diff: the flags pick %d episodes with repeat %d; name --task, --track and --seed to pick one pair of twins", len(picked), r)
		}
		t, err := transcript.Load(data, picked[0])
		if err != nil {
			return err
		}
		showWarn(c.App.ErrWriter, t.Warnings)
		ts = append(ts, t)
	}
	return transcript.WriteDiff(c.App.Writer, ts[0], ts[1], format)
}

// noTwin says that the episode f names has no twin with repeat r, and
// which pairs of twins the run does hold, if any.
func noTwin(f transcript.Filter, entries []transcript.Entry, r int) error {
	var twins []string
	for _, e := range entries {
		if e.Repeat == 1 {
			twins = append(twins, fmt.Sprintf("--task %s --track %s --seed %d", e.Task, e.Track, e.Seed))
		}
	}
	msg := fmt.Sprintf("show --diff: the episode has no twin (no episode with repeat %d matches); a twin is the same seed run twice (bench run --seeds 1,1)", r)
	if len(twins) == 0 {
		return fmt.Errorf("%s, and this run holds no twins", msg)
	}
	return fmt.Errorf("%s; this run's twins: %s", msg, strings.Join(twins, "; "))
}

// showList lists the episodes the flags matched (all of them when none
// did) and says how to pick one. No match is an error.
func showList(w io.Writer, dir string, all, picked []transcript.Entry, format, cmd string) error {
	verb := "match"
	if len(picked) == 1 {
		verb = "matches"
	}
	title := fmt.Sprintf("%s in %s %s; pick one", words.Plural(len(picked), "episode"), dir, verb)
	list := picked
	if len(picked) == 0 {
		title, list = fmt.Sprintf("no episode in %s matches; its episodes are", dir), all
	}
	if err := transcript.WriteList(w, title, list, format); err != nil {
		return err
	}
	if len(list) > 0 {
		e := list[len(list)-1]
		flags, model := "--task, --track, --seed and --repeat", ""
		if e.Model != "" {
			flags, model = "--task, --track, --model, --seed and --repeat", " --model "+e.Model
		}
		fmt.Fprintln(w, inert.Text(fmt.Sprintf("\nPick one with %s, for example:\n  %s --task %s --track %s%s --seed %d --repeat %d", flags, cmd, e.Task, e.Track, model, e.Seed, e.Repeat)))
	}
	if len(picked) == 0 {
		return fmt.Errorf("no episode in %s matches the flags; its episodes are listed on stdout", dir)
	}
	return nil
}

// showIntFlag returns the integer value of a flag, or nil when it is not set.
func showIntFlag(c *cli.Context, name string) (*int, error) {
	s := strings.TrimSpace(c.String(name))
	if s == "" {
		return nil, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return nil, usagef("--%s %q is not a whole number", name, s)
	}
	return &n, nil
}

// showRepeatPair reads --diff's --repeat A,B (0,1 when empty).
func showRepeatPair(s string) (int, int, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, 1, nil
	}
	as, bs, ok := strings.Cut(s, ",")
	a, errA := strconv.Atoi(strings.TrimSpace(as))
	b, errB := strconv.Atoi(strings.TrimSpace(bs))
	if !ok || errA != nil || errB != nil || a == b {
		return 0, 0, usagef("--repeat %q: with --diff, give two different repeats as A,B (for example 0,1)", s)
	}
	return a, b, nil
}

// showWarn prints each warning on its own line, made inert (a warning can
// quote the bytes of a line it skipped).
func showWarn(w io.Writer, warnings []string) {
	for _, s := range warnings {
		fmt.Fprintln(w, "warning:", inert.Line(s))
	}
}
