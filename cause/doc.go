// Package cause explains failed episodes: from an episode's trajectory and
// its grading alone (no model is called), it derives why the episode
// failed, in a small vocabulary whose names are a contract.
//
// Derive takes an Input (the task's original files, the trajectory's
// events, the episode's verdict and, when a caller has them, grading's own
// test output, the output of the tests on the original files and passing
// episodes of the same task) and returns the causes, most specific first,
// each with one line of evidence. Read builds an Input from a run folder,
// Gather adds what other episodes of the run hold, and AddWitnesses adds
// that evidence to causes recorded without it.
//
// # The vocabulary
//
//   - lost_content: the write-back removed what the original file had and
//     the tests need. A written file shrank, and after the write a
//     NameError, ImportError (cannot import name), AttributeError (module
//     has no attribute) or Go "undefined:" names something that a line of
//     the original defined and the written file lacks. The evidence names
//     those lines (`import re`) and says whether the naive fallback wrote
//     the file (Fallback).
//   - malformed_reply: no usable code block. A workflow wrote a reply
//     without one (the naive fallback wrote the whole reply, or the FILE:
//     line had no block after it), or a reject event has no write after
//     it.
//   - needs_other_file: the fix needed a file the episode never changed
//     (for the workflows, one they did not send): a failing test's
//     innermost traceback or panic frame in the workspace, or a compile
//     error, is in a file of the task other than the source and the tests;
//     or the failing test's module imports repository modules but not the
//     source; or a Witness (a passing episode of the task) wrote such a
//     file. Question 3.
//   - masked_failure: a test that failed before the first write (or could
//     not run: an import error, a build failure, a panic that ended the
//     test binary) fails after the last write at another place, with a
//     failure the first run's output does not show, raised by a line that
//     was in the original: the first failure did not point at every line
//     that must change. Question 1.
//   - broke_tests: a test that passed before the first write fails at the
//     end. Question 2.
//   - wrong_fix: a file changed, the tests that failed still fail at the
//     same place or with a failure the first run already showed (or the
//     write's own line raised it, or it stopped a test module importing),
//     and no test fails anew (no broke_tests or masked_failure). Without
//     test output after the last write, the same tests failing at grading.
//   - tool_errors: the agent's last ToolErrorRun (3) or more tool calls
//     all failed.
//   - cut_reply: a reply was cut off at the reply cap (a response with
//     stop reason "length", or the episode's cut_replies). When a workflow
//     wrote that reply it comes first: it explains the rest.
//   - no_change: the model answered, and there was no write at all, or
//     every written file, replayed, equals the original.
//   - timeout: exit reason timeout, or grading_timed_out.
//   - budget: exit reason max_turns (the agent's turns, workflow-retry's
//     tries) or token_budget.
//
// # How the evidence is read
//
// The first run is the trajectory's first test_run before its first write
// (or Input.Baseline); the end is grading's output when Input.Grading has
// it, else the last test_run after the last write. Both are read per test
// (unittest's -v lines and failure blocks; go test's RUN, FAIL and message
// lines, compile errors and panics); the failing tests are the episode's
// failed_tests. The write events hold only a path and a size, so each
// file's content is replayed from what it was written from (the agent's
// write_file and edit_file arguments, the workflow's reply read by its
// rule) and trusted only when its size is the recorded one.
//
// Rules run in a fixed order and a rule that explains a failing test
// claims it, so that the rules after it leave the test alone:
// lost_content takes the failures that name a lost definition, cut_reply
// and malformed_reply those raised in the file a cut or block-less reply
// was written to, needs_other_file those raised in, or testing, another
// file; broke_tests, masked_failure and wrong_fix compare the rest. An
// episode whose writes changed nothing gets no_change and no comparison.
//
// A passed episode has no cause, nor has one that says nothing about the
// model: interrupted, or ended with exit reason error (the
// infrastructure's failure, bench's, a refused request).
//
// record.CauseVocabulary holds the same as data, with each cause's
// question (1, 2 or 3; record.CausesFor) and whom it blames: the task, the
// track, the model or the limits.
package cause
