package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"bench/internal/words"
	"bench/record"
	"bench/report/transcript"
)

func showCommand() *cli.Command {
	return &cli.Command{
		Name:      "show",
		Usage:     "show one episode's trajectory as a readable transcript, or where two twin episodes diverge",
		ArgsUsage: "RUN_DIR [--task T] [--track K] [--seed S] [--repeat R] [--format text|markdown] [--full] | --diff RUN_DIR --task T --track K --seed S [--repeat A,B]",
		Description: "Renders trajectories/<task>/<track>/seed-<s>[-r<k>].jsonl of a run folder: the outcome, the system prompt\n" +
			"(once), then per turn the model's replies, tool calls, tool results, test runs, writes and rejects, and the\n" +
			"exit reason. Long texts are cut to their first lines unless --full. When the flags do not pick exactly one\n" +
			"episode, the matching episodes are listed instead. --diff lines up twin episodes (the same seed, repeats 0\n" +
			"and 1 unless --repeat A,B) one step per line and marks the first step at which they diverge.\n\n" +
			"Examples:\n" +
			"  bench show results/lesson                       # lists the episodes\n" +
			"  bench show results/lesson --task slugify --track workflow --seed 1\n" +
			"  bench show results/twins --task parse_date --track agent --seed 1 --diff",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "task", Usage: "the episode's task"},
			&cli.StringFlag{Name: "track", Usage: "the episode's track (workflow, workflow-retry, agent, oracle)"},
			&cli.StringFlag{Name: "seed", Usage: "the episode's seed"},
			&cli.StringFlag{Name: "repeat", Usage: "the twin: 0 for the first use of the seed, k for its k-th repeat; with --diff, two of them: A,B"},
			&cli.StringFlag{Name: "format", Value: "text", Usage: "output format: text or markdown"},
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
		return fmt.Errorf("show needs one run folder: bench show RUN_DIR [--task T --track K --seed S] (got %d arguments)", len(args))
	}
	format, err := showFormat(c.String("format"))
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
	f := transcript.Filter{Task: c.String("task"), Track: c.String("track")}
	if f.Seed, err = showIntFlag(c, "seed"); err != nil {
		return err
	}
	if c.Bool("diff") {
		return showDiff(c, data, entries, f, format)
	}
	if f.Repeat, err = showIntFlag(c, "repeat"); err != nil {
		return err
	}
	picked := f.Select(entries)
	if len(picked) != 1 {
		return showList(c.App.Writer, data.Dir, entries, picked, format, "bench show "+data.Dir)
	}
	t, err := transcript.Load(data, picked[0])
	if err != nil {
		return err
	}
	showWarn(c.App.ErrWriter, t.Warnings)
	return transcript.WriteTranscript(c.App.Writer, t, transcript.Options{Format: format, Full: c.Bool("full")})
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
				return fmt.Errorf("show --diff: no episode with repeat %d matches, so there is no twin to compare; a twin is the same seed run twice (bench run --seeds 1,1)", r)
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
		fmt.Fprintf(w, "\nPick one with --task, --track, --seed and --repeat, for example:\n  %s --task %s --track %s --seed %d --repeat %d\n", cmd, e.Task, e.Track, e.Seed, e.Repeat)
	}
	if len(picked) == 0 {
		return fmt.Errorf("no episode in %s matches the flags; its episodes are listed on stdout", dir)
	}
	return nil
}

// showFormat checks a --format value.
func showFormat(s string) (string, error) {
	switch f := strings.ToLower(strings.TrimSpace(s)); f {
	case "text", "":
		return transcript.Text, nil
	case "markdown", "md":
		return transcript.Markdown, nil
	}
	return "", fmt.Errorf("unknown --format %q: want text or markdown", s)
}

// showIntFlag returns the integer value of a flag, or nil when it is not set.
func showIntFlag(c *cli.Context, name string) (*int, error) {
	s := strings.TrimSpace(c.String(name))
	if s == "" {
		return nil, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return nil, fmt.Errorf("--%s %q is not a whole number", name, s)
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
		return 0, 0, fmt.Errorf("--repeat %q: with --diff, give two different repeats as A,B (for example 0,1)", s)
	}
	return a, b, nil
}

// showWarn prints each warning on its own line.
func showWarn(w io.Writer, warnings []string) {
	for _, s := range warnings {
		fmt.Fprintln(w, "warning:", s)
	}
}
