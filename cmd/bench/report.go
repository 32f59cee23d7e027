package main

import (
	"io"
	"os"
	"runtime/debug"

	"github.com/urfave/cli/v2"

	"bench/internal/table"
	"bench/report"
	"bench/report/output"
)

// reportFormats are the values of `bench report --format`.
var reportFormats = output.ReportFormats

func reportCommand() *cli.Command {
	return &cli.Command{
		Name:      "report",
		Usage:     "summarize one or more runs (merged): pass rates with intervals, pass@k, tokens, twins, paired tests",
		ArgsUsage: "DIR... [--format text|markdown|csv|json|html] [--plot FILE.svg] [--predictions FILE]",
		Description: "Reads the run folders (run.json and episodes.jsonl), merges their episodes and prints, per task and track,\n" +
			"passes out of n with a Wilson 95% interval, pass@k, median tokens and turns, exit reasons; per task the\n" +
			"agent/workflow token ratio and an exact McNemar test (episodes paired within one run); tool sequences\n" +
			"and twin runs. Episodes lost to server errors or interrupted are in no rate (lost and unfinished columns),\n" +
			"and a run that has not finished its plan says so and how to finish it; a line that says passed against its\n" +
			"test counts or its trajectory is inconsistent, a failure; a run given twice (its uid) is counted once; models\n" +
			"are never pooled. Caveats are footnotes. The CSV's columns are fixed, so the CSVs of several runs concatenate.\n" +
			"--plot writes one SVG file with two panels: pass rate per task and track, and median tokens.\n" +
			"--format html writes one self-contained page (charts, tables, every episode as a timeline, twins side by side)\n" +
			"that opens from disk with no server; --predictions adds predicted against observed per task.\n\n" +
			"Examples:\n" +
			"  bench report results/lesson\n" +
			"  bench report results/lesson --format markdown --plot lesson.svg > lesson.md\n" +
			"  bench report results/lesson --format html --predictions lesson/predictions.json > lesson/report.html",
		Flags: []cli.Flag{
			formatFlag(reportFormats...),
			&cli.StringFlag{Name: "predictions", Usage: "html: show predictions from `FILE` (written by bench predict) against what happened"},
			&cli.StringFlag{Name: "plot", Usage: "also write an SVG plot (pass rate with Wilson whiskers, median tokens) to `FILE`"},
			&cli.Float64Flag{Name: "effect", Usage: "the change in pass rate (0 to 1) the seeds needed are powered for; default the observed one"},
		},
		Action: func(c *cli.Context) error {
			tightGC()
			dirs, err := posArgs(c)
			if err != nil {
				return err
			}
			if len(dirs) == 0 {
				return usagef("report needs at least one run folder: bench report DIR... (for example results/<run-id>)")
			}
			if c.String("predictions") != "" && table.Normalize(c.String("format")) != table.HTML {
				return usagef("--predictions is shown on the html page; add --format html, or use bench check --predictions %s for a table", c.String("predictions"))
			}
			if e := c.Float64("effect"); !(e >= 0 && e <= 1) {
				return usagef("--effect %v: the change in pass rate to power for is a number between 0 and 1, for example 0.2", e)
			}
			return writeReport(c.App.Writer, dirs, output.Options{Format: c.String("format"), Plot: c.String("plot"), Predictions: c.String("predictions"),
				Report: report.Options{Effect: c.Float64("effect")}})
		},
	}
}

// printReport prints the report of one run folder, as `bench run` does at
// its end.
func printReport(c *cli.Context, dir, format string) error {
	return writeReport(c.App.Writer, []string{dir}, output.Options{Format: format})
}

// writeReport is output.WriteReport, its flags checked first: a format
// it does not write and a plot not named .svg are usage errors.
func writeReport(w io.Writer, dirs []string, o output.Options) error {
	if _, err := reportWriter(o.Format); err != nil {
		return err
	}
	if o.Plot != "" {
		if err := output.CheckPlot(o.Plot); err != nil {
			return usage(err)
		}
	}
	return output.WriteReport(w, dirs, o)
}

// reportWriter checks a --format value of the report (run's checkFormat
// calls it before any work): an unknown one is a usage error.
func reportWriter(format string) (string, error) {
	return table.Normalize(format), usage(output.CheckReportFormat(format))
}

// tightGC has the collector keep the heap within half its live size again
// (GOGC=50) unless GOGC is set. report and compare hold every episode's
// record while they read: at a million episodes the default (100) peaked
// at 422-437 MB, and 50 at 315-324 MB for the same CPU within the noise
// (docs/ARCHITECTURE.md).
func tightGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(50)
	}
}
