package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"bench/report"
)

func compareCommand() *cli.Command {
	return &cli.Command{
		Name:      "compare",
		Usage:     "compare two runs: the change in pass rate and in median tokens per task and track, and whether it is more than noise",
		ArgsUsage: "OLD NEW [--format text|markdown|csv|json] [--alpha 0.05]",
		Description: "Pass rates are compared with Fisher's exact test, token counts with the Mann-Whitney U test (exact,\n" +
			"ties included, up to 60 episodes in all). As in benchstat, a change that is not significant at --alpha prints\n" +
			"as \"~\"; the p-value and the sample sizes (n=old+new) are always shown, and a footnote says, for pass rate\n" +
			"and tokens each, when n is too small for any change to be significant. Episodes count as in bench report\n" +
			"(lost and interrupted ones not at all); with several models each row is of one, named; a difference in\n" +
			"the runs' settings is noted.\n\n" +
			"Example:\n" +
			"  bench compare results/lesson results/posture-on",
		Flags: []cli.Flag{
			formatFlag("text", "markdown", "csv", "json"),
			&cli.Float64Flag{Name: "alpha", Value: report.Alpha, Usage: "significance level: a change with p below it is shown, else \"~\""},
		},
		Action: func(c *cli.Context) error {
			dirs, err := argsWithTrailingFlags(c)
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
			write, err := compareWriter(c.String("format"))
			if err != nil {
				return err
			}
			old, err := readAggregate(dirs[:1])
			if err != nil {
				return err
			}
			new, err := readAggregate(dirs[1:])
			if err != nil {
				return err
			}
			cmp := report.Compare(old, new, alpha)
			if len(cmp.Deltas) == 0 {
				return fmt.Errorf("no task and track appears in both %s and %s: nothing to compare (bench report lists what each holds)", dirs[0], dirs[1])
			}
			onlyOld, onlyNew := report.Unmatched(old, new)
			if len(onlyOld) > 0 {
				fmt.Fprintf(c.App.ErrWriter, "not compared, only in %s: %s\n", dirs[0], strings.Join(onlyOld, ", "))
			}
			if len(onlyNew) > 0 {
				fmt.Fprintf(c.App.ErrWriter, "not compared, only in %s: %s\n", dirs[1], strings.Join(onlyNew, ", "))
			}
			return write(c.App.Writer, cmp)
		},
	}
}

// compareWriter returns the renderer of a compare --format value.
func compareWriter(format string) (func(io.Writer, report.Comparison) error, error) {
	switch strings.ToLower(strings.TrimSpace(format)) {
	case "text":
		return report.WriteCompareText, nil
	case "markdown", "md":
		return report.WriteCompareMarkdown, nil
	case "csv":
		return report.WriteCompareCSV, nil
	case "json":
		return report.WriteCompareJSON, nil
	}
	return nil, usagef("unknown --format %q: want one of %s", format, strings.Join(reportFormats, ", "))
}
