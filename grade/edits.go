package grade

import (
	"slices"
	"strings"
)

// source is a test file's text with its line offsets, for the edits that
// make its sealed copy.
type source struct {
	text  string
	lines []int // byte offset of each line's start; lines[0] is line 1
}

// newSource is text with its lines found, a last newline added when it
// lacks one.
func newSource(text string) *source {
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	s := &source{text: text, lines: []int{0}}
	for i := 0; i < len(text)-1; i++ {
		if text[i] == '\n' {
			s.lines = append(s.lines, i+1)
		}
	}
	return s
}

// at is the offset of line (1-based) and column (bytes); the line after
// the last is the end of the text.
func (s *source) at(line, col int) int {
	if line-1 >= len(s.lines) {
		return len(s.text)
	}
	return s.lines[line-1] + col
}

// indent is the white space that starts line.
func (s *source) indent(line int) string {
	rest := s.text[s.at(line, 0):]
	return rest[:len(rest)-len(strings.TrimLeft(rest, " \t"))]
}

// edit replaces text[from:to].
type edit struct {
	from, to int
	text     string
}

// apply returns text[from:to] with the edits inside it made.
func (s *source) apply(from, to int, edits []edit) string {
	var b strings.Builder
	at := from
	for _, e := range edits {
		if e.from < from || e.to > to || e.from < at {
			continue
		}
		b.WriteString(s.text[at:e.from])
		b.WriteString(e.text)
		at = e.to
	}
	b.WriteString(s.text[at:to])
	return b.String()
}

// within returns the edits between from and to.
func within(edits []edit, from, to int) []edit {
	var out []edit
	for _, e := range edits {
		if e.from >= from && e.to <= to {
			out = append(out, e)
		}
	}
	return out
}

func sortedEdits(edits []edit) []edit {
	slices.SortFunc(edits, func(a, b edit) int { return a.from - b.from })
	return edits
}
