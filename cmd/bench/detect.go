package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"bench/detect"
	"bench/internal/table"
	"bench/model/tokens"

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
	switch {
	case c.Bool("guidance"):
		return printGuidance(c.App.Writer)
	case c.IsSet("dir"):
		if format != table.Text && format != table.JSON {
			return usagef("detect --dir prints text or json, not %s", format)
		}
		return detectDir(c, format == table.JSON)
	case c.IsSet("mode") || c.IsSet("platform"):
		return usagef("--mode and --platform apply to --dir DIR; the replay uses each case's own")
	case c.IsSet("expected") && !c.Bool("check"):
		return usagef("--expected is only used with --check")
	}
	lone, err := parseDateRepo()
	if err != nil {
		return err
	}
	results, err := detect.Replay(lone)
	if err != nil {
		return err
	}
	switch {
	case c.Bool("check"):
		return checkReplay(c, results)
	case format == table.JSON:
		return writeDetectJSON(c.App.Writer, struct {
			Cases []detect.CaseResult `json:"cases"`
		}{results})
	}
	return renderReplay(c.App.Writer, results, format)
}

// detectDir prints the decision for --dir.
func detectDir(c *cli.Context, asJSON bool) error {
	if m := c.String("mode"); detect.NormalizeMode(m) == detect.ModeAuto && strings.ToLower(strings.TrimSpace(m)) != detect.ModeAuto {
		return usagef("unknown --mode %q: use auto, focus, on or off", m)
	}
	d, err := detect.Detect(c.String("dir"), c.String("mode"), c.String("platform"))
	if err != nil {
		return err
	}
	if asJSON {
		return writeDetectJSON(c.App.Writer, d)
	}
	tw := tabwriter.NewWriter(c.App.Writer, 0, 0, 2, ' ', 0)
	for _, kv := range [][2]string{
		{"dir", d.Dir}, {"mode", d.Mode}, {"platform", d.Platform},
		{"profile", d.Profile}, {"naive rule", d.NaiveProfile}, {"root", orDash(d.Root)},
		{"guidance", yesOrDash(d.Guidance)}, {"toolset", orDash(strings.Join(d.Toolset, ", "))},
		{"demoted", countOrDash(len(d.Demoted))},
	} {
		fmt.Fprintf(tw, "%s:\t%s\n", kv[0], kv[1])
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if d.Snapshot != "" {
		_, err = fmt.Fprintf(c.App.Writer, "\n%s\n", d.Snapshot)
	}
	return err
}

// checkReplay compares the replay with the expected table.
func checkReplay(c *cli.Context, results []detect.CaseResult) error {
	want, err := expectedTable(c.String("expected"))
	if err != nil {
		return err
	}
	diffs := detect.Check(results, want)
	w := c.App.Writer
	if len(diffs) == 0 {
		_, err := fmt.Fprintf(w, "detect: all %d cases match the expected table\n", len(want))
		return err
	}
	for _, d := range diffs {
		fmt.Fprintln(w, d)
	}
	fmt.Fprintf(c.App.ErrWriter, "detect: %d of %d cases differ from the expected table\n", len(diffs), len(want))
	return cli.Exit("", 1)
}

// expectedTable reads path, or the built-in table when path is "".
func expectedTable(path string) ([]detect.Expectation, error) {
	if path == "" {
		return detect.Expected()
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("--expected %s does not exist; give a JSON file shaped like detect/expected.json, or leave --expected out for the built-in table", path)
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read --expected %s: %w", path, err)
	}
	return detect.ParseExpectations(data, path)
}

// renderReplay prints the lesson's table in format, then (except in CSV,
// which holds the table alone) the cases' names and each snapshot.
func renderReplay(w io.Writer, results []detect.CaseResult, format string) error {
	rows := make([][]string, len(results))
	for i, r := range results {
		rows[i] = []string{strconv.Itoa(r.Case), r.Platform, r.Mode, r.NaiveProfile, r.Profile,
			yesOrDash(r.Guidance), yesOrDash(r.Snapshot != ""), orDash(strings.Join(r.Toolset, ", ")), countOrDash(len(r.Demoted))}
	}
	header := []string{"case", "platform", "mode", "naive rule", "profile", "guidance", "snapshot", "toolset", "demoted"}
	if err := table.Write(w, format, header, rows); err != nil {
		return err
	}
	if format == table.CSV {
		return nil
	}
	fmt.Fprintln(w)
	for _, r := range results {
		fmt.Fprintf(w, "%d. %s\n", r.Case, r.Name)
	}
	for _, r := range results {
		if r.Snapshot != "" {
			fmt.Fprintf(w, "\nCase %d snapshot:\n%s\n", r.Case, r.Snapshot)
		}
	}
	return nil
}

// printGuidance prints the coding guidance and its size.
func printGuidance(w io.Writer) error {
	fmt.Fprintln(w, detect.Guidance)
	fmt.Fprintf(w, "\n%d characters", utf8.RuneCountInString(detect.Guidance))
	for _, enc := range []string{tokens.CL100K, tokens.O200K} {
		counter, err := tokens.New(enc)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, ", %d tokens (%s)", counter.Count(detect.Guidance), enc)
	}
	_, err := fmt.Fprintln(w)
	return err
}

func writeDetectJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func yesOrDash(b bool) string {
	if b {
		return "yes"
	}
	return "–"
}

func orDash(s string) string {
	if s == "" {
		return "–"
	}
	return s
}

func countOrDash(n int) string {
	if n == 0 {
		return "–"
	}
	return strconv.Itoa(n)
}
