package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"bench/report"
)

func compareCommand() *cli.Command {
	return &cli.Command{
		Name:      "compare",
		Usage:     "compare two runs: the change in pass rate and in median tokens per task and track, and whether it is more than noise",
		ArgsUsage: "OLD NEW [--format text|markdown|json]",
		Description: "Pass rates are compared with Fisher's exact test, token counts with the Mann-Whitney U test (exact for\n" +
			"small samples without ties). As in benchstat, a change that is not significant at α = 0.05 prints as \"~\";\n" +
			"the p-value and the sample sizes (n=old+new) are always shown.\n\n" +
			"Example:\n" +
			"  bench compare results/lesson results/posture-on",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "text", Usage: "output format: text, markdown or json"},
		},
		Action: func(c *cli.Context) error {
			dirs, err := argsWithTrailingFlags(c)
			if err != nil {
				return err
			}
			if len(dirs) != 2 {
				return fmt.Errorf("compare needs two run folders, OLD and NEW; got %d", len(dirs))
			}
			old, err := readRuns(dirs[:1])
			if err != nil {
				return err
			}
			new, err := readRuns(dirs[1:])
			if err != nil {
				return err
			}
			deltas := report.Compare(old, new)
			if len(deltas) == 0 {
				return fmt.Errorf("no task and track appears in both %s and %s: nothing to compare (bench report lists what each holds)", dirs[0], dirs[1])
			}
			onlyOld, onlyNew := report.Unmatched(old, new)
			if len(onlyOld) > 0 {
				fmt.Fprintf(c.App.ErrWriter, "not compared, only in %s: %s\n", dirs[0], strings.Join(onlyOld, ", "))
			}
			if len(onlyNew) > 0 {
				fmt.Fprintf(c.App.ErrWriter, "not compared, only in %s: %s\n", dirs[1], strings.Join(onlyNew, ", "))
			}
			w := c.App.Writer
			switch f := strings.ToLower(strings.TrimSpace(c.String("format"))); f {
			case "text":
				return report.WriteCompareText(w, deltas)
			case "markdown", "md":
				return report.WriteCompareMarkdown(w, deltas)
			case "json":
				return report.WriteCompareJSON(w, deltas)
			}
			return fmt.Errorf("unknown --format %q: want one of text, markdown, json", c.String("format"))
		},
	}
}
