package workflow

import "bench/tasks"

// Prompts returns the fixed text both workflow tracks send: the standing
// instruction and the shapes of the requests, filled with placeholders. A
// change to any of them changes the run settings, so runs made with
// different prompts are never twins.
func Prompts() string {
	t := tasks.Task{Instruction: "<instruction>", TestCmd: []string{"<test command>"}, Source: "<file>"}
	return systemPrompt + "\n" + fixPrompt(t, "<test output>", "<source>") + "\n" +
		rejectPrompt("<file>", "<problem>") + "\n" + againPrompt("<file>", "<test output>")
}
