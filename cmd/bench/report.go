package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"bench/internal/words"
	"bench/record"
	"bench/report"
	reporthtml "bench/report/html"
	"bench/report/predict"
)

// reportFormats are the values of `bench report --format`.
var reportFormats = []string{"text", "markdown", "csv", "json", "html"}

func reportCommand() *cli.Command {
	return &cli.Command{
		Name:      "report",
		Usage:     "summarize one or more runs (merged): pass rates with intervals, pass@k, tokens, twins, paired tests",
		ArgsUsage: "DIR... [--format text|markdown|csv|json|html] [--plot FILE.svg] [--predictions FILE] [--effect 0.2]",
		Description: "Reads the run folders (run.json and episodes.jsonl), merges their episodes and prints, per task and track,\n" +
			"passes out of n with a Wilson 95% interval, pass@k, median tokens and turns, exit reasons; per task the\n" +
			"agent/workflow token ratio and an exact McNemar test (episodes paired within one run); tool sequences\n" +
			"and twin runs. Episodes lost to server errors or interrupted are in no rate (lost and unfinished columns),\n" +
			"and a run that has not finished its plan says so and how to finish it; a line that says passed against its\n" +
			"test counts or its trajectory is inconsistent, a failure; a run given twice (its uid) is counted once; models\n" +
			"are never pooled. Caveats are footnotes. The CSV's columns are fixed, so the CSVs of several runs concatenate.\n" +
			"--plot writes one SVG file with two panels: pass rate per task and track, and median tokens.\n" +
			"--format html writes one self-contained page (charts, tables, every episode as a timeline, twins side by side)\n" +
			"that opens from disk with no server; --predictions adds predicted against observed per task.\n" +
			"A run with a setting as a dimension (bench run --posture off,on) is compared value against value, paired, per\n" +
			"task and pooled over tasks; a result within noise says how many seeds per task would detect its change (or\n" +
			"--effect) with 80% power, as bench compare does.\n\n" +
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
			dirs, err := argsWithTrailingFlags(c)
			if err != nil {
				return err
			}
			if len(dirs) == 0 {
				return usagef("report needs at least one run folder: bench report DIR... (for example results/<run-id>)")
			}
			if c.String("predictions") != "" && !strings.EqualFold(c.String("format"), "html") {
				return usagef("--predictions is shown on the html page; add --format html, or use bench check --predictions %s for a table", c.String("predictions"))
			}
			if e := c.Float64("effect"); !(e >= 0 && e <= 1) {
				return usagef("--effect %v: the change in pass rate to power for is a number between 0 and 1, for example 0.2", e)
			}
			return writeReport(c.App.Writer, dirs, c.String("format"), c.String("plot"), c.String("predictions"), report.Options{Effect: c.Float64("effect")})
		},
	}
}

// printReport prints the report of one run folder, as `bench run` does at
// its end.
func printReport(c *cli.Context, dir, format string) error {
	return writeReport(c.App.Writer, []string{dir}, format, "", "", report.Options{})
}

// writeReport reads and merges the run folders, writes the report in format
// to w, and the SVG plot to plotPath unless it is empty. (Merged runs whose
// configurations differ get a footnote in the report.)
func writeReport(w io.Writer, dirs []string, format, plotPath, predictions string, opts report.Options) error {
	write, err := reportWriter(format)
	if err != nil {
		return err
	}
	if plotPath != "" {
		if !strings.EqualFold(filepath.Ext(plotPath), ".svg") {
			return usagef("--plot %s: the plot is an SVG file; give a name ending in .svg", plotPath)
		}
		if err := checkOutFile("--plot", plotPath); err != nil {
			return err
		}
	}
	rep, inputs, err := buildReport(dirs, strings.EqualFold(strings.TrimSpace(format), "html"), opts)
	if err != nil {
		return err
	}
	page := reporthtml.Options{}
	if predictions != "" {
		if page.Predictions, err = loadScore(predictions, rep); err != nil {
			return err
		}
	}
	if err := write(w, rep, inputs, page); err != nil {
		return err
	}
	if plotPath != "" {
		return writePlot(plotPath, rep)
	}
	return nil
}

// buildReport reads the run folders and builds their report. Only the html
// page shows every episode; for the other formats (withRuns false) the
// folders are streamed into an aggregate of a few numbers per episode, and
// the runs returned are nil. Both count through the same aggregate.
func buildReport(dirs []string, withRuns bool, opts report.Options) (*report.Report, []record.Data, error) {
	if withRuns {
		runs, err := readEach(dirs, record.Read)
		if err != nil {
			return nil, nil, err
		}
		return report.FromData(runs).ReportWith(opts), runs, nil
	}
	agg, err := readAggregate(dirs)
	if err != nil {
		return nil, nil, err
	}
	return agg.ReportWith(opts), nil, nil
}

// readAggregate streams the run folders into one aggregate, naming the
// folder at fault (and the runs it holds, for a parent folder).
func readAggregate(dirs []string) (*report.Aggregate, error) {
	agg, err := report.Read(dirs)
	var fe *report.FolderError
	if errors.As(err, &fe) {
		return nil, withRunsInside(fe.Dir, fe.Err)
	}
	return agg, err
}

// checkOutFile checks, before any work, that the file path named by flag
// can be written: its folder exists and the path is not a folder.
func checkOutFile(flag, path string) error {
	if info, err := os.Stat(path); err == nil && info.IsDir() {
		return fmt.Errorf("%s %s is a folder; give a file name", flag, path)
	}
	parent := filepath.Dir(path)
	info, err := os.Stat(parent)
	if err != nil {
		return fmt.Errorf("%s %s: the folder %s does not exist; create it first or give another path", flag, path, parent)
	}
	if !info.IsDir() {
		return fmt.Errorf("%s %s: %s is a file, not a folder", flag, path, parent)
	}
	return nil
}

// renderer writes a report; only the html page reads the runs and options.
type renderer func(io.Writer, *report.Report, []record.Data, reporthtml.Options) error

// plain adapts a renderer that needs only the report.
func plain(f func(io.Writer, *report.Report) error) renderer {
	return func(w io.Writer, rep *report.Report, _ []record.Data, _ reporthtml.Options) error { return f(w, rep) }
}

// reportWriter returns the renderer of a --format value.
func reportWriter(format string) (renderer, error) {
	switch strings.ToLower(strings.TrimSpace(format)) {
	case "text":
		return plain(report.WriteText), nil
	case "markdown", "md":
		return plain(report.WriteMarkdown), nil
	case "csv":
		return plain(report.WriteCSV), nil
	case "json":
		return plain(report.WriteJSON), nil
	case "html":
		return reporthtml.Write, nil
	}
	return nil, usagef("unknown --format %q: want one of %s", format, strings.Join(reportFormats, ", "))
}

// readEach reads each run folder with read (record.Read for whole
// episodes: the page shows each).
func readEach[T any](dirs []string, read func(dir string) (T, error)) ([]T, error) {
	inputs := make([]T, 0, len(dirs))
	for _, dir := range dirs {
		data, err := read(dir)
		if err != nil {
			return nil, withRunsInside(dir, err)
		}
		inputs = append(inputs, data)
	}
	return inputs, nil
}

// withRunsInside adds to a failed read of dir the run folders dir holds,
// for a user who named the parent (`bench report results`).
func withRunsInside(dir string, err error) error {
	if _, statErr := os.Stat(filepath.Join(dir, "run.json")); statErr == nil {
		return err
	}
	runs, _ := filepath.Glob(filepath.Join(dir, "*", "run.json"))
	if len(runs) == 0 {
		return err
	}
	for i, r := range runs {
		runs[i] = filepath.Dir(r)
	}
	return fmt.Errorf("%s is not a run folder, but it holds %s: %s", dir, words.Plural(len(runs), "run folder"), strings.Join(runs, ", "))
}

// writePlot writes the report's SVG plot to path.
func writePlot(path string, rep *report.Report) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("writing the plot: %w", err)
	}
	if err := report.WriteSVG(f, rep); err != nil {
		f.Close()
		return fmt.Errorf("writing the plot %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("writing the plot %s: %w", path, err)
	}
	return nil
}

// loadScore reads a predictions file and scores it against what the
// report counts.
func loadScore(path string, rep *report.Report) (*predict.Score, error) {
	f, err := predict.Load(path)
	if err != nil {
		return nil, err
	}
	score, err := predict.Check(f, rep.Observed())
	if err != nil {
		return nil, err
	}
	return &score, nil
}
