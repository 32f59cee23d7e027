package main

import (
	"fmt"
	"io/fs"

	"bench/detect"
	"bench/internal/cliexit"
	"bench/internal/table"
	"bench/tasks"

	"github.com/urfave/cli/v2"
)

func detectCommand() *cli.Command {
	return &cli.Command{
		Name:  "detect",
		Usage: "replay the coding/general profile detector over the lesson's nine cases, or run it on one directory",
		Description: "Without --dir, builds the nine directory cases of the lesson in fresh temp dirs and prints\n" +
			"the detector's decision and the naive rule's for each, then each workspace snapshot.\n" +
			"--check compares the replay with the expected table and exits 1 on any difference.\n\n" +
			"Examples:\n" +
			"  bench detect\n" +
			"  bench detect --check                            # for CI\n" +
			"  bench detect --dir . --mode auto\n" +
			"  bench detect --guidance",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "dir", Usage: "decide for this one `DIR` instead of replaying the nine cases"},
			&cli.StringFlag{Name: "mode", Value: detect.ModeAuto, Usage: "`MODE` for --dir: auto, focus, on, off (or an alias)"},
			&cli.StringFlag{Name: "platform", Value: "cli", Usage: "`PLATFORM` the session comes from, for --dir"},
			formatFlag(table.Formats...),
			&cli.BoolFlag{Name: "json", Usage: "print the decisions as JSON (the same as --format json)"},
			&cli.BoolFlag{Name: "check", Usage: "compare the replay with the expected table; exit 1 on a difference"},
			&cli.StringFlag{Name: "expected", Usage: "with --check, read the expected table from `FILE` instead of the built-in one"},
			&cli.BoolFlag{Name: "guidance", Usage: "print the coding guidance and its size in characters and tokens"},
		},
		Action: detectAction,
	}
}

func detectAction(c *cli.Context) error {
	if c.NArg() > 0 {
		return usagef("detect takes no arguments (got %q); use --dir DIR for one directory", c.Args().First())
	}
	format, err := pickFormat(c, table.Formats...)
	if err != nil {
		return err
	}
	if c.Bool("json") {
		format = table.JSON
	}
	w := c.App.Writer
	switch {
	case c.Bool("guidance"):
		return detect.WriteGuidance(w)
	case c.IsSet("dir"):
		return detectDir(c, format)
	case c.IsSet("mode") || c.IsSet("platform"):
		return usagef("--mode and --platform apply to --dir DIR; the replay uses each case's own")
	case c.IsSet("expected") && !c.Bool("check"):
		return usagef("--expected is only used with --check")
	}
	lone, err := fs.Sub(tasks.Embedded(), "parse_date/repo") // the lone copy the replay is built from
	if err != nil {
		return err
	}
	results, err := detect.Replay(lone)
	if err != nil {
		return err
	}
	if !c.Bool("check") {
		return detect.WriteReplay(w, results, format)
	}
	differ, expected, err := detect.WriteCheck(w, results, c.String("expected"))
	if err != nil || differ == 0 {
		return err
	}
	fmt.Fprintf(c.App.ErrWriter, "detect: %d of %d cases differ from the expected table\n", differ, expected)
	return cliexit.Silent(exitFailure)
}

// detectDir prints the decision for --dir.
func detectDir(c *cli.Context, format string) error {
	if format != table.Text && format != table.JSON {
		return usagef("detect --dir prints text or json, not %s", format)
	}
	if m := c.String("mode"); !detect.KnownMode(m) {
		return usagef("unknown --mode %q: use auto, focus, on or off", m)
	}
	d, err := detect.Detect(c.String("dir"), c.String("mode"), c.String("platform"))
	if err != nil {
		return err
	}
	if format == table.JSON {
		return detect.WriteJSON(c.App.Writer, d)
	}
	return detect.WriteDecision(c.App.Writer, d)
}
