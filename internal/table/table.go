// Package table writes a table in the one style every bench command uses:
// aligned left-justified columns under a header line for text, a pipe table
// for Markdown, RFC 4180 for CSV, and a list of objects keyed by the header
// for JSON.
package table

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"

	"bench/internal/inert"
)

// The formats Write knows.
const (
	Text     = "text"
	Markdown = "markdown"
	CSV      = "csv"
	JSON     = "json"
)

// HTML is the format of bench report's page, which package report/html
// writes; the other commands take the formats above.
const HTML = "html"

// Formats lists the formats Write knows, in the order help texts name them.
var Formats = []string{Text, Markdown, CSV, JSON}

// Normalize is a --format value as the commands read it: trimmed, lower
// case, "md" read as Markdown.
func Normalize(format string) string {
	f := strings.ToLower(strings.TrimSpace(format))
	if f == "md" {
		return Markdown
	}
	return f
}

// Write writes header and rows to w in format (one of Formats). Every
// cell is made inert first (package inert): a control character shows as
// an escape, in Markdown HTML as entities, so that a cell holding a
// model's bytes cannot repaint a terminal or bring markup into a page.
func Write(w io.Writer, format string, header []string, rows [][]string) error {
	switch format {
	case Text, "":
		return writeTablewriter(w, textRenderer(), header, rows, inert.Line)
	case Markdown:
		return writeTablewriter(w, renderer.NewMarkdown(), header, rows, func(s string) string { return strings.ReplaceAll(inert.Markdown(s), "|", `\|`) })
	case CSV:
		cw := csv.NewWriter(w)
		if err := cw.Write(mapCells(header, inert.Line)); err != nil {
			return err
		}
		for _, row := range rows {
			if err := cw.Write(mapCells(row, inert.Line)); err != nil {
				return err
			}
		}
		cw.Flush()
		return cw.Error()
	case JSON:
		return writeJSON(w, header, rows)
	}
	return fmt.Errorf("table: unknown format %q: want one of %s", format, strings.Join(Formats, ", "))
}

// textRenderer draws no borders and no column separators, only a line under the header.
func textRenderer() tw.Renderer {
	return renderer.NewBlueprint(tw.Rendition{
		Borders:  tw.BorderNone,
		Symbols:  tw.NewSymbols(tw.StyleASCII),
		Settings: tw.Settings{Separators: tw.Separators{BetweenColumns: tw.Off, BetweenRows: tw.Off}, Lines: tw.Lines{ShowHeaderLine: tw.On}},
	})
}

// writeTablewriter renders with r, each cell passed through escape when it
// is not nil, and drops the padding of the last column.
func writeTablewriter(w io.Writer, r tw.Renderer, header []string, rows [][]string, escape func(string) string) error {
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
	for line := range bytes.Lines(buf.Bytes()) {
		if _, err := w.Write(append(bytes.TrimRight(line, " \n"), '\n')); err != nil {
			return err
		}
	}
	return nil
}

// writeJSON writes the rows as objects whose keys are the header cells in
// lower case, spaces as underscores, in header order.
func writeJSON(w io.Writer, header []string, rows [][]string) error {
	keys := make([]string, len(header))
	for i, h := range header {
		keys[i] = strings.ReplaceAll(strings.ToLower(strings.TrimSpace(h)), " ", "_")
	}
	var b bytes.Buffer
	b.WriteString("[")
	for i, row := range rows {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n  {")
		for j, k := range keys {
			if j > 0 {
				b.WriteString(", ")
			}
			kj, _ := json.Marshal(k)
			cell := ""
			if j < len(row) {
				cell = row[j]
			}
			vj, _ := json.Marshal(cell)
			b.Write(kj)
			b.WriteString(": ")
			b.Write(vj)
		}
		b.WriteString("}")
	}
	if len(rows) > 0 {
		b.WriteString("\n")
	}
	b.WriteString("]\n")
	_, err := w.Write(b.Bytes())
	return err
}

func mapCells(row []string, f func(string) string) []string {
	if f == nil {
		return row
	}
	out := make([]string, len(row))
	for i, c := range row {
		out[i] = f(c)
	}
	return out
}
