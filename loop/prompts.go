package loop

import (
	"fmt"
	"strings"

	"bench/tasks"
)

// systemBase is the agent's standing instruction. It is the same for every
// task; the task itself arrives as the first user message.
const systemBase = `You are a careful software engineer working alone in a small repository.
You act only through the tools you are given; every path is relative to the repository root.

How to work:
- Look before you change: list the files, read the code and the tests that matter.
- Run the tests to see the real failure, change the code, then run the tests again.
  A fix is finished only when the tests pass; a new failure after a fix is a new clue, not a dead end.
- Fix the code under test. Do not edit the test files to make them pass.
- Prefer small, exact edits with edit_file; use write_file for a new file or a full rewrite.
- If a tool answers with "error:", read the message, correct the call and go on.

When the tests pass, or when you cannot make progress, stop calling tools and answer with a short summary of what you changed and why.`

// guidanceHeader introduces the coding guidance and workspace snapshot given
// in the coding posture.
const guidanceHeader = "\n\n# Coding guidance\n\n"

// snapshotHeader introduces the workspace snapshot.
const snapshotHeader = "\n\n# Workspace\n\n"

// systemPrompt builds the system prompt of an episode. It is called once per
// episode; about (a track's words on its added tools) follows the standing
// instruction, and guidance and snapshot are added only in the coding
// posture.
func systemPrompt(about, guidance, snapshot string) string {
	var b strings.Builder
	b.WriteString(systemBase)
	if about != "" {
		b.WriteString("\n\n")
		b.WriteString(about)
	}
	if strings.TrimSpace(guidance) != "" {
		b.WriteString(guidanceHeader)
		b.WriteString(strings.TrimSpace(guidance))
		if strings.TrimSpace(snapshot) != "" {
			b.WriteString(snapshotHeader)
			b.WriteString(strings.TrimSpace(snapshot))
		}
	}
	return b.String()
}

// taskPrompt is the first user message: the task's instruction.
func taskPrompt(t tasks.Task) string {
	return strings.TrimSpace(t.Instruction) + "\n\nThe test command is: " + strings.Join(t.TestCmd, " ")
}

// finalPrompt is sent before the last call, which offers no tools.
const finalPrompt = `You have used all your turns; no more tools can be called.
Answer now, in a few sentences: what you changed, and whether the tests passed the last time you ran them.`

// cutPrompt is sent after a reply without a tool call that the server cut
// off at the reply cap (maxReply tokens; 0 when the cap is the server's own).
func cutPrompt(maxReply int) string {
	limit := "the reply cap"
	if maxReply > 0 {
		limit = fmt.Sprintf("the reply cap of %d tokens", maxReply)
	}
	return "Your last reply was cut off: it reached " + limit + " before it ended, and nothing in it was acted on.\n" +
		"Go on with a shorter reply: call a tool, or give your final answer in a few sentences."
}
