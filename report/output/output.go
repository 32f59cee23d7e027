// Package output holds what the commands that read run folders write: the
// formats of bench report and bench compare and the writer of each, the
// report built from the folders (streamed, or read whole for the page),
// the SVG plot, and the sentences that name a folder at fault. The command
// line only checks its flags and calls it.
package output

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"bench/internal/table"
	"bench/internal/words"
	"bench/record"
	"bench/report"
	"bench/report/figure"
	reporthtml "bench/report/html"
	"bench/report/predict"
)

// ReportFormats are the values of bench report's --format, the first the default.
var ReportFormats = append(slices.Clone(table.Formats), table.HTML)

// CompareFormats are the values of bench compare's --format, the first the default.
var CompareFormats = table.Formats

// renderer writes a report; only the html page reads the runs and options.
type renderer func(io.Writer, *report.Report, []record.Data, reporthtml.Options) error

// plain adapts a renderer that needs only the report.
func plain(f func(io.Writer, *report.Report) error) renderer {
	return func(w io.Writer, rep *report.Report, _ []record.Data, _ reporthtml.Options) error { return f(w, rep) }
}

// reportRenderers are the writers of bench report's formats.
var reportRenderers = map[string]renderer{
	table.Text:     plain(report.WriteText),
	table.Markdown: plain(report.WriteMarkdown),
	table.CSV:      plain(report.WriteCSV),
	table.JSON:     plain(report.WriteJSON),
	table.HTML:     reporthtml.Write,
}

// compareRenderers are the writers of bench compare's formats.
var compareRenderers = map[string]func(io.Writer, report.Comparison) error{
	table.Text:     report.WriteCompareText,
	table.Markdown: report.WriteCompareMarkdown,
	table.CSV:      report.WriteCompareCSV,
	table.JSON:     report.WriteCompareJSON,
}

// CheckReportFormat refuses a bench report --format value it has no writer for.
func CheckReportFormat(format string) error {
	if _, ok := reportRenderers[table.Normalize(format)]; !ok {
		return fmt.Errorf("unknown --format %q: want one of %s", format, strings.Join(ReportFormats, ", "))
	}
	return nil
}

// CompareWriter is the writer of a bench compare --format value.
func CompareWriter(format string) (func(io.Writer, report.Comparison) error, error) {
	if write, ok := compareRenderers[table.Normalize(format)]; ok {
		return write, nil
	}
	return nil, fmt.Errorf("unknown --format %q: want one of %s", format, strings.Join(CompareFormats, ", "))
}

// Options are what bench report writes besides the report in Format: the
// SVG plot to the file Plot, and the predictions file Predictions scored
// on the html page; both optional. Report is what the report itself is
// built with (bench report --effect).
type Options struct {
	Format, Plot, Predictions string
	Report                    report.Options
}

// CheckPlot refuses a --plot that does not name an SVG file.
func CheckPlot(path string) error {
	if !strings.EqualFold(filepath.Ext(path), ".svg") {
		return fmt.Errorf("--plot %s: the plot is an SVG file; give a name ending in .svg", path)
	}
	return nil
}

// WriteReport reads and merges the run folders dirs and writes their
// report to w in o.Format (CheckReportFormat), the plot to o.Plot unless it
// is empty (CheckPlot; its folder is checked before any folder is read).
// Merged runs whose configurations differ get a footnote in the report.
func WriteReport(w io.Writer, dirs []string, o Options) error {
	if err := CheckReportFormat(o.Format); err != nil {
		return err
	}
	if o.Plot != "" {
		if err := CheckPlot(o.Plot); err != nil {
			return err
		}
		if err := CheckOutFile("--plot", o.Plot); err != nil {
			return err
		}
	}
	format := table.Normalize(o.Format)
	rep, inputs, err := build(dirs, format == table.HTML, o.Report)
	if err != nil {
		return err
	}
	page := reporthtml.Options{}
	if o.Predictions != "" {
		if page.Predictions, err = score(o.Predictions, rep); err != nil {
			return err
		}
	}
	if err := reportRenderers[format](w, rep, inputs, page); err != nil {
		return err
	}
	if o.Plot != "" {
		return writePlot(o.Plot, rep)
	}
	return nil
}

// build reads the run folders and builds their report. Only the html page
// shows every episode; for the other formats (withRuns false) the folders
// are streamed into an aggregate of a few numbers per episode, and the
// runs returned are nil. Both count through the same aggregate.
func build(dirs []string, withRuns bool, o report.Options) (*report.Report, []record.Data, error) {
	if !withRuns {
		agg, err := Read(dirs)
		if err != nil {
			return nil, nil, err
		}
		return agg.ReportWith(o), nil, nil
	}
	runs := make([]record.Data, 0, len(dirs))
	for _, dir := range dirs {
		data, err := record.Read(dir)
		if err != nil {
			return nil, nil, WithRunsInside(dir, err)
		}
		runs = append(runs, data)
	}
	return report.FromData(runs).ReportWith(o), runs, nil
}

// Read streams the run folders into one aggregate, naming the folder at
// fault (and the runs it holds, for a parent folder).
func Read(dirs []string) (*report.Aggregate, error) {
	agg, err := report.Read(dirs)
	var fe *report.FolderError
	if errors.As(err, &fe) {
		return nil, WithRunsInside(fe.Dir, fe.Err)
	}
	return agg, err
}

// WithRunsInside adds to a failed read of dir the run folders dir holds,
// for a user who named the parent (`bench report results`).
func WithRunsInside(dir string, err error) error {
	if _, statErr := os.Stat(filepath.Join(dir, record.RunFile)); statErr == nil {
		return err
	}
	runs, _ := filepath.Glob(filepath.Join(dir, "*", record.RunFile))
	if len(runs) == 0 {
		return err
	}
	for i, r := range runs {
		runs[i] = filepath.Dir(r)
	}
	return fmt.Errorf("%s is not a run folder, but it holds %s: %s", dir, words.Plural(len(runs), "run folder"), strings.Join(runs, ", "))
}

// CheckOutFile checks, before any work, that the file path named by flag
// can be written: its folder exists and the path is not a folder.
func CheckOutFile(flag, path string) error {
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

// writePlot writes the report's SVG plot to path.
func writePlot(path string, rep *report.Report) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("writing the plot: %w", err)
	}
	if err := figure.WriteSVG(f, rep); err != nil {
		f.Close()
		return fmt.Errorf("writing the plot %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("writing the plot %s: %w", path, err)
	}
	return nil
}

// score reads a predictions file and scores it against what the report
// counts.
func score(path string, rep *report.Report) (*predict.Score, error) {
	f, err := predict.Load(path)
	if err != nil {
		return nil, err
	}
	s, err := predict.Check(f, rep.Observed())
	if err != nil {
		return nil, err
	}
	return &s, nil
}
