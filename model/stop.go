package model

import "strings"

// Stop reasons of a reply (Response.DoneReason), the same for every backend:
// Ollama's done_reason and OpenAI's finish_reason are normalised to these.
const (
	StopEnd       = "stop"       // the model ended its reply
	StopLength    = "length"     // the server cut the reply at the reply cap (num_predict / max_tokens) or the context window
	StopToolCalls = "tool_calls" // the model ended its reply with tool calls
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
