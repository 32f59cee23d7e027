package transcript

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"bench/internal/words"
	"bench/record"
	"bench/trackfacts"
)

// Options control how a transcript is written.
type Options struct {
	Format string // Text (default) or Markdown
	Full   bool   // show long texts whole instead of their first lines
}

// How many lines of each kind of long text a transcript shows, unless Full.
const (
	systemLines = 4
	userLines   = 8
	replyLines  = 8
	argLines    = 6
	resultLines = 6
)

// WriteTranscript writes t as a readable transcript: a header with the
// episode's outcome, the system prompt (once), then each turn's messages,
// tool calls, results, test runs and writes, and the end.
func WriteTranscript(w io.Writer, t Transcript, opt Options) error {
	s, err := newStyle(bufio.NewWriter(w), opt.Format)
	if err != nil {
		return err
	}
	p := &printer{s: s, full: opt.Full, turn: -1}
	p.header(t)
	p.systemPrompt(t.Events)
	for i, ev := range t.Events {
		var prev *record.Event
		if i > 0 {
			prev = &t.Events[i-1]
		}
		p.event(ev, prev)
	}
	if !p.ended {
		s.section("End")
		s.line("no end event: the trajectory stops here (the episode was cut off, or is still running)")
	}
	return s.flush()
}

// printer writes the events of one transcript in order.
type printer struct {
	s         style
	full      bool
	turn      int  // the turn whose section is open; -1 before any
	toolsSeen bool // a request offered tools
	ended     bool
	within    string // the tool whose own steps the last event was (Event.Within), or ""
}

// header writes the title and the episode's outcome.
func (p *printer) header(t Transcript) {
	e := t.Entry
	title := fmt.Sprintf("%s · %s · seed %d", e.Task, e.Track, e.Seed)
	if e.Repeat > 0 {
		title += fmt.Sprintf(" · repeat %d", e.Repeat)
	}
	p.s.title(title)
	p.causes(t)
	run := "run " + p.s.code(t.Run.ID)
	if t.Run.Model != "" {
		run += " · model " + p.s.code(t.Run.Model)
	}
	p.s.line(run + " · trajectory " + p.s.code(filepathSlash(e.Path(""))))
	for _, l := range outcomeLines(e.Episode, e.Verdict) {
		p.s.line(l)
	}
}

// causes writes why the episode failed, cause by cause with its
// evidence, or that its causes are absent and why.
func (p *printer) causes(t Transcript) {
	switch {
	case t.CausesHow == record.HowAbsent:
		p.s.line("why it failed: unknown, " + t.CausesWhy)
	case len(t.Causes) > 0:
		head := "why it failed (most specific first; docs/RESULTS.md lists the causes):"
		if t.CausesHow == record.HowDerived {
			head = "why it failed (derived now from the trajectory: the run is older than recorded causes):"
		}
		p.s.line(head)
		for _, c := range t.Causes {
			p.s.line("  " + p.s.code(string(c.Name)) + " — " + c.Evidence)
		}
	case t.CausesHow == record.HowRecorded || t.CausesHow == record.HowDerived:
		p.s.line("why it failed: no cause found (the trajectory holds no evidence for any rule)")
	}
}

// filepathSlash shows a relative path with forward slashes.
func filepathSlash(p string) string { return strings.ReplaceAll(p, "\\", "/") }

// outcomeLines describes how the episode ended, from episodes.jsonl.
func outcomeLines(ep *record.Episode, v record.Verdict) []string {
	if ep == nil {
		return []string{"outcome: unknown, the episode has no line in episodes.jsonl (it did not finish)"}
	}
	verdict := v.Outcome()
	lines := []string{
		fmt.Sprintf("outcome: %s, %d/%d tests · exit %s · %s, %s, %s",
			verdict, ep.TestsPassed, ep.TestsTotal, ep.ExitReason, words.Plural(ep.Turns, "turn"), words.Plural(ep.ModelCalls, "model call"), words.Plural(len(ep.ToolCalls), "tool call")),
		fmt.Sprintf("tokens: %d prompt + %d completion, as the backend reported (estimated %d + %d)",
			ep.PromptTokens, ep.CompletionTokens, ep.EstPromptTokens, ep.EstCompletionTokens),
	}
	if len(ep.FailedTests) > 0 {
		lines = append(lines, "failed at grading: "+strings.Join(ep.FailedTests, ", "))
	}
	if ep.TestsTampered {
		lines = append(lines, "tests tampered: the track changed a protected test file (grading used the pristine copy)")
	}
	if ep.Error != "" {
		lines = append(lines, "error: "+ep.Error)
	}
	return lines
}

// event writes one event; prev is the event before it, if any.
func (p *printer) event(ev record.Event, prev *record.Event) {
	if ev.Kind != record.EventEnd {
		p.s.nest(0)
		p.openTurn(ev)
	}
	p.enter(ev)
	switch ev.Kind {
	case record.EventRequest:
		p.request(ev)
	case record.EventResponse:
		p.response(ev)
	case record.EventToolCall:
		p.toolCall(ev)
	case record.EventToolResult:
		p.toolResult(ev, prev)
	case record.EventTestRun:
		p.testRun(ev)
	case record.EventWrite:
		p.s.line(fmt.Sprintf("wrote %s (%d bytes)", p.s.code(ev.Path), ev.Bytes))
	case record.EventFallbackWrite:
		p.s.line(fmt.Sprintf("FALLBACK wrote %s (%d bytes): %s", p.s.code(ev.Path), ev.Bytes, ev.Reason))
	case record.EventReject:
		what := "rejected the reply"
		if ev.Path != "" {
			what += " (for " + p.s.code(ev.Path) + ")"
		}
		p.s.line(what + ": " + ev.Reason)
	case record.EventEnd:
		p.end(ev)
	default:
		p.s.line(fmt.Sprintf("(event %d of unknown kind %q)", ev.Seq, ev.Kind))
	}
}

// enter nests the events a tool made on the model's behalf (the hybrid's
// run_workflow: its test runs, its own model call, its write) under the
// call, with a line that says whose steps they are.
func (p *printer) enter(ev record.Event) {
	within := ev.Within
	if ev.Kind == record.EventEnd {
		within = ""
	}
	if within != "" && within != p.within {
		p.s.nest(0)
		p.s.line(fmt.Sprintf("within %s (the tool's own steps, for the model):", p.s.code(trackfacts.ToolLabel(within))))
	}
	p.within = within
	if within != "" {
		p.s.nest(1)
	} else {
		p.s.nest(0)
	}
}

// openTurn starts the section of ev's turn when it changes.
func (p *printer) openTurn(ev record.Event) {
	if ev.Turn == p.turn && p.turn >= 0 {
		return
	}
	p.turn = ev.Turn
	if ev.Turn == 0 {
		p.s.section("Before the first model call")
		return
	}
	p.s.section(fmt.Sprintf("Turn %d", ev.Turn))
}

// systemPrompt writes the first request's system prompt, folded unless
// full: it is sent unchanged with every request of the episode.
func (p *printer) systemPrompt(events []record.Event) {
	for _, ev := range events {
		if ev.Kind != record.EventRequest {
			continue
		}
		for _, m := range ev.Messages {
			if m.Role == record.RoleSystem {
				kept, more := shorten(m.Content, systemLines, p.full)
				p.s.section("System prompt")
				p.s.line(fmt.Sprintf("%s, sent unchanged with every request of the episode:", lines(lineCount(m.Content))))
				p.s.block(kept, moreNote(more))
			}
		}
		return
	}
}

// request writes what bench told the model in a request's new messages.
// The system prompt is shown once, before the turns; assistant and tool
// messages are shown by the response and tool result events instead.
func (p *printer) request(ev record.Event) {
	if len(ev.Tools) > 0 {
		p.toolsSeen = true
	} else if p.toolsSeen {
		p.s.line("final call without tools (the turn budget is spent: the model must answer in text)")
	}
	for _, m := range ev.Messages {
		switch m.Role {
		case record.RoleUser:
			kept, more := shorten(m.Content, userLines, p.full)
			p.s.line("bench → model:")
			p.s.block(kept, moreNote(more))
		}
	}
}

// response writes the model's reply: its text and token counts (its tool
// calls follow as tool_call events).
func (p *printer) response(ev record.Event) {
	head := fmt.Sprintf("model → bench (%d prompt + %d completion tokens", ev.PromptTokens, ev.CompletionTokens)
	if ev.Retries > 0 {
		head += fmt.Sprintf(", %d retries", ev.Retries)
	}
	head += ")"
	if ev.Reply == nil {
		p.s.line(head + ": no reply recorded")
		return
	}
	text := strings.TrimSpace(ev.Reply.Content)
	names := make([]string, len(ev.Reply.ToolCalls))
	for i, c := range ev.Reply.ToolCalls {
		names[i] = trackfacts.ToolLabel(c.Name)
	}
	switch {
	case text == "" && len(names) == 0:
		p.s.line(head + ": an empty reply")
	case text == "":
		p.s.line(head + ": calls " + strings.Join(names, ", "))
	default:
		if len(names) > 0 {
			head += ", then calls " + strings.Join(names, ", ")
		}
		kept, more := shorten(text, replyLines, p.full)
		p.s.line(head + ":")
		p.s.block(kept, moreNote(more))
	}
}

// toolCall writes a call with its arguments; long ones follow as blocks.
func (p *printer) toolCall(ev record.Event) {
	call, long := formatCall(trackfacts.ToolLabel(ev.Tool), ev.Args)
	p.s.line("call " + p.s.code(call))
	for _, a := range long {
		kept, more := shorten(a.text, argLines, p.full)
		p.s.line(fmt.Sprintf("%s (%s, %d bytes):", a.name, lines(lineCount(a.text)), len(a.text)))
		p.s.block(kept, moreNote(more))
	}
}

// toolResult writes what a tool returned to the model. The result of
// run_tests repeats the test run just shown, so only its last line is
// shown, unless full.
func (p *printer) toolResult(ev record.Event, prev *record.Event) {
	label := "result of " + trackfacts.ToolLabel(ev.Tool)
	if ev.IsError {
		label = "ERROR from " + trackfacts.ToolLabel(ev.Tool)
	}
	text := strings.TrimRight(ev.Result, "\n")
	if !p.full && prev != nil && prev.Kind == record.EventTestRun && prev.Turn == ev.Turn && ev.Output == "" {
		last := text
		if i := strings.LastIndex(text, "\n"); i >= 0 {
			last = text[i+1:]
		}
		p.s.line(label + " = the test output above + " + p.s.code(last))
		return
	}
	if !strings.Contains(text, "\n") && len([]rune(text)) <= 2*inlineLimit {
		p.s.line(label + ": " + p.s.code(text))
		return
	}
	kept, more := shorten(text, resultLines, p.full)
	p.s.line(fmt.Sprintf("%s (%s):", label, lines(lineCount(text))))
	p.s.block(kept, moreNote(more))
}

// testRun writes a test run's score and, unless full, the key failure
// lines; with full, the whole normalised output.
func (p *printer) testRun(ev record.Event) {
	head := fmt.Sprintf("tests: %d/%d passed", ev.TestsPassed, ev.TestsTotal)
	if ev.Error != "" {
		head += " (" + ev.Error + ")"
	}
	if p.full && ev.Output != "" {
		p.s.line(head + ", output:")
		p.s.block(ev.Output, "")
		return
	}
	if ev.TestsTotal > 0 && ev.TestsPassed == ev.TestsTotal || ev.Output == "" {
		p.s.line(head)
		return
	}
	p.s.line(head + ":")
	p.s.block(strings.Join(keyFailureLines(ev.Output), "\n"), "")
}

// end writes the episode's exit reason.
func (p *printer) end(ev record.Event) {
	p.ended = true
	p.s.section("End")
	l := "exit: " + string(ev.Exit)
	if ev.TestsTotal > 0 {
		l += fmt.Sprintf(" · graded with the pristine tests: %d/%d passed", ev.TestsPassed, ev.TestsTotal)
	}
	if ev.Error != "" {
		l += " · error: " + ev.Error
	}
	p.s.line(l)
}
