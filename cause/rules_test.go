package cause

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"bench/record"
)

// The runs the table below combines. The first run: test_b fails with a
// ValueError raised in m.py; test_a and test_c pass.
var (
	okA     = fakeCase{"test_a", "ok", ""}
	okB     = fakeCase{"test_b", "ok", ""}
	okC     = fakeCase{"test_c", "ok", ""}
	bValue  = fakeCase{"test_b", "ERROR", fakeTraceback("test_b", "ValueError: bad x", "m.py:8:f:return g(x) + 1")}
	first   = fakeUnittest(okA, bValue, okC)
	bAssert = fakeCase{"test_b", "FAIL", fakeTraceback("test_b", "AssertionError: 3 != 2")}
)

// sourceWith is fakeSource with one piece replaced.
func sourceWith(old, new string) string { return strings.Replace(fakeSource, old, new, 1) }

// TestRules drives Derive over fake trajectories, one rule and its
// controls at a time.
func TestRules(t *testing.T) {
	edited := sourceWith("+ 1", "+ 2")
	for _, tc := range []struct {
		name   string
		in     Input
		want   []Name
		tests  []string // the first cause's tests, when given
		parts  []string // text the first cause's evidence holds
		verify func(t *testing.T, got []Cause)
	}{
		{
			name:  "masked: after the write another failure shows",
			in:    Input{Events: workflowEvents(first, edited, fakeUnittest(okA, bAssert, okC)), Episode: failedEpisode("test_b")},
			want:  []Name{MaskedFailure},
			tests: []string{"test_b"},
			parts: []string{"test_b: AssertionError: 3 != 2 (before: ValueError: bad x)"},
		},
		{
			name: "masked: a line of the original raises, at another place",
			in: Input{Events: workflowEvents(first, edited, fakeUnittest(okA,
				fakeCase{"test_b", "ERROR", fakeTraceback("test_b", "TypeError: h", "m.py:8:f:return g(x) + 2", "m.py:12:h:return re.sub('a', 'b', x)")}, okC)),
				Episode: failedEpisode("test_b")},
			want: []Name{MaskedFailure},
		},
		{
			name: "control: the line that raises is one the write added: wrong_fix",
			in: Input{Events: workflowEvents(first, sourceWith("'b', x)", "'c', x)"), fakeUnittest(okA,
				fakeCase{"test_b", "ERROR", fakeTraceback("test_b", "TypeError: h", "m.py:12:h:return re.sub('a', 'c', x)")}, okC)),
				Episode: failedEpisode("test_b")},
			want: []Name{WrongFix},
		},
		{
			name:  "wrong_fix: the same failure again",
			in:    Input{Events: workflowEvents(first, edited, first), Episode: failedEpisode("test_b")},
			want:  []Name{WrongFix},
			parts: []string{"test_b still fails as before: ValueError: bad x"},
		},
		{
			name: "wrong_fix: another message at the same assertion",
			in: Input{Events: workflowEvents(fakeUnittest(okA, fakeCase{"test_b", "FAIL", fakeTraceback("test_b", "AssertionError: 1 != 2")}, okC), edited,
				fakeUnittest(okA, bAssert, okC)), Episode: failedEpisode("test_b")},
			want:  []Name{WrongFix},
			parts: []string{"test_b still fails: test_b: AssertionError: 3 != 2 (before: AssertionError: 1 != 2)"},
		},
		{
			name: "control: the new failure was shown before, by another test: wrong_fix",
			in: Input{Events: workflowEvents(fakeUnittest(okA, bValue, fakeCase{"test_c", "FAIL", fakeTraceback("test_c", "AssertionError: 3 != 2")}), edited,
				fakeUnittest(okA, bAssert, fakeCase{"test_c", "FAIL", fakeTraceback("test_c", "AssertionError: 3 != 2")})), Episode: failedEpisode("test_b", "test_c")},
			want:  []Name{WrongFix},
			tests: []string{"test_b", "test_c"},
		},
		{
			name: "broke_tests: a test that passed fails; the one still failing as before is not a wrong_fix beside it",
			in: Input{Events: workflowEvents(first, edited, fakeUnittest(fakeCase{"test_a", "FAIL", fakeTraceback("test_a", "AssertionError: 0 != 1")}, bValue, okC)),
				Episode: failedEpisode("test_a", "test_b")},
			want:  []Name{BrokeTests},
			tests: []string{"test_a"},
			parts: []string{"test_a passed before the write and fails after it: AssertionError: 0 != 1"},
		},
		{
			name: "masked: a failure hidden behind the test module's import error",
			in: Input{Events: workflowEvents(fakeLoadError("ImportError: cannot import name 'g' from 'm' (./m.py)"), edited, fakeUnittest(okA, bAssert, okC)),
				Episode: failedEpisode("test_b")},
			want:  []Name{MaskedFailure},
			parts: []string{"before: it did not run: ImportError: cannot import name 'g'"},
		},
		{
			name: "wrong_fix: the write made the test module fail to import (a rename, no shrinking)",
			in: Input{Events: workflowEvents(fakeUnittest(fakeCase{"test_a", "ERROR", bValue.traceback}, bValue, fakeCase{"test_c", "ERROR", bValue.traceback}),
				sourceWith("def f(", "def q("), fakeLoadError("ImportError: cannot import name 'f' from 'm' (./m.py)")),
				Episode: failedEpisode("test_a", "test_b", "test_c")},
			want: []Name{WrongFix},
		},
		{
			name:  "wrong_fix by names: no test output after the write",
			in:    Input{Events: workflowEvents(first, edited, first)[:4], Episode: failedEpisode("test_b")},
			want:  []Name{WrongFix},
			parts: []string{"test_b still fails at grading (no test output after the last write to compare)"},
		},
		{
			name: "broke_tests by names: no test output after the write",
			in:   Input{Events: workflowEvents(first, edited, first)[:4], Episode: failedEpisode("test_a", "test_b")},
			want: []Name{BrokeTests},
		},
		{
			name: "grading's output, when given, is the end",
			in: Input{Events: workflowEvents(first, edited, first)[:4], Episode: failedEpisode("test_b"),
				Grading: &Grading{Output: fakeUnittest(okA, bAssert, okC)}},
			want: []Name{MaskedFailure},
		},
		{
			name: "no first run: nothing to compare",
			in:   Input{Events: workflowEvents(first, edited, fakeUnittest(okA, bAssert, okC))[1:], Episode: failedEpisode("test_b")},
			want: nil,
		},
		{
			name: "no first run, but a Baseline given",
			in: Input{Events: workflowEvents(first, edited, fakeUnittest(okA, bAssert, okC))[1:], Episode: failedEpisode("test_b"),
				Baseline: first},
			want: []Name{MaskedFailure},
		},
		{
			name: "lost_content: the naive fallback wrote a function without its import",
			in: Input{Events: []record.Event{evTestRun(first), evRequest(), evReply(1, "Try this:\n```python\ndef f(x):\n    return g(x) + 1\n```\n"),
				evFallback(1, "m.py", "def f(x):\n    return g(x) + 1\n"), evTestRun(nameErrors("g"))}, Episode: failedEpisode("test_a", "test_b", "test_c")},
			want:  []Name{LostContent},
			tests: []string{"test_a", "test_b", "test_c"},
			parts: []string{"the naive fallback (no FILE: line) put 30 of 117 bytes in m.py and lost `from helper import g`: NameError: name 'g' is not defined"},
			verify: func(t *testing.T, got []Cause) {
				if c := got[0]; !c.Fallback || c.File != "m.py" || !slices.Equal(c.Lost, []string{"from helper import g"}) {
					t.Errorf("lost_content %+v: want the fallback's m.py losing `from helper import g`", c)
				}
			},
		},
		{
			name: "lost_content with the content unknown (its size is not the reply's): the line named from the original",
			in: Input{Events: []record.Event{evTestRun(first), evRequest(), evReply(1, "```python\ndef f(x):\n    return g(x)+1\n```\n"),
				evFallback(1, "m.py", "def f(x):\n    return g(x) + 1\n"), evTestRun(nameErrors("g"))}, Episode: failedEpisode("test_a", "test_b", "test_c")},
			want: []Name{LostContent},
		},
		{
			name: "control: the file did not shrink: no lost_content",
			in: Input{Events: workflowEvents(first, sourceWith("import g\n", "import gg\n"), nameErrors("g")),
				Episode: failedEpisode("test_a", "test_b", "test_c")},
			want: []Name{MaskedFailure, BrokeTests},
		},
		{
			name: "control: the NameError was there before the write: no lost_content",
			in: Input{Events: []record.Event{evTestRun(nameErrors("g")), evRequest(), evReply(1, "```python\ndef f(x):\n    return g(x) + 1\n```\n"),
				evFallback(1, "m.py", "def f(x):\n    return g(x) + 1\n"), evTestRun(nameErrors("g"))}, Episode: failedEpisode("test_a", "test_b", "test_c")},
			want: []Name{WrongFix},
		},
		{
			name: "lost_content: the agent's edit removed an import",
			in: Input{Events: []record.Event{
				evRequest("edit_file", "run_tests"), evReply(1, ""),
				evCall(1, "edit_file", map[string]string{"path": "m.py", "old": "import re\n", "new": ""}),
				evWrite(1, "m.py", sourceWith("import re\n", "")), evResult(1, "edit_file", "edited m.py", false),
				evRequest("edit_file", "run_tests"), evReply(2, ""), evCall(2, "run_tests", nil),
				evTestRun(fakeUnittest(okA, okB, fakeCase{"test_c", "ERROR", fakeTraceback("test_c", "NameError: name 're' is not defined", "m.py:11:h:return re.sub('a', 'b', x)")})),
				evResult(2, "run_tests", "1 of 3 failed", false), evRequest("edit_file", "run_tests"), evReply(3, "Done."),
			}, Episode: failedEpisode("test_c")},
			want:  []Name{LostContent},
			parts: []string{"the agent's last write put 107 of 117 bytes in m.py and lost `import re`"},
		},
		{
			name: "cut_reply, written, comes first; the content it lost is named after it",
			in: Input{Events: []record.Event{evTestRun(first), evRequest(), evCutReply(1, "FILE: m.py\n```python\ndef f(x):\n    return g(x) + 1\n"),
				evWrite(1, "m.py", "def f(x):\n    return g(x) + 1\n"), evTestRun(nameErrors("g"))}, Episode: failedEpisode("test_a", "test_b", "test_c")},
			want:  []Name{CutReply, LostContent},
			parts: []string{"reply 1 was cut off at the reply cap and written as it was to m.py (30 bytes)"},
		},
		{
			name: "cut_reply that was never written ranks below the edits' causes",
			in: Input{Events: []record.Event{evRequest("run_tests"), evCutReply(1, "Let me think about this at length"), evRequest("run_tests"), evReply(2, "I cannot fix it.")},
				Episode: failedEpisode("test_b")},
			want:  []Name{CutReply, NoChange},
			parts: []string{"1 reply was cut off at the reply cap (reply 1); none was written"},
		},
		{
			name: "cut_reply from the episode's count, for a trajectory without stop reasons",
			in: Input{Events: []record.Event{evRequest("run_tests"), evReply(1, "I cannot fix it.")},
				Episode: func() record.Episode { ep := failedEpisode("test_b"); ep.CutReplies = 2; return ep }()},
			want:  []Name{CutReply, NoChange},
			parts: []string{"2 replies were cut off"},
		},
		{
			name: "malformed_reply: prose written whole by the naive fallback",
			in: Input{Events: []record.Event{evTestRun(first), evRequest(), evReply(1, "Add one."), evFallback(1, "m.py", "Add one."),
				evTestRun("Traceback (most recent call last):\n  File \"./test_m.py\", line 3, in <module>\n    from m import f, g\n  File \"./m.py\", line 1\n    Add one.\n        ^^^\nSyntaxError: invalid syntax\n")},
				Episode: failedEpisode("test_a", "test_b", "test_c")},
			want:  []Name{MalformedReply},
			tests: []string{"test_a", "test_b", "test_c"},
			parts: []string{"the naive fallback wrote the whole reply (8 bytes) over m.py: SyntaxError: invalid syntax"},
		},
		{
			name: "malformed_reply: a FILE: line with no block after it",
			in: Input{Events: []record.Event{evTestRun(first), evRequest(), evReply(1, "FILE: m.py\nadd one to x"), evWrite(1, "m.py", "add one to x\n"), evTestRun(first)},
				Episode: failedEpisode("test_b")},
			want: []Name{MalformedReply, WrongFix},
		},
		{
			name: "malformed_reply: rejected, with nothing written after",
			in: Input{Events: []record.Event{evTestRun(first), evRequest(), evReply(1, "x"), evReject(1, "the reply has 2 code blocks"), evRequest(), evReply(2, "y"), evReject(2, "the reply has no \"FILE: <path>\" line")},
				Episode: func() record.Episode {
					ep := failedEpisode("test_b")
					ep.ExitReason, ep.Turns = record.ExitMaxTurns, 2
					return ep
				}()},
			want:  []Name{MalformedReply, NoChange, Budget},
			parts: []string{"2 replies were rejected and nothing was written after the last (reply 2): the reply has no \"FILE: <path>\" line"},
		},
		{
			name: "control: a reject followed by a write is not malformed_reply",
			in: Input{Events: []record.Event{evTestRun(first), evRequest(), evReply(1, "x"), evReject(1, "the reply has 2 code blocks"), evRequest(), evReply(2, "FILE: m.py\n```\n"+edited+"```\n"),
				evWrite(2, "m.py", edited), evTestRun(first)}, Episode: failedEpisode("test_b")},
			want: []Name{WrongFix},
		},
		{
			name: "no_change: the agent answered and never wrote",
			in:   Input{Events: []record.Event{evRequest("run_tests"), evReply(1, "It looks right to me.")}, Episode: failedEpisode("test_b")},
			want: []Name{NoChange},
		},
		{
			name: "no_change: an agent that wrote the file back as it was",
			in: Input{Events: []record.Event{evTestRun(first), evRequest("write_file"), evReply(1, ""), evCall(1, "write_file", map[string]string{"path": "m.py", "content": fakeSource}),
				evWrite(1, "m.py", fakeSource), evResult(1, "write_file", "wrote", false), evRequest("write_file"), evReply(2, "Done.")}, Episode: failedEpisode("test_b")},
			want: []Name{NoChange},
		},
		{
			name: "control: the model never answered: no no_change",
			in:   Input{Events: []record.Event{evTestRun(first), evRequest()}, Episode: failedEpisode("test_b")},
			want: nil,
		},
		{
			name: "tool_errors: the last three calls failed",
			in:   Input{Events: agentErrors(false, true, true, true), Episode: failedEpisode("test_b")},
			want: []Name{ToolErrors, NoChange},
		},
		{
			name: "control: two failed calls are not tool_errors",
			in:   Input{Events: agentErrors(false, true, true), Episode: failedEpisode("test_b")},
			want: []Name{NoChange},
		},
		{
			name: "control: three failed calls, then one that worked",
			in:   Input{Events: agentErrors(true, true, true, false), Episode: failedEpisode("test_b")},
			want: []Name{NoChange},
		},
		{
			name: "timeout: the episode's limit",
			in: Input{Events: []record.Event{evTestRun(first), evRequest()},
				Episode: func() record.Episode {
					ep := failedEpisode("test_b")
					ep.ExitReason, ep.Error = record.ExitTimeout, "the episode ran past its limit of 10m0s (--episode-timeout)"
					return ep
				}()},
			want:  []Name{Timeout},
			parts: []string{"10m0s (--episode-timeout)"},
		},
		{
			name: "timeout: grading's test run",
			in:   Input{Events: workflowEvents(first, edited, first), Episode: func() record.Episode { ep := failedEpisode("test_b"); ep.GradingTimedOut = true; return ep }()},
			want: []Name{WrongFix, Timeout},
		},
		{
			name: "budget: the agent's token budget",
			in: Input{Events: []record.Event{evRequest("run_tests"), evReply(1, "")},
				Episode: func() record.Episode {
					ep := failedEpisode("test_b")
					ep.ExitReason, ep.EstPromptTokens, ep.EstCompletionTokens = record.ExitTokenBudget, 900, 300
					return ep
				}()},
			want:  []Name{NoChange, Budget},
			parts: []string{"nothing was written: the agent never called write_file or edit_file"},
		},
		{
			name: "needs_other_file: the failure is raised in a file the episode never changed",
			in: Input{Events: workflowEvents(first, edited, fakeUnittest(okA,
				fakeCase{"test_b", "ERROR", fakeTraceback("test_b", "ValueError: bad g", "m.py:8:f:return g(x) + 2", "helper.py:2:g:return x")}, okC)),
				Episode: failedEpisode("test_b")},
			want:  []Name{NeedsOtherFile},
			tests: []string{"test_b"},
			parts: []string{"test_b is raised in helper.py:2 (g), a file the episode never changed: ValueError: bad g"},
		},
		{
			name: "control: the episode wrote that file too: no needs_other_file",
			in: Input{Events: append(workflowEvents(first, edited, first)[:4],
				evWrite(1, "helper.py", "x"), evTestRun(fakeUnittest(okA, fakeCase{"test_b", "ERROR", fakeTraceback("test_b", "ValueError: bad g", "helper.py:2:g:return x")}, okC))),
				Episode: failedEpisode("test_b")},
			want: []Name{MaskedFailure},
		},
		{
			name: "needs_other_file from a witness alone",
			in: Input{Events: workflowEvents(first, edited, first), Episode: failedEpisode("test_b"),
				Witnesses: []Witness{{Episode: "fake/agent/seed-1", Track: "agent", Wrote: []string{"m.py", "./helper.py"}}}},
			want:  []Name{NeedsOtherFile, WrongFix},
			parts: []string{"the passing agent episode fake/agent/seed-1 wrote helper.py"},
		},
		{
			name: "control: a witness that wrote only the source",
			in: Input{Events: workflowEvents(first, edited, first), Episode: failedEpisode("test_b"),
				Witnesses: []Witness{{Episode: "fake/agent/seed-1", Track: "agent", Wrote: []string{"m.py"}}}},
			want: []Name{WrongFix},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.in.Task = fakeTask(fakeSource)
			got := Derive(tc.in)
			if !slices.Equal(namesOf(got), tc.want) {
				t.Fatalf("causes %v, want %v:\n%v", namesOf(got), tc.want, got)
			}
			for _, c := range got {
				if c.Evidence == "" || strings.ContainsAny(c.Evidence, "\n\r") || len(c.Evidence) > 600 {
					t.Errorf("%s: evidence %q is not one short line", c.Name, c.Evidence)
				}
			}
			if tc.tests != nil && !slices.Equal(got[0].Tests, tc.tests) {
				t.Errorf("%s explains %v, want %v", got[0].Name, got[0].Tests, tc.tests)
			}
			for _, p := range tc.parts {
				if !strings.Contains(got[0].Evidence, p) {
					t.Errorf("%s evidence %q lacks %q", got[0].Name, got[0].Evidence, p)
				}
			}
			if tc.verify != nil {
				tc.verify(t, got)
			}
		})
	}
}

// nameErrors is a run in which every test fails because name is not
// defined where m.py's f uses it.
func nameErrors(name string) string {
	var cases []fakeCase
	for _, test := range []string{"test_a", "test_b", "test_c"} {
		cases = append(cases, fakeCase{test, "ERROR", fakeTraceback(test, "NameError: name '"+name+"' is not defined", "m.py:2:f:return g(x) + 1")})
	}
	return fakeUnittest(cases...)
}

// agentErrors is an agent episode of edit_file calls that fail (true) or
// work (false, a read_file), one per turn, then a final answer.
func agentErrors(calls ...bool) []record.Event {
	var out []record.Event
	for i, isErr := range calls {
		out = append(out, evRequest("edit_file", "read_file"), evReply(i+1, ""))
		if isErr {
			out = append(out, evCall(i+1, "edit_file", map[string]string{"path": "m.py", "old": "nope", "new": "x"}),
				evResult(i+1, "edit_file", "error: old text found 0 times in m.py; it must match exactly once", true))
		} else {
			out = append(out, evCall(i+1, "read_file", map[string]string{"path": "m.py"}), evResult(i+1, "read_file", fakeSource, false))
		}
	}
	return append(out, evRequest("edit_file", "read_file"), evReply(len(calls)+1, "I give up."))
}

func namesOf(cs []Cause) []Name {
	var out []Name
	for _, c := range cs {
		out = append(out, c.Name)
	}
	return out
}

// TestNoCauseWithoutAModelFailure: a passed episode, an interrupted one
// and one ended by an error get no cause, whatever their trajectory holds.
func TestNoCauseWithoutAModelFailure(t *testing.T) {
	events := workflowEvents(first, sourceWith("+ 1", "+ 2"), fakeUnittest(okA, bAssert, okC))
	for _, ep := range []record.Episode{
		{Passed: true, ExitReason: record.ExitDone},
		{ExitReason: record.ExitInterrupted, FailedTests: []string{"test_b"}},
		{ExitReason: record.ExitError, ErrorKind: record.ErrorUnreachable, FailedTests: []string{"test_b"}},
		{ExitReason: record.ExitError, ErrorKind: record.ErrorHarness, FailedTests: []string{"test_b"}},
	} {
		if got := Derive(Input{Task: fakeTask(fakeSource), Events: events, Episode: ep}); got != nil {
			t.Errorf("%s/%s: causes %v, want none", ep.ExitReason, ep.ErrorKind, got)
		}
	}
	// The control: the same trajectory, failed and done, has its cause.
	if got := Derive(Input{Task: fakeTask(fakeSource), Events: events, Episode: failedEpisode("test_b")}); len(got) == 0 {
		t.Error("the control episode got no cause")
	}
}

// TestCauseJSON: the fields scripts read.
func TestCauseJSON(t *testing.T) {
	b, err := json.Marshal(Cause{Name: LostContent, Evidence: "e", Tests: []string{"test_a"}, File: "m.py", Lost: []string{"import re"}, Fallback: true})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"name":"lost_content","evidence":"e","tests":["test_a"],"file":"m.py","lost":["import re"],"fallback":true}`; string(b) != want {
		t.Errorf("JSON %s, want %s", b, want)
	}
	b, _ = json.Marshal(Cause{Name: Budget, Evidence: "max_turns"})
	if want := `{"name":"budget","evidence":"max_turns"}`; string(b) != want {
		t.Errorf("JSON %s, want %s", b, want)
	}
}

// TestAddWitnesses: a view that holds an episode's causes and written
// files gets from AddWitnesses what Derive gives with the witnesses.
func TestAddWitnesses(t *testing.T) {
	witnesses := []Witness{{Episode: "fake/agent/seed-1", Track: "agent", Wrote: []string{"m.py", "./helper.py"}}}
	witnessed := 0
	for _, events := range [][]record.Event{
		workflowEvents(first, sourceWith("+ 1", "+ 2"), first),
		workflowEvents(first, sourceWith("+ 1", "+ 2"), fakeUnittest(okA, bAssert, okC)),
		append(workflowEvents(first, sourceWith("+ 1", "+ 2"), first)[:4], evWrite(1, "helper.py", "x"), evTestRun(first)),
		workflowEvents(first, sourceWith("+ 1", "+ 2"), fakeUnittest(okA,
			fakeCase{"test_b", "ERROR", fakeTraceback("test_b", "ValueError: bad g", "m.py:8:f:return g(x) + 2", "helper.py:2:g:return x")}, okC)),
	} {
		in := Input{Task: fakeTask(fakeSource), Events: events, Episode: failedEpisode("test_b")}
		without := Derive(in)
		in.Witnesses = witnesses
		with := Derive(in)
		if !slices.EqualFunc(with, without, sameCause) {
			witnessed++
		}
		got := AddWitnesses(without, in.Task, Wrote(events), witnesses)
		if !slices.EqualFunc(got, with, sameCause) {
			t.Errorf("AddWitnesses gives %v, Derive with witnesses %v", got, with)
		}
		if again := AddWitnesses(with, in.Task, Wrote(events), witnesses); !slices.EqualFunc(again, with, sameCause) {
			t.Errorf("AddWitnesses on causes that have needs_other_file changed them: %v", again)
		}
	}
	if witnessed != 3 {
		t.Errorf("the witness changed Derive's causes in %d cases, want 3 (all but the episode that wrote helper.py)", witnessed)
	}
}

func sameCause(a, b Cause) bool {
	return a.Name == b.Name && a.Evidence == b.Evidence && a.File == b.File && slices.Equal(a.Tests, b.Tests) && slices.Equal(a.Lost, b.Lost) && a.Fallback == b.Fallback
}

// TestGradingFromTheEndEvent: an end event that holds grading's output
// gives Read's Grading; today's, without one, gives none.
func TestGradingFromTheEndEvent(t *testing.T) {
	events := workflowEvents(first, sourceWith("+ 1", "+ 2"), first)
	if g := gradingOf(append(events, record.Event{Kind: record.EventEnd, Exit: record.ExitDone})); g != nil {
		t.Errorf("an end event without output gave grading %+v", g)
	}
	g := gradingOf(append(events, record.Event{Kind: record.EventEnd, Exit: record.ExitDone, Output: "graded"}))
	if g == nil || g.Output != "graded" {
		t.Errorf("grading %+v, want the end event's output", g)
	}
}
