package loop

import (
	"encoding/json"
	"strings"
)

// Prompts returns the fixed text the agent track sends in every episode:
// its standing instruction, its last-call prompt and its tool schemas, in
// the order they are offered. A change to any of them changes the run
// settings, so runs made with different prompts are never twins.
func Prompts() string { return Spec{}.Prompts() }

// Prompts returns the fixed text an agent track built on spec sends, as
// the package's Prompts does for the agent: with spec's words on its
// tools after the standing instruction, and its tools among the schemas.
func (spec Spec) Prompts() string {
	var b strings.Builder
	b.WriteString(systemBase)
	if spec.About != "" {
		b.WriteString("\n\n" + spec.About)
	}
	b.WriteString("\n")
	b.WriteString(guidanceHeader + snapshotHeader)
	b.WriteString(finalPrompt)
	specs, _ := json.Marshal(newRegistry(spec.Tools).specs()) // plain strings and bytes: cannot fail
	b.Write(specs)
	return b.String()
}
