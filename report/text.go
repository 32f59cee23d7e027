package report

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"strings"

	"bench/internal/inert"
	tablefmt "bench/internal/table"
	"bench/internal/words"
	"bench/record"
)

// WriteText renders the report as plain-text tables for a terminal.
func WriteText(w io.Writer, rep *Report) error {
	return writeTextTables(w, introLines(rep), allTables(rep), rep.Footnotes)
}

// WriteMarkdown renders the report as Markdown: headings, pipe tables and
// footnotes.
func WriteMarkdown(w io.Writer, rep *Report) error {
	return writeMarkdownTables(w, "bench report", introLines(rep), allTables(rep), rep.Footnotes)
}

// introLines are the lines before the tables: the runs, and the answer of
// each comparison of settings.
func introLines(rep *Report) []string {
	return append(append(runLines(rep), emptyLine(rep)...), answerLines(rep)...)
}

// allTables are the tables of the text and Markdown formats, the pooled
// answers and the comparisons of settings last.
func allTables(rep *Report) []table {
	return append(append(tables(rep), pooledTables(trackPooled(rep.Pooled))...), variantTables(rep)...)
}

// writeTextTables writes intro lines, titled tables and footnotes as text.
func writeTextTables(w io.Writer, intro []string, ts []table, notes []Footnote) error {
	bw := bufio.NewWriter(w)
	for _, l := range intro {
		fmt.Fprintln(bw, inert.Line(l))
	}
	for i, t := range ts {
		if i > 0 || len(intro) > 0 {
			fmt.Fprintln(bw)
		}
		fmt.Fprintf(bw, "%s\n\n", inert.Line(t.title))
		if err := tablefmt.Write(bw, tablefmt.Text, t.header, t.rows); err != nil {
			return err
		}
	}
	writeFootnotes(bw, notes, "", inert.Line)
	return bw.Flush()
}

// writeMarkdownTables writes a heading, intro bullets, titled tables and
// footnotes as Markdown.
func writeMarkdownTables(w io.Writer, heading string, intro []string, ts []table, notes []Footnote) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# %s\n", inert.Markdown(heading))
	if len(intro) > 0 {
		fmt.Fprintln(bw)
	}
	for _, l := range intro {
		if rest, ok := strings.CutPrefix(l, "  "); ok { // an indented line is the one above's sequel
			fmt.Fprintln(bw, "  - "+inert.Markdown(rest))
		} else {
			fmt.Fprintln(bw, "- "+inert.Markdown(l))
		}
	}
	for _, t := range ts {
		fmt.Fprintf(bw, "\n## %s\n\n", inert.Markdown(t.title))
		if err := tablefmt.Write(bw, tablefmt.Markdown, t.header, t.rows); err != nil {
			return err
		}
	}
	writeFootnotes(bw, notes, "- ", inert.Markdown)
	return bw.Flush()
}

// runLines describes the merged runs, one line each, and under a run
// left unfinished one more that says so and how to finish it.
func runLines(rep *Report) []string {
	var lines []string
	for _, r := range rep.Runs {
		what := strings.TrimSpace(r.Backend + " " + modelsWithDigests(r.Models))
		if r.Model == "" {
			what = "no model"
		}
		line := fmt.Sprintf("run %s: %s, %s, %s", r.Label, what, words.Plural(r.Episodes, "episode"), r.Dir)
		if sb := r.Sandbox; sb != nil {
			line += fmt.Sprintf(", sandbox fs=%s net=%s pid=%s", sb.FS, sb.Net, sb.PID)
		}
		lines = append(lines, line)
		lines = append(lines, replayLines(r)...)
		if r.Unfinished > 0 {
			lines = append(lines, "  "+unfinishedNote(r))
		}
	}
	return lines
}

// modelsWithDigests names each model with its digest: "a (sha256:…), b
// (digest unknown)".
func modelsWithDigests(models []record.ModelRef) string {
	parts := make([]string, len(models))
	for i, m := range models {
		parts[i] = fmt.Sprintf("%s (%s)", m.Name, cmp.Or(m.Digest, "digest unknown"))
	}
	return strings.Join(parts, ", ")
}

// emptyLine says so when the runs hold no finished episode.
func emptyLine(rep *Report) []string {
	if len(rep.Rows) > 0 {
		return nil
	}
	return []string{"no finished episodes yet"}
}

// writeFootnotes writes the footnotes, each line prefixed with bullet and
// its text made inert by escape.
func writeFootnotes(w io.Writer, notes []Footnote, bullet string, escape func(string) string) {
	if len(notes) == 0 {
		return
	}
	fmt.Fprintln(w)
	for _, f := range notes {
		fmt.Fprintf(w, "%s[%d] %s\n", bullet, f.ID, escape(f.Text))
	}
}
