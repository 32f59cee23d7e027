package workflow

import (
	"strings"
)

// reply is what the workflow reads from a model's answer.
type reply struct {
	Text      string   // the reply without its <think>…</think> spans
	Path      string   // the path of the FILE: line; "" when there is none
	HasMarker bool     // a line "FILE: <path>" was found
	Blocks    []string // the fenced code blocks, in order, without their fences
	AfterMark []string // the code blocks that follow the FILE: line
	Rest      string   // the text after the FILE: line, when it holds no code block
	Unclosed  bool     // the last code block has no closing fence (a reply cut off)
}

// parseReply finds the first "FILE: <path>" line and the fenced code blocks
// (``` or ~~~ fences, with an optional language tag) of a reply. Line ends
// may be CRLF. The model's reasoning, the <think>…</think> spans that
// reasoning models put at the start of their answer, is dropped first: a
// path or a draft it mentions is not the answer (both the strict and the
// naive path read only what follows it). An unclosed <think> is left as it is. A code
// block whose closing fence never comes (the reply was cut off) runs to the
// end of the reply, as in CommonMark, and is marked Unclosed.
func parseReply(text string) reply {
	r := reply{Text: stripThinking(strings.ReplaceAll(text, "\r\n", "\n"))}
	lines := strings.Split(r.Text, "\n")
	var block []string
	fence := ""
	markLine := -1
	for i, line := range lines {
		trim := strings.TrimSpace(line)
		if fence != "" {
			if strings.HasPrefix(trim, fence) && strings.Trim(trim, fence[:1]) == "" {
				r.addBlock(block)
				fence, block = "", nil
				continue
			}
			block = append(block, line)
			continue
		}
		if f := openingFence(trim); f != "" {
			fence = f
			continue
		}
		if !r.HasMarker {
			if p, ok := fileMarker(trim); ok {
				r.HasMarker, r.Path, markLine = true, p, i
			}
		}
	}
	if fence != "" { // as in CommonMark, an unclosed block runs to the end
		if n := len(block); n > 0 && block[n-1] == "" {
			block = block[:n-1] // the reply's final line end
		}
		r.addBlock(block)
		r.Unclosed = true
	}
	if r.HasMarker && len(r.AfterMark) == 0 {
		r.Rest = strings.TrimSpace(strings.Join(lines[markLine+1:], "\n")) + "\n"
	}
	return r
}

// addBlock adds the lines of one code block.
func (r *reply) addBlock(lines []string) {
	content := strings.Join(lines, "\n") + "\n"
	r.Blocks = append(r.Blocks, content)
	if r.HasMarker {
		r.AfterMark = append(r.AfterMark, content)
	}
}

// openingFence returns the fence that a line opens (``` or ~~~, three or more), or "".
func openingFence(trim string) string {
	for _, c := range []string{"`", "~"} {
		if strings.HasPrefix(trim, c+c+c) {
			n := len(trim) - len(strings.TrimLeft(trim, c))
			return strings.Repeat(c, n)
		}
	}
	return ""
}

// fileMarker reads a line "FILE: <path>", allowing markdown emphasis or a
// code span around the marker or the path.
func fileMarker(trim string) (string, bool) {
	t := strings.Trim(trim, "*_#` ")
	if len(t) < 5 || !strings.EqualFold(t[:5], "FILE:") {
		return "", false
	}
	p := strings.Trim(strings.TrimSpace(t[5:]), "*_`\"' ")
	return p, p != ""
}

// stripThinking removes the closed <think>…</think> spans at the start of
// text, where reasoning models put them. A span further in is left alone:
// it may be part of the code (a parser of such tags, say).
func stripThinking(text string) string {
	for {
		rest := strings.TrimLeft(text, " \t\n")
		if !strings.HasPrefix(rest, "<think>") {
			return text
		}
		n := strings.Index(rest, "</think>")
		if n < 0 {
			return text
		}
		text = strings.TrimLeft(rest[n+len("</think>"):], "\n")
	}
}
