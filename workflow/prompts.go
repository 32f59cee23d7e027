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

// fixPrompt is the one request of the workflow and the first of workflow-retry.
func fixPrompt(t tasks.Task, testOutput, source string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Task: %s\n\n", strings.TrimSpace(t.Instruction))
	fmt.Fprintf(&b, "The tests (%s) fail with this output:\n\n%s\n\n", strings.Join(t.TestCmd, " "), fenced(testOutput))
	fmt.Fprintf(&b, "The file to fix is %s:\n\n%s\n\n", t.Source, fenced(source))
	fmt.Fprintf(&b, "Reply with the line \"FILE: %s\" and then one code block with the complete corrected file.", t.Source)
	return b.String()
}

// rejectPrompt asks again after a reply that broke the format; nothing was written.
func rejectPrompt(source, problem string) string {
	return fmt.Sprintf("Your reply was not used and nothing was written: %s.\n"+
		"Reply again with the line \"FILE: %s\" and then exactly one code block with the complete corrected file.", problem, source)
}

// againPrompt carries the test output after a written fix that did not pass.
func againPrompt(source, testOutput string) string {
	return fmt.Sprintf("Your file was written, but the tests still fail:\n\n%s\n\n"+
		"Reply again with the line \"FILE: %s\" and then one code block with the complete corrected file.", fenced(testOutput), source)
}

// fenced wraps text in a code fence longer than any fence inside it.
func fenced(text string) string {
	fence := "```"
	for strings.Contains(text, fence) {
		fence += "`"
	}
	return fence + "\n" + strings.TrimRight(text, "\n") + "\n" + fence
}
