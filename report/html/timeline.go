package html

import (
	"fmt"
	"strings"
	"time"

	"bench/record"
	"bench/report/transcript"
	"bench/trackfacts"
)

// Step kinds: one timeline row each, coloured by kind.
const (
	kindModel    = "model"
	kindTool     = "tool"
	kindTest     = "test"
	kindWrite    = "write"
	kindReject   = "reject"
	kindFallback = "fallback"
)

// kindLabel is a step kind, its name in the legend and its colour.
type kindLabel struct{ Kind, Label, Colour string }

// kindLabels name the step kinds in the legend, with their colours in
// the timeline (chartCSS), from the palette.
var kindLabels = []kindLabel{
	{kindModel, "model call", trackfacts.Blue}, {kindTool, "tool call", trackfacts.Orange}, {kindTest, "test run", trackfacts.BluishGreen},
	{kindWrite, "write", trackfacts.ReddishPurple}, {kindReject, "reject", trackfacts.Vermillion}, {kindFallback, "fallback write", trackfacts.Yellow},
}

// step is one row of an episode's timeline.
type step struct {
	Kind    string
	Turn    int
	Label   string // what kind of step, or the tool's name
	Summary string // one line
	Tokens  int    // the model call's tokens, or an estimate of what the step adds to the context
	TokEst  bool   // Tokens is an estimate
	MS      int64  // time from the step's start to the next step's
	Error   bool   // a tool error or a test run that failed to run
	Within  string // the tool that made the step on the model's behalf (Event.Within: run_workflow), or ""
	Blocks  []block
	TokW    float64 // bar width in percent, by tokens
	TimeW   float64 // bar width in percent, by time

	start time.Time
	tool  *record.Event // the tool call awaiting its result
}

// block is one detail of a step: a titled text, cut to a limit.
type block struct {
	Title string
	Text  string
	Note  string // what was cut, if anything
}

// ending is how an episode's trajectory ends.
type ending struct {
	Exit  record.ExitReason
	Error string
	Tests string // "7/7 passed" when the end event graded, else ""
	Cut   bool   // no end event: the trajectory stops early
}

// timeline turns a trajectory's events into steps and its ending, cutting
// detail texts to limit characters.
func timeline(events []record.Event, limit int) ([]step, ending) {
	b := &builder{limit: limit}
	end := ending{Cut: true}
	for i, ev := range events {
		b.within = ev.Within
		switch ev.Kind {
		case record.EventRequest:
			b.request = &events[i]
		case record.EventResponse:
			b.response(ev)
		case record.EventToolCall:
			b.add(step{Kind: kindTool, Turn: ev.Turn, Label: ev.Tool, start: ev.Time, tool: &events[i],
				Summary: transcript.Step{Reply: record.Message{ToolCalls: []record.ToolCall{{Name: ev.Tool, Arguments: ev.Args}}}}.Compact(),
				Blocks:  []block{b.block("arguments", ev.Args)}})
		case record.EventToolResult:
			b.toolResult(ev, i > 0 && events[i-1].Kind == record.EventTestRun)
		case record.EventTestRun:
			start := ev.Time // the event is recorded when the tests end
			if i > 0 {
				start = events[i-1].Time
			}
			b.testRun(ev, start)
		case record.EventWrite:
			b.add(step{Kind: kindWrite, Turn: ev.Turn, Label: "write", start: ev.Time, Summary: fmt.Sprintf("wrote %s (%d bytes)", ev.Path, ev.Bytes)})
		case record.EventFallbackWrite:
			b.add(step{Kind: kindFallback, Turn: ev.Turn, Label: "fallback write", start: ev.Time,
				Summary: fmt.Sprintf("fallback: wrote %s (%d bytes): %s", ev.Path, ev.Bytes, ev.Reason)})
		case record.EventReject:
			what := "rejected the reply"
			if ev.Path != "" {
				what += " (for " + ev.Path + ")"
			}
			b.add(step{Kind: kindReject, Turn: ev.Turn, Label: "reject", start: ev.Time, Summary: what + ": " + ev.Reason, Error: true})
		case record.EventEnd:
			end = ending{Exit: ev.Exit, Error: ev.Error}
			if ev.TestsTotal > 0 {
				end.Tests = fmt.Sprintf("%d/%d passed", ev.TestsPassed, ev.TestsTotal)
			}
			b.finish(ev.Time)
		}
	}
	if end.Cut && len(events) > 0 {
		b.finish(events[len(events)-1].Time)
	}
	return b.steps, end
}

// builder collects the steps of one trajectory.
type builder struct {
	limit   int
	steps   []step
	request *record.Event // the latest request, until its response
	done    bool
	within  string // the Within of the event being read
}

// block makes a detail block, cut to the builder's limit.
func (b *builder) block(title, text string) block {
	kept, note := cut(text, b.limit)
	return block{Title: title, Text: kept, Note: note}
}

// add appends a step, ending the previous one's time at its start.
func (b *builder) add(s step) {
	s.Within = b.within
	if n := len(b.steps); n > 0 {
		b.steps[n-1].MS = millis(b.steps[n-1].start, s.start)
	}
	b.steps = append(b.steps, s)
}

// finish ends the last step's time at t.
func (b *builder) finish(t time.Time) {
	if n := len(b.steps); n > 0 && !b.done {
		b.steps[n-1].MS = millis(b.steps[n-1].start, t)
	}
	b.done = true
}

// millis is the time from a to b in milliseconds, 0 if b is not after a.
func millis(a, b time.Time) int64 {
	if a.IsZero() || b.IsZero() || !b.After(a) {
		return 0
	}
	return b.Sub(a).Milliseconds()
}

// response adds a model call: what bench sent (the request's new user
// messages) and the reply. It starts at its request.
func (b *builder) response(ev record.Event) {
	s := step{Kind: kindModel, Turn: ev.Turn, Label: "model call", start: ev.Time,
		Tokens: ev.PromptTokens + ev.CompletionTokens}
	if req := b.request; req != nil {
		s.start = req.Time
		if s.Tokens == 0 {
			s.Tokens, s.TokEst = req.EstTokens+ev.EstCompletion, true
		}
		for _, m := range req.Messages {
			if m.Role == record.RoleUser {
				s.Blocks = append(s.Blocks, b.block("bench → model", m.Content))
			}
		}
		if len(req.Tools) == 0 && len(req.Messages) > 0 && req.Messages[0].Role == record.RoleTool {
			s.Blocks = append(s.Blocks, block{Title: "final call without tools", Text: "the turn budget is spent: the model must answer in text"})
		}
	}
	b.request = nil
	head := fmt.Sprintf("%d prompt + %d completion tokens", ev.PromptTokens, ev.CompletionTokens)
	if ev.Retries > 0 {
		head += fmt.Sprintf(", %d retries", ev.Retries)
	}
	if ev.StopReason == record.StopLength {
		head += ", cut at the reply cap"
	}
	if ev.Reply == nil {
		s.Summary = "no reply recorded"
		s.Blocks = append(s.Blocks, block{Title: "model → bench", Text: head})
	} else {
		s.Summary = transcript.Step{Turn: ev.Turn, Reply: *ev.Reply}.Compact()
		text := strings.TrimSpace(ev.Reply.Content)
		if text == "" {
			text = "(no text)"
		}
		s.Blocks = append(s.Blocks, b.block("model → bench ("+head+")", text))
		// The calls' arguments are shown by the tool call steps that follow.
	}
	b.add(s)
}

// toolResult attaches a tool's result to the latest call of that tool
// still waiting for one. After a test run the result repeats its output,
// which is then not shown twice.
func (b *builder) toolResult(ev record.Event, afterTest bool) {
	for i := len(b.steps) - 1; i >= 0; i-- {
		s := &b.steps[i]
		if s.Kind != kindTool || s.tool == nil || s.Label != ev.Tool {
			continue
		}
		s.tool = nil
		s.Tokens, s.TokEst = estTokens(ev.Result), true
		title := "result"
		if ev.IsError {
			title, s.Error = "error", true
		}
		if afterTest { // the test step counts the output's tokens
			s.Tokens = 0
			s.Blocks = append(s.Blocks, block{Title: title, Text: "the test output of the next step (" + lineWords(ev.Result) + ")"})
		} else {
			s.Blocks = append(s.Blocks, b.block(title, ev.Result))
		}
		return
	}
	b.add(step{Kind: kindTool, Turn: ev.Turn, Label: ev.Tool, start: ev.Time, Summary: "result of " + ev.Tool,
		Tokens: estTokens(ev.Result), TokEst: true, Error: ev.IsError, Blocks: []block{b.block("result", ev.Result)}})
}

// testRun adds a test run, which started at start, with its output.
func (b *builder) testRun(ev record.Event, start time.Time) {
	s := step{Kind: kindTest, Turn: ev.Turn, Label: "test run", start: start,
		Summary: fmt.Sprintf("tests %d/%d passed", ev.TestsPassed, ev.TestsTotal),
		Tokens:  estTokens(ev.Output), TokEst: true}
	if ev.Error != "" {
		s.Summary += " (" + ev.Error + ")"
		s.Error = true
	}
	if ev.Output != "" {
		s.Blocks = []block{b.block("output", ev.Output)}
	}
	b.add(s)
}

// estTokens estimates the tokens of a text from its length (four bytes a
// token), as a bar length for steps the backend does not count.
func estTokens(s string) int { return (len(s) + 3) / 4 }

// lineWords words the number of lines of s.
func lineWords(s string) string {
	n := strings.Count(strings.TrimRight(s, "\n"), "\n") + 1
	if s == "" {
		n = 0
	}
	if n == 1 {
		return "1 line"
	}
	return fmt.Sprintf("%d lines", n)
}

// maxLines is the most lines a detail block shows.
const maxLines = 60

// cut shortens text to at most limit characters and maxLines lines, and
// says what was left out.
func cut(text string, limit int) (kept, note string) {
	r := []rune(text)
	cutAt := len(r)
	if limit > 0 && cutAt > limit {
		cutAt = limit
	}
	lines := 0
	for i, c := range r[:cutAt] {
		if c == '\n' {
			lines++
			if lines == maxLines {
				cutAt = i + 1
				break
			}
		}
	}
	if cutAt == len(r) {
		return text, ""
	}
	rest := r[cutAt:]
	return string(r[:cutAt]), fmt.Sprintf("… %d more characters (%s) cut", len(rest), lineWords(string(rest)))
}
