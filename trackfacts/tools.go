package trackfacts

import (
	"slices"

	"bench/internal/inert"
)

// The tools' names, as the model calls them.
const (
	EditFile    = "edit_file"
	ListFiles   = "list_files"
	ReadFile    = "read_file"
	RunTests    = "run_tests"
	WriteFile   = "write_file"
	RunWorkflow = "run_workflow" // the hybrid's
)

// AgentTools are the names of the tools the agent track offers, sorted.
// A tool call of another name is the model's invention: views show such a
// name quoted and escaped, never as a tool of bench's.
var AgentTools = []string{EditFile, ListFiles, ReadFile, RunTests, WriteFile}

// HybridTools are the tools the hybrid track offers beside AgentTools.
var HybridTools = []string{RunWorkflow}

// KnownTool reports whether name is one of AgentTools or HybridTools.
func KnownTool(name string) bool {
	_, ok := slices.BinarySearch(AgentTools, name)
	return ok || slices.Contains(HybridTools, name)
}

// ToolLabel is how views show a tool's name: as it is when the agent
// offers the tool, else quoted with every control character escaped
// ("\x1b[2J…"), so that a made-up name can neither pass for a tool of
// bench's nor act on a terminal.
func ToolLabel(name string) string {
	if KnownTool(name) {
		return name
	}
	return inert.Quote(name)
}
