// Package replytext reads a model's reply as the workflows read it: its
// fenced code blocks and its "FILE: <path>" lines, without the reasoning
// that thinking models put first. The workflows take their answer from
// it, and package cause reads a recorded reply through it again to tell
// which of its readings a write took, so that the two cannot disagree.
package replytext

import "strings"

// Reply is a model's reply as the workflows read it.
type Reply struct {
	Text      string   // the reply, its line ends LF, without its leading <think>…</think> spans
	Path      string   // the path of the first FILE: line; "" when there is none
	HasMarker bool     // a line "FILE: <path>" was found
	Blocks    []string // the fenced code blocks, in order, without their fences
	AfterMark []string // the code blocks that follow the first FILE: line
	Rests     []string // for each FILE: line, in order, the trimmed text after it
	Unclosed  bool     // the last code block has no closing fence (a reply cut off)
}

// Rest is the text after the first FILE: line when no code block follows
// it, else "".
func (r Reply) Rest() string {
	if r.HasMarker && len(r.AfterMark) == 0 {
		return r.Rests[0]
	}
	return ""
}

// Parse finds the "FILE: <path>" lines and the fenced code blocks (``` or
// ~~~ fences, three or more, with an optional language tag) of a reply.
// Line ends may be CRLF. The model's reasoning, the <think>…</think> spans
// that reasoning models put at the start of their answer, is dropped
// first: a path or a draft it mentions is not the answer. An unclosed
// <think> is left as it is. A code block whose closing fence never comes
// (the reply was cut off) runs to the end of the reply, as in CommonMark,
// and is marked Unclosed. A FILE: line inside a block is code.
func Parse(text string) Reply {
	r := Reply{Text: stripThinking(strings.ReplaceAll(text, "\r\n", "\n"))}
	lines := strings.Split(r.Text, "\n")
	var block []string
	fence := ""
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
		if p, ok := fileMarker(trim); ok {
			if !r.HasMarker {
				r.HasMarker, r.Path = true, p
			}
			r.Rests = append(r.Rests, strings.TrimSpace(strings.Join(lines[i+1:], "\n"))+"\n")
		}
	}
	if fence != "" { // as in CommonMark, an unclosed block runs to the end
		if n := len(block); n > 0 && block[n-1] == "" {
			block = block[:n-1] // the reply's final line end
		}
		r.addBlock(block)
		r.Unclosed = true
	}
	return r
}

// addBlock adds the lines of one code block.
func (r *Reply) addBlock(lines []string) {
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
