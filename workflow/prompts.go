package workflow

import (
	"fmt"
	"strings"

	"bench/tasks"
)

// systemPrompt is the standing instruction of both workflow tracks.
const systemPrompt = `You repair bugs in source files. You cannot run anything: you get the failing test output and the file, and you send back the corrected file.

Answer in exactly this shape:
FILE: <path of the file, as given>
followed by one fenced code block holding the complete new content of that file, every line of it, not only the part you changed.`

// SystemPrompt is the standing instruction of a workflow pass: a side
// conversation that runs one (the hybrid's tool) starts with it.
const SystemPrompt = systemPrompt

// fixPrompt is the one request of a workflow pass over file (the workflow's,
// and the first of workflow-retry); a note that is not blank comes before
// the closing instruction.
func fixPrompt(t tasks.Task, file, testOutput, source, note string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Task: %s\n\n", strings.TrimSpace(t.Instruction))
	fmt.Fprintf(&b, "The tests (%s) fail with this output:\n\n%s\n\n", strings.Join(t.TestCmd, " "), Fenced(testOutput))
	fmt.Fprintf(&b, "The file to fix is %s:\n\n%s\n\n", file, Fenced(source))
	if note = strings.TrimSpace(note); note != "" {
		fmt.Fprintf(&b, notePrompt, Fenced(note))
	}
	fmt.Fprintf(&b, "Reply with the line \"FILE: %s\" and then one code block with the complete corrected file.", file)
	return b.String()
}

// notePrompt introduces the note of whoever asked for the pass.
const notePrompt = "The engineer who sent you this file adds a note:\n\n%s\n\n"

// rejectPrompt asks again after a reply that broke the format; nothing was written.
func rejectPrompt(source, problem string) string {
	return fmt.Sprintf("Your reply was not used and nothing was written: %s.\n"+
		"Reply again with the line \"FILE: %s\" and then exactly one code block with the complete corrected file.", problem, source)
}

// againPrompt carries the test output after a written fix that did not pass.
func againPrompt(source, testOutput string) string {
	return fmt.Sprintf("Your file was written, but the tests still fail:\n\n%s\n\n"+
		"Reply again with the line \"FILE: %s\" and then one code block with the complete corrected file.", Fenced(testOutput), source)
}

// Fenced wraps text in a code fence longer than any fence inside it.
func Fenced(text string) string {
	fence := "```"
	for strings.Contains(text, fence) {
		fence += "`"
	}
	return fence + "\n" + strings.TrimRight(text, "\n") + "\n" + fence
}
