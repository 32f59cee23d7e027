package cause

import "bench/record"

// Name is one word of the vocabulary of causes (record.CauseName). The
// names are a contract: scripts, the report's tables and bench check rely
// on them.
type Name = record.CauseName

// The vocabulary, in the order Derive ranks them (most specific first; a
// cut reply that the track wrote is ranked first, see Derive).
const (
	LostContent    = record.CauseLostContent
	MalformedReply = record.CauseMalformedReply
	NeedsOtherFile = record.CauseNeedsOtherFile
	MaskedFailure  = record.CauseMaskedFailure
	BrokeTests     = record.CauseBrokeTests
	WrongFix       = record.CauseWrongFix
	ToolErrors     = record.CauseToolErrors
	CutReply       = record.CauseCutReply
	NoChange       = record.CauseNoChange
	Timeout        = record.CauseTimeout
	Budget         = record.CauseBudget
)

// ToolErrorRun is how many tool calls in a row, at the end of an episode,
// must have failed for tool_errors (record's, whose vocabulary says it).
const ToolErrorRun = record.ToolErrorRun
