package transcript

import (
	"bytes"
	"io"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
)

// writeTable renders a table in format: aligned columns for text, a pipe
// table for Markdown.
func writeTable(w io.Writer, format string, header []string, rows [][]string) error {
	var r tw.Renderer = renderer.NewBlueprint(tw.Rendition{
		Borders:  tw.BorderNone,
		Symbols:  tw.NewSymbols(tw.StyleASCII),
		Settings: tw.Settings{Separators: tw.Separators{BetweenColumns: tw.Off, BetweenRows: tw.Off}, Lines: tw.Lines{ShowHeaderLine: tw.On}},
	})
	escape := func(s string) string { return s }
	if format == Markdown {
		r = renderer.NewMarkdown()
		escape = func(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
	}
	var buf bytes.Buffer
	tbl := tablewriter.NewTable(&buf,
		tablewriter.WithRenderer(r),
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithHeaderAlignment(tw.AlignLeft),
		tablewriter.WithRowAlignment(tw.AlignLeft),
		tablewriter.WithRowAutoWrap(tw.WrapNone),
	)
	tbl.Header(mapCells(header, escape))
	for _, row := range rows {
		if err := tbl.Append(mapCells(row, escape)); err != nil {
			return err
		}
	}
	if err := tbl.Render(); err != nil {
		return err
	}
	for line := range bytes.Lines(buf.Bytes()) { // drop the padding of the last column
		if _, err := w.Write(append(bytes.TrimRight(line, " \n"), '\n')); err != nil {
			return err
		}
	}
	return nil
}

// mapCells applies f to every cell of row, returning a new row.
func mapCells(row []string, f func(string) string) []string {
	out := make([]string, len(row))
	for i, c := range row {
		out[i] = f(c)
	}
	return out
}
