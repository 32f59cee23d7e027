package model

import (
	"strings"

	"bench/record"
)

// Stop reasons of a reply (Response.DoneReason), the same for every backend
// and those a trajectory records: Ollama's done_reason and OpenAI's
// finish_reason are normalised to these.
const (
	StopEnd       = record.StopEnd
	StopLength    = record.StopLength
	StopToolCalls = record.StopToolCalls
)

// stopReason normalises a server's stop reason: case and spaces are
// ignored; "length" stays StopLength even when the cut reply holds tool
// calls; a reply with tool calls that otherwise stopped (Ollama says "stop"),
// OpenAI's older "function_call", and "tool_calls" become StopToolCalls; an
// empty reason (older servers) is StopEnd or StopToolCalls; any other value
// ("content_filter", Ollama's "unload") is kept, lower-cased.
func stopReason(reason string, toolCalls bool) string {
	r := strings.ToLower(strings.TrimSpace(reason))
	switch {
	case r == StopLength:
		return StopLength
	case r == StopToolCalls || r == "function_call":
		return StopToolCalls
	case r != "" && r != StopEnd:
		return r
	case toolCalls:
		return StopToolCalls
	}
	return StopEnd
}
