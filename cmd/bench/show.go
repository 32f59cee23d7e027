package main

import (
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"bench/cause"
	"bench/internal/table"
	"bench/record"
	"bench/report/output"
	"bench/report/transcript"
	"bench/runner"
)

func showCommand() *cli.Command {
	return &cli.Command{
		Name:      "show",
		Usage:     "show one episode's trajectory as a readable transcript, or where two twin episodes diverge",
		ArgsUsage: "RUN_DIR [--task T] [--track K] [--model M] [--variant V] [--seed S] [--repeat R] [--format text|markdown|json] [--full] | --diff RUN_DIR --task T --track K --seed S [--repeat A,B]",
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
			&cli.StringFlag{Name: "variant", Usage: "the episode's values of the run's dimensions, in a run of a setting given several values: posture=on, or max-turns=5,posture=on"},
			&cli.StringFlag{Name: "seed", Aliases: []string{"seeds"}, Usage: "the episode's seed"},
			&cli.StringFlag{Name: "repeat", Usage: "the twin: 0 for the first use of the seed, k for its k-th repeat; with --diff, two of them: A,B"},
			formatFlag(table.Text, table.Markdown, table.JSON),
			&cli.BoolFlag{Name: "full", Usage: "show long texts (system prompt, files, test output) whole"},
			&cli.BoolFlag{Name: "diff", Usage: "compare two twin episodes step by step"},
		},
		Action: showAction,
	}
}

// showAction reads the run folder and shows one episode, a listing, or a
// diff (transcript.Show).
func showAction(c *cli.Context) error {
	args, err := posArgs(c)
	if err != nil {
		return err
	}
	if len(args) != 1 {
		return usagef("show needs one run folder: bench show RUN_DIR [--task T --track K --seed S] (got %d arguments)", len(args))
	}
	format, err := pickFormat(c, table.Text, table.Markdown, table.JSON)
	if err != nil {
		return err
	}
	data, err := record.Read(args[0])
	if err != nil {
		return output.WithRunsInside(args[0], err)
	}
	req := transcript.Request{Filter: transcript.Filter{Task: c.String("task"), Track: c.String("track"), Model: c.String("model"),
		Variant: record.VariantOfDir(strings.TrimSpace(c.String("variant")))},
		Format: format, Full: c.Bool("full"), Explain: explain}
	if req.Filter.Seed, err = showIntFlag(c, "seed"); err != nil {
		return err
	}
	switch {
	case c.Bool("diff") && format == table.JSON:
		return usagef("show --diff writes text or markdown, not json; without --diff, --format json writes one episode's events")
	case c.Bool("diff"):
		pair, err := showRepeatPair(c.String("repeat"))
		if err != nil {
			return err
		}
		req.Diff = &pair
	default:
		if req.Filter.Repeat, err = showIntFlag(c, "repeat"); err != nil {
			return err
		}
	}
	return transcript.Show(c.App.Writer, c.App.ErrWriter, data, req)
}

// explain is why a failed episode failed, as package cause finds it.
func explain(data record.Data, ep record.Episode) ([]record.Cause, record.CausesHow, string) {
	why := cause.ForEpisode(data, ep)
	return why.Causes, why.How, why.Why
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
func showRepeatPair(s string) ([2]int, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return [2]int{0, 1}, nil
	}
	as, bs, ok := strings.Cut(s, ",")
	a, errA := strconv.Atoi(strings.TrimSpace(as))
	b, errB := strconv.Atoi(strings.TrimSpace(bs))
	if !ok || errA != nil || errB != nil || a == b {
		return [2]int{}, usagef("--repeat %q: with --diff, give two different repeats as A,B (for example 0,1)", s)
	}
	return [2]int{a, b}, nil
}
