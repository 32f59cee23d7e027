package cause

// Name is one word of the vocabulary of causes. The names are a contract:
// scripts, the report's tables and bench check rely on them.
type Name string

// The vocabulary, in the order Derive ranks them (most specific first; a
// cut reply that the track wrote is ranked first, see Derive).
const (
	LostContent    Name = "lost_content"     // the write-back removed definitions the tests need
	MalformedReply Name = "malformed_reply"  // no usable code block: the reply was rejected, or prose was written
	NeedsOtherFile Name = "needs_other_file" // the fix needed a file the episode never changed
	MaskedFailure  Name = "masked_failure"   // after the write, a failure shows that the first run hid
	BrokeTests     Name = "broke_tests"      // tests that passed before the write fail after it
	WrongFix       Name = "wrong_fix"        // the tests that failed still fail the way they did
	ToolErrors     Name = "tool_errors"      // the agent's last calls all failed
	CutReply       Name = "cut_reply"        // a reply was cut off at the reply cap
	NoChange       Name = "no_change"        // nothing was written, or the write left the file as it was
	Timeout        Name = "timeout"          // the episode, or grading's test run, ran out of time
	Budget         Name = "budget"           // the turn, try or token budget ran out
)

// Whose names what a cause says failed: the task's design (one of the
// lesson's questions), the track's own rule, the model, or the run's limits.
type Whose string

// The parties a cause can blame.
const (
	BlamesTask   Whose = "task"   // the task needs more than the track gives: a question of the lesson was "no"
	BlamesTrack  Whose = "track"  // the track's own rule failed the model (the naive fallback's write-back)
	BlamesModel  Whose = "model"  // the model's reply or edits
	BlamesLimits Whose = "limits" // the run's settings: the reply cap, the budgets, the time limits
)

// Info documents one cause: its name, the lesson's question it answers
// (1, 2 or 3; 0 for none), whom it blames and how it is derived.
type Info struct {
	Name     Name   `json:"name"`
	Question int    `json:"question,omitempty"`
	Blames   Whose  `json:"blames"`
	Means    string `json:"means"`
	Derived  string `json:"derived"`
}

// Vocabulary is every cause, in rank order, as data: the package
// documentation and docs/RESULTS.md say the same in prose.
var Vocabulary = []Info{
	{LostContent, 0, BlamesTrack,
		"the write-back removed what the original file had and the tests need (a definition, an import, a class)",
		"a written file shrank, and after the write a NameError, ImportError (cannot import name), AttributeError (module has no attribute) or Go \"undefined:\" that the first run did not show names something a line of the original defined and the written file lacks; the evidence names those lines and says whether the naive fallback wrote the file"},
	{MalformedReply, 0, BlamesModel,
		"no usable code block: the reply was rejected, or prose was written as the file",
		"a reject event with no write after it, or a workflow write of a reply holding no code block (the naive fallback wrote the whole reply, or the FILE: line had no block after it)"},
	{NeedsOtherFile, 3, BlamesTask,
		"the fix needed a file the episode never changed (for the workflows: a file they did not send)",
		"a failing test's innermost traceback frame, panic frame or Go compile error is in a repository file other than the task's source and its tests; or the failing test's module imports repository modules but not the source; or a passing episode of the same task (a Witness) wrote such a file; in each case a file this episode did not write"},
	{MaskedFailure, 1, BlamesTask,
		"after the write a test fails in a way the first run did not show: the first failure did not point at every line that must change",
		"a test that failed before the first write (or could not run: an import error, a build failure, a panic that ended the binary) fails after the last one at another place, with a failure whose first line the first run's output does not contain, raised by a line that was in the original"},
	{BrokeTests, 2, BlamesTask,
		"tests that passed before the write fail after it: one edit made without seeing its result was not enough",
		"a test passed in the run before the first write and fails at the end"},
	{WrongFix, 0, BlamesModel,
		"the tests that failed still fail the way they did (the message may differ), with no new failure",
		"a changed file; the failing tests failed before and still fail at the same place, or with a failure the first run already showed, or by a line the write added, or because the write stopped their module importing; no test broke or shows a masked failure (without test output after the write: the tests failing at grading failed before)"},
	{ToolErrors, 0, BlamesModel,
		"the agent's last tool calls all failed",
		"the last ToolErrorRun (3) tool results, or more, are all errors"},
	{CutReply, 0, BlamesLimits,
		"a reply was cut off at the reply cap (--max-tokens)",
		"a response event with stop reason \"length\" (or the episode's cut_replies); ranked first when a workflow wrote that reply"},
	{NoChange, 0, BlamesModel,
		"nothing was written, or the writes left every file as it was",
		"the model answered, and there is no write or fallback_write event, or the replayed content of every written file equals the original"},
	{Timeout, 0, BlamesLimits,
		"the episode ran past --episode-timeout, or grading's test run past the task's timeout",
		"exit reason timeout, or grading_timed_out"},
	{Budget, 0, BlamesLimits,
		"the turn budget (--max-turns), the tries of workflow-retry (--tries) or the token budget (--token-limit) ran out",
		"exit reason max_turns or token_budget"},
}

// ToolErrorRun is how many tool calls in a row, at the end of an episode,
// must have failed for tool_errors.
const ToolErrorRun = 3

// ForQuestion returns the causes that answer question q (1, 2 or 3) of the
// lesson "no", in rank order: masked_failure for question 1, broke_tests
// for question 2, needs_other_file for question 3. The other causes blame
// the track, the model or the limits, not the task's design.
func ForQuestion(q int) []Name {
	var out []Name
	for _, i := range Vocabulary {
		if q != 0 && i.Question == q {
			out = append(out, i.Name)
		}
	}
	return out
}

// Lookup returns the Info of a name; ok is false for a name outside the vocabulary.
func Lookup(n Name) (Info, bool) {
	for _, i := range Vocabulary {
		if i.Name == n {
			return i, true
		}
	}
	return Info{}, false
}

// rank is a cause's place in Vocabulary: lower is more specific.
func rank(n Name) int {
	for i, v := range Vocabulary {
		if v.Name == n {
			return i
		}
	}
	return len(Vocabulary)
}
