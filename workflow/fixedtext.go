package workflow

import "bench/tasks"

// Prompts returns the fixed text both workflow tracks send: the standing
// instruction and the shapes of the requests, filled with placeholders. A
// change to any of them changes the run settings, so runs made with
// different prompts are never twins.
func Prompts() string {
	t := tasks.Task{Instruction: "<instruction>", TestCmd: []string{"<test command>"}, Source: "<file>"}
	return systemPrompt + "\n" + fixPrompt(t, t.Source, "<test output>", "<source>", "") + "\n" +
		rejectPrompt("<file>", "<problem>") + "\n" + againPrompt("<file>", "<test output>")
}

// PassPrompts returns the fixed text a pass run as a tool sends: the
// standing instruction and the request, with a note, filled with
// placeholders.
func PassPrompts() string {
	t := tasks.Task{Instruction: "<instruction>", TestCmd: []string{"<test command>"}, Source: "<file>"}
	return systemPrompt + "\n" + fixPrompt(t, t.Source, "<test output>", "<source>", "<note>")
}
