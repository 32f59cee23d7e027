package hybrid

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"bench/internal/testsupport/fixture"
	"bench/model"
	"bench/record"
	"bench/testrun"
	"bench/track"
	"bench/track/tracktest"
	"bench/workflow"
)

// editor answers the workflow's requests with replies, in order, and
// keeps them.
func editor(replies ...string) *tracktest.FakeChatter {
	f := &tracktest.FakeChatter{}
	for _, r := range replies {
		f.Script = append(f.Script, tracktest.FakeReply{Msg: tracktest.Text(r), Usage: model.Usage{PromptTokens: 300, CompletionTokens: 100}})
	}
	return f
}

// agentScript is the agent's side: each reply in turn, then "Done.".
func agentScript(replies ...model.Message) *tracktest.FakeChatter {
	f := &tracktest.FakeChatter{}
	for _, m := range replies {
		f.Script = append(f.Script, tracktest.FakeReply{Msg: m, Usage: model.Usage{PromptTokens: 50, CompletionTokens: 5}})
	}
	return f
}

func fileReply(path, body string) string { return "FILE: " + path + "\n```python\n" + body + "```\n" }

// TestHybridOnASecondModel: the workflow's call goes to env.WorkflowClient
// and only there, with the workflow's own prompt and no tools; the agent's
// calls stay on env.Model. The result the agent reads says what was written
// and the tests before and after.
func TestHybridOnASecondModel(t *testing.T) {
	fixture.ParallelPython(t)
	agent := agentScript(tracktest.Calls("run_workflow", `{"note":"the 400-year rule"}`))
	env, rec := tracktest.Fixture(t, "leap_year", agent)
	ed := editor(fileReply("leap.py", tracktest.ReadOverlay(t, env, "solution", "leap.py")))
	env.WorkflowClient = ed
	out := Hybrid(context.Background(), env)
	if out.Exit != record.ExitDone || out.Err != nil {
		t.Fatalf("exit %q, %v", out.Exit, out.Err)
	}
	if len(agent.Requests) != 2 || len(ed.Requests) != 1 {
		t.Fatalf("the agent's model got %d requests, the workflow's %d; want 2 and 1", len(agent.Requests), len(ed.Requests))
	}
	req := ed.Requests[0]
	if len(req.Tools) != 0 || req.Messages[0].Content != workflow.SystemPrompt || !strings.Contains(req.Messages[1].Content, "the 400-year rule") {
		t.Errorf("the workflow's request %+v is not the workflow's, with the note", req.Messages)
	}
	if req.Options != env.Options {
		t.Errorf("the workflow's call options %+v, want the episode's %+v", req.Options, env.Options)
	}
	if out.ModelCalls != 3 || out.WorkflowCalls != 1 || out.Usage.Total() != 55+400 || out.WorkflowUsage.Total() != 400 {
		t.Errorf("calls %d (workflow %d), tokens %d (workflow %d); want 3 (1), 455 (400)", out.ModelCalls, out.WorkflowCalls, out.Usage.Total(), out.WorkflowUsage.Total())
	}
	res := agent.Requests[1].Messages[len(agent.Requests[1].Messages)-1]
	for _, want := range []string{"run_workflow on leap.py\n", "tests before: 3 of 6 failed", "written: leap.py,", "tests after: 6/6 passed", "The file as written, leap.py:", "The test output before:"} {
		if !strings.Contains(res.Content, want) {
			t.Errorf("the result lacks %q:\n%s", want, res.Content)
		}
	}
	if got := rec.Of(record.EventToolCall); len(got) != 1 || got[0].Tool != ToolName || got[0].Within != "" {
		t.Errorf("tool calls %+v; want the one run_workflow, the agent's own", got)
	}
}

// TestHybridToolArguments: a file outside the workspace or missing is a
// tool error the agent reads; an unknown argument is refused by the loop.
func TestHybridToolArguments(t *testing.T) {
	fixture.ParallelPython(t)
	agent := agentScript(
		tracktest.Calls("run_workflow", `{"file":"../leap.py"}`),
		tracktest.Calls("run_workflow", `{"file":"missing.py"}`),
		tracktest.Calls("run_workflow", `{"files":"leap.py"}`),
	)
	env, rec := tracktest.Fixture(t, "leap_year", agent)
	ed := editor()
	env.WorkflowClient = ed
	out := Hybrid(context.Background(), env)
	if out.Exit != record.ExitDone || len(ed.Requests) != 0 || out.WorkflowCalls != 0 {
		t.Fatalf("exit %q, %d workflow requests; want done, none", out.Exit, len(ed.Requests))
	}
	var results []string
	for _, ev := range rec.Of(record.EventToolResult) {
		if !ev.IsError {
			t.Errorf("result %q is not an error", ev.Result)
		}
		results = append(results, ev.Result)
	}
	for i, want := range []string{"outside", "read the file to fix missing.py", `unexpected argument "files"`} {
		if i >= len(results) || !strings.Contains(results[i], want) {
			t.Errorf("result %d %q; want one saying %q", i, results, want)
		}
	}
	if strings.Contains(strings.Join(results, "\n"), env.Dir) {
		t.Errorf("a result shows the workspace's real path: %q", results)
	}
}

// TestHybridStrictAndNaive: slugify's function-only reply is rejected by
// the registered (strict) tool, which writes nothing and shows the reply
// it did not use; the naive one writes it and loses the import.
func TestHybridStrictAndNaive(t *testing.T) {
	fixture.ParallelPython(t)
	const functionOnly = "```python\ndef slugify(text, sep=\"-\"):\n    words = re.findall(r\"[a-z0-9]+\", text.lower())\n    return sep.join(words)\n```\n"
	for _, naive := range []bool{false, true} {
		agent := agentScript(tracktest.Calls("run_workflow", `{}`))
		env, _ := tracktest.Fixture(t, "slugify", agent)
		env.WorkflowClient = editor(functionOnly)
		before, _ := os.ReadFile(filepath.Join(env.Dir, "slugify.py"))
		out := Config{Naive: naive}.Run(context.Background(), env)
		if out.Exit != record.ExitDone {
			t.Fatalf("naive %v: exit %q, %v", naive, out.Exit, out.Err)
		}
		after, _ := os.ReadFile(filepath.Join(env.Dir, "slugify.py"))
		res := agent.Requests[1].Messages[len(agent.Requests[1].Messages)-1].Content
		if naive {
			if strings.Contains(string(after), "import re") || !strings.Contains(res, "the reply had no FILE: line") {
				t.Errorf("naive: the file kept its import, or the result does not say how it was written:\n%s", res)
			}
			continue
		}
		if string(after) != string(before) || !strings.Contains(res, "nothing written: the reply has no \"FILE: <path>\" line") ||
			!strings.Contains(res, "The workflow's reply, not used:") || !strings.Contains(res, "re.findall") {
			t.Errorf("strict: the file changed, or the result does not say why nothing was written:\n%s", res)
		}
	}
	if (Config{}).Prompts() == (Config{Naive: true}).Prompts() {
		t.Error("the naive tool's words are the strict one's: their runs would look like twins")
	}
}

// TestHybridWorkflowCallFailureStops: the workflow's model call failing
// ends the episode with that error; the agent is not asked again.
func TestHybridWorkflowCallFailureStops(t *testing.T) {
	fixture.ParallelPython(t)
	agent := agentScript(tracktest.Calls("run_workflow", `{}`))
	env, rec := tracktest.Fixture(t, "leap_year", agent)
	env.WorkflowClient = &tracktest.FakeChatter{Script: []tracktest.FakeReply{{Err: model.ErrServer}}}
	out := Hybrid(context.Background(), env)
	if out.Exit != record.ExitError || !errors.Is(out.Err, model.ErrServer) || len(agent.Requests) != 1 || out.WorkflowCalls != 1 {
		t.Errorf("exit %q, err %v, %d agent requests; want error after one", out.Exit, out.Err, len(agent.Requests))
	}
	if res := rec.Of(record.EventToolResult); len(res) != 1 || !res[0].IsError {
		t.Errorf("tool results %+v; want the failed call recorded", res)
	}
}

// TestResultKeepsItsPartsWithinTheCap: a huge file and test output are cut
// in the middle, each within its share, so the tests after always show.
func TestResultKeepsItsPartsWithinTheCap(t *testing.T) {
	big := strings.Repeat("x = 1\n", 20000)
	res := testrun.Result{Total: 1, Normalized: "head\n" + strings.Repeat("line\n", 20000) + "AFTER TAIL\n"}
	p := workflow.Pass{File: "a.py", Before: res, After: res, Wrote: "a.py", Content: big}
	text := result(p)
	if len(text) > 16<<10 {
		t.Errorf("result is %d bytes, over the tool cap", len(text))
	}
	if strings.Count(text, "AFTER TAIL") != 2 || !strings.Contains(text, "bytes of output cut here") {
		t.Errorf("the parts were not each cut in the middle:\n%.400s", text)
	}
}

// TestPromptsCoverTheToolAndThePass: the prompts text of the track holds
// the words on the tool, its description (its schema is covered as the
// agent's are), the workflow's request with a note and the result's
// wording.
func TestPromptsCoverTheToolAndThePass(t *testing.T) {
	p := Prompts()
	for _, want := range []string{aboutStrict, toolDescription, workflow.SystemPrompt, "adds a note", "nothing written: <problem>", "tests after:"} {
		if !strings.Contains(p, want) {
			t.Errorf("Prompts lacks %q", want)
		}
	}
	names := []string{}
	for _, tl := range (Config{}).spec().Tools {
		names = append(names, tl.Name)
	}
	if !slices.Equal(names, []string{ToolName}) {
		t.Errorf("tools %v, want [%s]", names, ToolName)
	}
	var _ track.Func = Hybrid
}
