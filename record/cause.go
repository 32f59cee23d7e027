package record

import (
	"strconv"
	"strings"
)

// CauseName is one word of the vocabulary of causes: why a failed episode
// failed (package cause derives them). The names are a contract: scripts,
// the report's tables and bench check rely on them; a name is never
// renamed or given another meaning without raising FormatVersion.
type CauseName string

// CausesHow says where the causes an episode's views show come from
// (package cause finds them; show and its JSON say which).
type CausesHow string

// The ways of CausesHow.
const (
	HowRecorded CausesHow = "recorded" // the run recorded them as the episode ended
	HowDerived  CausesHow = "derived"  // a run older than causes: derived now from the trajectory
	HowNone     CausesHow = "none"     // the episode passed, or neither an interrupt nor an error leaves anything to explain
	HowAbsent   CausesHow = "absent"   // they could not be had, saying why
)

// The vocabulary, in rank order (most specific first; see CauseVocabulary).
const (
	CauseLostContent    CauseName = "lost_content"     // the write-back removed definitions the tests need
	CauseMalformedReply CauseName = "malformed_reply"  // no usable code block: the reply was rejected, or prose was written
	CauseNeedsOtherFile CauseName = "needs_other_file" // the fix needed a file the episode never changed
	CauseMaskedFailure  CauseName = "masked_failure"   // after the write, a failure shows that the first run hid
	CauseBrokeTests     CauseName = "broke_tests"      // tests that passed before the write fail after it
	CauseWrongFix       CauseName = "wrong_fix"        // the tests that failed still fail the way they did
	CauseToolErrors     CauseName = "tool_errors"      // the agent's last calls all failed
	CauseCutReply       CauseName = "cut_reply"        // a reply was cut off at the reply cap
	CauseNoChange       CauseName = "no_change"        // nothing was written, or the write left the file as it was
	CauseTimeout        CauseName = "timeout"          // the episode, or grading's test run, ran out of time
	CauseBudget         CauseName = "budget"           // the turn, try or token budget ran out
)

// CauseBlames names what a cause says failed: the task's design (one of
// the lesson's questions), the track's own rule, the model, or the run's
// limits.
type CauseBlames string

// The parties a cause can blame.
const (
	BlamesTask   CauseBlames = "task"   // the task needs more than the track gives: a question of the lesson was "no"
	BlamesTrack  CauseBlames = "track"  // the track's own rule failed the model (the naive fallback's write-back)
	BlamesModel  CauseBlames = "model"  // the model's reply or edits
	BlamesLimits CauseBlames = "limits" // the run's settings: the reply cap, the budgets, the time limits
)

// CauseInfo documents one cause: its name, the lesson's question it
// answers "no" (1, 2 or 3; 0 for none), whom it blames, what it means and
// how it is derived.
type CauseInfo struct {
	Name     CauseName   `json:"name"`
	Question int         `json:"question,omitempty"`
	Blames   CauseBlames `json:"blames"`
	Means    string      `json:"means"`
	Derived  string      `json:"derived"`
}

// ToolErrorRun is how many tool calls in a row, at the end of an episode,
// must have failed for tool_errors.
const ToolErrorRun = 3

// CauseVocabulary is every cause, in rank order, as data; docs/RESULTS.md
// says the same in prose.
var CauseVocabulary = []CauseInfo{
	{CauseLostContent, 0, BlamesTrack,
		"the write-back removed what the original file had and the tests need (a definition, an import, a class)",
		"a written file shrank, and after the write a NameError, ImportError (cannot import name), AttributeError (module has no attribute) or Go \"undefined:\" that the first run did not show names something a line of the original defined and the written file lacks; the evidence names those lines and says whether the naive fallback wrote the file"},
	{CauseMalformedReply, 0, BlamesModel,
		"no usable code block: the reply was rejected, or prose was written as the file",
		"a reject event with no write after it, or a workflow write of a reply holding no code block (the naive fallback wrote the whole reply, or the FILE: line had no block after it)"},
	{CauseNeedsOtherFile, 3, BlamesTask,
		"the fix needed a file the episode never changed (for the workflows: a file they did not send)",
		"a failing test's innermost traceback frame, panic frame or Go compile error is in a repository file other than the task's source and its tests; or the failing test's module imports repository modules but not the source; or a passing episode of the same task (a witness) wrote such a file; in each case a file this episode did not write"},
	{CauseMaskedFailure, 1, BlamesTask,
		"after the write a test fails in a way the first run did not show: the first failure did not point at every line that must change",
		"a test that failed before the first write (or could not run: an import error, a build failure, a panic that ended the binary) fails after the last one at another place, with a failure whose first line the first run's output does not contain, raised by a line that was in the original"},
	{CauseBrokeTests, 2, BlamesTask,
		"tests that passed before the write fail after it: one edit made without seeing its result was not enough",
		"a test passed in the run before the first write and fails at the end"},
	{CauseWrongFix, 0, BlamesModel,
		"the tests that failed still fail the way they did (the message may differ), with no new failure",
		"a changed file; the failing tests failed before and still fail at the same place, or with a failure the first run already showed, or by a line the write added, or because the write stopped their module importing; no test broke or shows a masked failure (without test output after the write: the tests failing at grading failed before)"},
	{CauseToolErrors, 0, BlamesModel,
		"the agent's last tool calls all failed",
		"the last " + strconv.Itoa(ToolErrorRun) + " tool results, or more, are all errors"},
	{CauseCutReply, 0, BlamesLimits,
		"a reply was cut off at the reply cap (--max-tokens)",
		"a response event with stop reason \"length\" (or the episode's cut_replies); ranked first when a workflow wrote that reply"},
	{CauseNoChange, 0, BlamesModel,
		"nothing was written, or the writes left every file as it was",
		"the model answered, and there is no write or fallback_write event, or the replayed content of every written file equals the original"},
	{CauseTimeout, 0, BlamesLimits,
		"the episode ran past --episode-timeout, or grading's test run past the task's timeout",
		"exit reason timeout, or grading_timed_out"},
	{CauseBudget, 0, BlamesLimits,
		"the turn budget (--max-turns), the tries of workflow-retry (--tries) or the token budget (--token-limit) ran out",
		"exit reason max_turns or token_budget"},
}

// CausesFor returns the causes that are evidence of a "no" to question q
// (1, 2 or 3) of the lesson, in rank order: masked_failure for question
// 1, broke_tests for question 2, needs_other_file for question 3. The
// other causes blame the track, the model or the limits, not the task's
// design.
func CausesFor(q int) []CauseName {
	var out []CauseName
	for _, i := range CauseVocabulary {
		if q != 0 && i.Question == q {
			out = append(out, i.Name)
		}
	}
	return out
}

// LookupCause returns the CauseInfo of a name; ok is false for a name
// outside the vocabulary.
func LookupCause(n CauseName) (CauseInfo, bool) {
	if i := n.Rank(); i < len(CauseVocabulary) {
		return CauseVocabulary[i], true
	}
	return CauseInfo{}, false
}

// Rank is the name's place in CauseVocabulary (lower is more specific),
// or len(CauseVocabulary) for a name outside it.
func (n CauseName) Rank() int {
	for i, v := range CauseVocabulary {
		if v.Name == n {
			return i
		}
	}
	return len(CauseVocabulary)
}

// Cause is one reason an episode failed, with one line of evidence: an
// element of an episode's causes.
type Cause struct {
	Name     CauseName `json:"name"`
	Evidence string    `json:"evidence"` // one line: the test names, the lines lost, the file
	// Tests are the failing tests the cause explains, sorted (for
	// masked_failure, broke_tests, wrong_fix, and for lost_content,
	// needs_other_file and cut_reply when their evidence is a failure).
	Tests []string `json:"tests,omitempty"`
	// File is the file concerned: the file that lost content, the other
	// file a fix needed, the file a cut or malformed reply was written to
	// (a cut_reply without one was never written).
	File string `json:"file,omitempty"`
	// Lost are the lines of the original file the write removed and the
	// tests need (lost_content), as the original has them, trimmed.
	Lost []string `json:"lost,omitempty"`
	// Fallback says the workflow's naive fallback (no FILE: line) made
	// the write (lost_content, malformed_reply).
	Fallback bool `json:"fallback,omitempty"`
}

// String is the cause as one line: "name: evidence".
func (c Cause) String() string {
	return string(c.Name) + ": " + strings.TrimSpace(c.Evidence)
}

// CauseSet is the names of an episode's causes as bits, one per place in
// CauseVocabulary, with CauseOther for a name outside it and
// CausesRecorded when the episode's line holds its causes at all: a
// failed episode of a run that records causes has the bit even when none
// was found; an older run's line, and a pass's, has not.
type CauseSet uint16

// Bits of a CauseSet past the vocabulary's.
const (
	CauseOther     CauseSet = 1 << 14
	CausesRecorded CauseSet = 1 << 15
)

// bit is the CauseSet bit of name n.
func (n CauseName) bit() CauseSet {
	if i := n.Rank(); i < len(CauseVocabulary) {
		return 1 << i
	}
	return CauseOther
}

// CauseSetOf is the set of the names of causes; recorded says whether the
// line holds them (a non-nil list).
func CauseSetOf(causes []Cause, recorded bool) CauseSet {
	var s CauseSet
	if recorded {
		s |= CausesRecorded
	}
	for _, c := range causes {
		s |= c.Name.bit()
	}
	return s
}

// Has reports whether the set holds the cause n.
func (s CauseSet) Has(n CauseName) bool { return s&n.bit() != 0 }

// HasRank reports whether s holds the cause of rank i, CauseVocabulary[i]
// (Has without looking the name up).
func (s CauseSet) HasRank(i int) bool { return i >= 0 && i < len(CauseVocabulary) && s&(1<<i) != 0 }

// Recorded reports whether the line held its causes.
func (s CauseSet) Recorded() bool { return s&CausesRecorded != 0 }
