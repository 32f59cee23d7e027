package transcript

import (
	"bufio"
	"fmt"
	"strings"

	"bench/internal/inert"
	"bench/internal/table"
)

// style writes the parts of a document in one format.
type style interface {
	title(s string)
	section(s string)
	line(s string)
	// block writes text verbatim (indented in text, fenced in Markdown),
	// then a note such as "… (12 more lines)" if note is not empty.
	block(text, note string)
	// code marks s as code (backticks in Markdown).
	code(s string) string
	// nest sets how deep the next lines and blocks sit under the line
	// before them: 0 at the top, 1 for the steps a tool made on the
	// model's behalf (Event.Within).
	nest(depth int)
	flush() error
}

// newStyle returns the writer of a format.
func newStyle(w *bufio.Writer, format string) (style, error) {
	switch table.Normalize(format) {
	case table.Text, "":
		return &textStyle{w: w}, nil
	case table.Markdown:
		return &mdStyle{w: w}, nil
	}
	return nil, fmt.Errorf("unknown format %q: want %s or %s", format, table.Text, table.Markdown)
}

// textStyle writes plain text for a terminal.
type textStyle struct {
	w       *bufio.Writer
	started bool
	indent  string // before every line and block: "  │ " per level of nest
}

// Every style writes what it is given made inert (package inert): a
// transcript is mostly a model's and the tests' bytes.

func (s *textStyle) title(t string) {
	t = inert.Line(t)
	fmt.Fprintf(s.w, "%s\n%s\n", t, strings.Repeat("=", len([]rune(t))))
	s.started = true
}

func (s *textStyle) section(t string) {
	if s.started {
		s.w.WriteString("\n")
	}
	t = inert.Line(t)
	fmt.Fprintf(s.w, "%s\n%s\n", t, strings.Repeat("-", len([]rune(t))))
	s.started = true
}

func (s *textStyle) line(t string) {
	s.w.WriteString(s.indent + inert.Line(t) + "\n")
	s.started = true
}

func (s *textStyle) block(text, note string) {
	for l := range strings.Lines(inert.Text(strings.TrimRight(text, "\n"))) {
		s.w.WriteString(strings.TrimRight(s.indent+"    "+strings.TrimSuffix(l, "\n"), " ") + "\n")
	}
	if note != "" {
		s.w.WriteString(s.indent + "    " + inert.Line(note) + "\n")
	}
}

func (s *textStyle) nest(depth int) { s.indent = strings.Repeat("  │ ", depth) }

func (s *textStyle) code(t string) string { return t }
func (s *textStyle) flush() error         { return s.w.Flush() }

// mdStyle writes Markdown: headings, list items and fenced blocks.
type mdStyle struct {
	w      *bufio.Writer
	inList bool   // the last thing written was a list item
	indent string // two spaces per level of nest: a nested list item, an indented fence
}

func (s *mdStyle) nest(depth int) { s.indent = strings.Repeat("  ", depth) }

func (s *mdStyle) title(t string) { fmt.Fprintf(s.w, "# %s\n", inert.Markdown(t)) }

func (s *mdStyle) section(t string) {
	fmt.Fprintf(s.w, "\n## %s\n", inert.Markdown(t))
	s.inList = false
}

func (s *mdStyle) line(t string) {
	if !s.inList {
		s.w.WriteString("\n")
	}
	s.w.WriteString(s.indent + "- " + inert.Markdown(t) + "\n")
	s.inList = true
}

// block fences text, which a Markdown reader shows as it is (no markup),
// with its control characters escaped.
func (s *mdStyle) block(text, note string) {
	text = inert.Text(text)
	fence := "```"
	for strings.Contains(text, fence) {
		fence += "`"
	}
	body := strings.TrimRight(text, "\n")
	if s.indent != "" {
		body = s.indent + strings.ReplaceAll(body, "\n", "\n"+s.indent)
	}
	fmt.Fprintf(s.w, "\n%s%s\n%s\n%s%s\n", s.indent, fence, body, s.indent, fence)
	if note != "" {
		fmt.Fprintf(s.w, "\n%s*%s*\n", s.indent, inert.Markdown(note))
	}
	s.inList = false
}

func (s *mdStyle) code(t string) string {
	if t == "" {
		return t
	}
	tick := "`"
	for strings.Contains(t, tick) {
		tick += "`"
	}
	if strings.HasPrefix(t, "`") || strings.HasSuffix(t, "`") {
		return tick + " " + t + " " + tick
	}
	return tick + t + tick
}

func (s *mdStyle) flush() error { return s.w.Flush() }

// shorten keeps the first n lines of text unless full; more is how many
// lines it left out.
func shorten(text string, n int, full bool) (kept string, more int) {
	text = strings.TrimRight(text, "\n")
	lines := strings.Split(text, "\n")
	if full || len(lines) <= n+1 { // never hide a single line
		return text, 0
	}
	return strings.Join(lines[:n], "\n"), len(lines) - n
}

// moreNote words the note under a shortened block.
func moreNote(more int) string {
	if more == 0 {
		return ""
	}
	if more == 1 {
		return "… (1 more line)"
	}
	return fmt.Sprintf("… (%d more lines)", more)
}
