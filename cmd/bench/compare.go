package main

import (
	"errors"
	"math"

	"github.com/urfave/cli/v2"

	"bench/report"
	"bench/report/output"
	"bench/report/paired"
)

func compareCommand() *cli.Command {
	return &cli.Command{
		Name:      "compare",
		Usage:     "compare two runs: paired per task and pooled over tasks, and (with --fail-on regression) fail a build on a regression",
		ArgsUsage: "OLD NEW [--format text|markdown|csv|json] [--alpha 0.05] [--effect 0.2] [--fail-on regression [--max-drop 0.1] [--max-token-rise 0.2]]",
		Description: "Episodes of the two runs pair by task, track, seed and repeat, and model when both runs hold the same\n" +
			"models; what differs between the runs (a setting, a model) is what is compared, and the header says which.\n" +
			"A task with pairs is tested on its pairs: the exact McNemar test for pass rates, the Wilcoxon signed-rank\n" +
			"test for tokens; a task without any pair falls back to Fisher's exact test and the Mann-Whitney U test, and\n" +
			"each row names the tests it used. Per track the tasks are pooled: a stratified exact test of pass rates with\n" +
			"the pooled difference and its interval, and the ratio of the token medians with a bootstrap over tasks and\n" +
			"seeds. A result within noise says how many seeds per task would detect its change (or --effect) with 80%\n" +
			"power. As in benchstat a change that is not significant at --alpha prints as \"~\". Episodes count as in\n" +
			"bench report (lost and interrupted ones not at all).\n\n" +
			"With --fail-on regression, compare exits 1 when a pass rate, per task or pooled, fell significantly (Holm-\n" +
			"adjusted) or by more than --max-drop, or tokens rose significantly by more than --max-token-rise; 0\n" +
			"otherwise. Two runs with nothing in common are an error (exit 2). docs/COMPARE.md explains every test and\n" +
			"gives a CI recipe.\n\n" +
			"Examples:\n" +
			"  bench compare results/lesson results/posture-on\n" +
			"  bench compare results/main results/branch --fail-on regression --max-drop 0.1 --format markdown",
		Flags: []cli.Flag{
			formatFlag(output.CompareFormats...),
			&cli.Float64Flag{Name: "alpha", Value: report.Alpha, Usage: "significance level: a change with p below it is shown, else \"~\""},
			&cli.Float64Flag{Name: "effect", Usage: "the change in pass rate (0 to 1) the seeds needed are powered for; default the observed one"},
			&cli.StringFlag{Name: "fail-on", Usage: "\"regression\": exit 1 when the new run regressed (the reasons are printed), 0 otherwise"},
			&cli.Float64Flag{Name: "max-drop", Usage: "with --fail-on: a fall in pass rate of more than this (0 to 1) is a regression, significant or not"},
			&cli.Float64Flag{Name: "max-token-rise", Usage: "with --fail-on: a significant rise of median tokens by more than this share (0.2 = 20%) is a regression"},
		},
		Action: compareAction,
	}
}

// compareAction runs bench compare.
func compareAction(c *cli.Context) error {
	tightGC()
	dirs, err := posArgs(c)
	if err != nil {
		return err
	}
	if len(dirs) != 2 {
		return usagef("compare needs two run folders, OLD and NEW; got %d", len(dirs))
	}
	alpha := c.Float64("alpha")
	if !(alpha > 0 && alpha < 1) {
		return usagef("--alpha %v: the significance level is a number between 0 and 1, for example 0.05", alpha)
	}
	gate, err := gateOptions(c)
	if err != nil {
		return usage(err)
	}
	if _, err := output.CompareWriter(c.String("format")); err != nil {
		return usage(err)
	}
	o := output.CompareOptions{CompareOptions: report.CompareOptions{Alpha: alpha, Effect: c.Float64("effect")}, Gate: gate, Format: c.String("format")}
	decision, err := output.Compare(c.App.Writer, c.App.ErrWriter, dirs[0], dirs[1], o)
	var bad *output.Incomparable
	switch {
	case errors.As(err, &bad):
		return usage(err)
	case err != nil:
		return err
	case decision != nil && decision.Regression:
		return cli.Exit(output.Regressed(dirs[0], dirs[1], *decision), exitFailure)
	}
	return nil
}

// gateOptions reads --fail-on, --max-drop and --max-token-rise (and checks
// --effect): nil without --fail-on; an error, a usage error, for a bad value
// or a limit given without --fail-on.
func gateOptions(c *cli.Context) (*paired.GateOptions, error) {
	if e := c.Float64("effect"); !(e >= 0 && e <= 1) {
		return nil, usagef("--effect %v: the change in pass rate to power for is a number between 0 and 1, for example 0.2", e)
	}
	failOn := c.String("fail-on")
	if failOn == "" {
		for _, name := range []string{"max-drop", "max-token-rise"} {
			if c.IsSet(name) {
				return nil, usagef("--%s is a rule of the gate: give it with --fail-on regression", name)
			}
		}
		return nil, nil
	}
	if failOn != "regression" {
		return nil, usagef("--fail-on %q: the one condition is \"regression\"", failOn)
	}
	var o paired.GateOptions
	if c.IsSet("max-drop") {
		v := c.Float64("max-drop")
		if !(v >= 0 && v <= 1) {
			return nil, usagef("--max-drop %v: a fall in pass rate is a number between 0 and 1, for example 0.1", v)
		}
		o.MaxDrop = &v
	}
	if c.IsSet("max-token-rise") {
		v := c.Float64("max-token-rise")
		if !(v >= 0) || math.IsInf(v, 1) {
			return nil, usagef("--max-token-rise %v: a rise of median tokens is a share of at least 0, for example 0.2 for 20%%", v)
		}
		o.MaxTokenRise = &v
	}
	return &o, nil
}
