package trackfacts

import "slices"

// AgentTools are the names of the tools the agent track offers, sorted.
// A tool call of another name is the model's invention: views show such a
// name quoted and escaped, never as a tool of bench's.
var AgentTools = []string{"edit_file", "list_files", "read_file", "run_tests", "write_file"}

// KnownTool reports whether name is one of AgentTools.
func KnownTool(name string) bool {
	_, ok := slices.BinarySearch(AgentTools, name)
	return ok
}
