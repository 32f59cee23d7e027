package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"bench/hybrid"
	"bench/internal/testsupport"
	"bench/internal/testsupport/fixture"
	"bench/model"
	"bench/model/modeltest"
	"bench/record"
	"bench/tasks"
	"bench/workflow"
)

// hybridMonthMessage is what parse_date's masked second bug prints once the
// first is fixed.
const hybridMonthMessage = "datetime.date(2024, 2, 5) != datetime.date(2024, 3, 5)"

// hybridFake scripts the hybrid agent on the fake Ollama server: agent[i]
// answers the agent's request that carries i tool results (a plain "Done."
// past the end), and inner answers the workflow's own request, told apart
// by its system prompt. With lesson set, every request but the hybrid
// agent's goes to it: the workflow's, of either track, and the agent's.
type hybridFake struct {
	agent  []modeltest.Reply
	inner  modeltest.Reply
	lesson *testsupport.Solver
}

// reply answers one request.
func (f hybridFake) reply(r modeltest.Request) modeltest.Reply {
	switch {
	case f.lesson != nil && !slices.Contains(r.Tools, "run_workflow"):
		return f.lesson.Reply(r) // the workflow's request, of either track, or the agent's
	case hybridIsWorkflowRequest(r):
		return f.inner
	}
	tools := 0
	for _, m := range r.Messages {
		if m.Role == model.RoleTool {
			tools++
		}
	}
	if tools < len(f.agent) {
		return f.agent[tools]
	}
	return modeltest.Text("Done.").WithUsage(1000, 5)
}

// hybridIsWorkflowRequest reports whether r is the workflow's request: no
// tools, the workflow's system prompt.
func hybridIsWorkflowRequest(r modeltest.Request) bool {
	return len(r.Tools) == 0 && len(r.Messages) > 0 && r.Messages[0].Content == workflow.SystemPrompt
}

// hybridRun runs bench run (seed 1 unless args name seeds) against a fake
// Ollama answering with f and returns the results folder, what it holds
// and the server.
func hybridRun(t *testing.T, f hybridFake, args ...string) (string, record.Data, *modeltest.Server) {
	t.Helper()
	srv := modeltest.NewOllama(t, modeltest.Always(modeltest.Func(f.reply)))
	dir := filepath.Join(t.TempDir(), "run")
	all := append([]string{"run", "--host", srv.URL, "--out", dir}, args...)
	if !slices.Contains(args, "--seeds") {
		all = append(all, "--seeds", "1")
	}
	stdout, stderr, err := runCLI(t, all...)
	if err != nil {
		t.Fatalf("bench run: %v\nstdout:\n%s\nstderr:\n%s", err, stdout, stderr)
	}
	data, err := record.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	return dir, data, srv
}

// hybridEpisode returns the one episode of task and track.
func hybridEpisode(t *testing.T, data record.Data, task, track string) record.Episode {
	t.Helper()
	var found []record.Episode
	for _, ep := range data.Episodes {
		if ep.Task == task && ep.Track == track {
			found = append(found, ep)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d episodes of %s/%s, want 1", len(found), task, track)
	}
	return found[0]
}

// hybridEvents reads an episode's trajectory.
func hybridEvents(t *testing.T, dir string, data record.Data, ep record.Episode) []record.Event {
	t.Helper()
	events, _, err := record.ReadTrajectory(filepath.Join(dir, record.TrajectoryRel(data.Run, ep)))
	if err != nil {
		t.Fatal(err)
	}
	return events
}

// hybridSource is a task's file from one of its folders (repo, partial, solution).
func hybridSource(t *testing.T, name, sub string) string {
	t.Helper()
	all, err := tasks.Load(tasks.Embedded())
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(all, func(task tasks.Task) bool { return task.Name == name })
	if i < 0 {
		t.Fatalf("no task %s", name)
	}
	return testsupport.TaskFile(t, all[i], sub)
}

// hybridToolResults are the results of the tool calls of one name, in order.
func hybridToolResults(events []record.Event, tool string) []string {
	var out []string
	for _, ev := range events {
		if ev.Kind == record.EventToolResult && ev.Tool == tool {
			out = append(out, ev.Result)
		}
	}
	return out
}

// TestHybridDelegatesOnceAndPasses: the agent calls run_workflow with no
// arguments, the workflow fixes leap.py in one call of its own, and the
// agent stops. The workflow's call is one of the episode's model calls and
// its tokens are in the episode's once, and again, apart, in the workflow
// fields; its events are the workflow's.
func TestHybridDelegatesOnceAndPasses(t *testing.T) {
	t.Parallel()
	f := hybridFake{
		agent: []modeltest.Reply{
			modeltest.Calls(modeltest.Call("run_workflow", `{}`)).WithUsage(500, 20),
			modeltest.Text("The workflow fixed leap.py; the tests pass.").WithUsage(900, 10),
		},
		inner: modeltest.Text(testsupport.FileReply("leap.py", hybridSource(t, "leap_year", "solution"))).WithUsage(400, 200),
	}
	dir, data, srv := hybridRun(t, f, "--tasks", "leap_year", "--tracks", "hybrid")
	ep := hybridEpisode(t, data, "leap_year", "hybrid")
	if !ep.Passed || ep.ExitReason != record.ExitDone || ep.Error != "" {
		t.Fatalf("passed %v, exit %s, error %q; want a pass", ep.Passed, ep.ExitReason, ep.Error)
	}
	if !slices.Equal(ep.ToolCalls, []string{"run_workflow"}) || ep.Turns != 2 || ep.ModelCalls != 3 || len(ep.Steps) != 3 {
		t.Errorf("tool calls %q, turns %d, calls %d, steps %d; want [run_workflow], 2 turns, 3 calls and steps", ep.ToolCalls, ep.Turns, ep.ModelCalls, len(ep.Steps))
	}
	if ep.PromptTokens != 500+400+900 || ep.CompletionTokens != 20+200+10 {
		t.Errorf("tokens %d + %d; want %d + %d, the workflow's once", ep.PromptTokens, ep.CompletionTokens, 1800, 230)
	}
	if ep.WorkflowCalls != 1 || ep.WorkflowTokens != 600 {
		t.Errorf("workflow calls %d, tokens %d; want 1 and 600", ep.WorkflowCalls, ep.WorkflowTokens)
	}
	if ep.WorkflowEstTokens <= 0 || ep.WorkflowEstTokens >= ep.EstPromptTokens+ep.EstCompletionTokens {
		t.Errorf("workflow estimate %d of %d; want a part of the episode's", ep.WorkflowEstTokens, ep.EstPromptTokens+ep.EstCompletionTokens)
	}

	reqs := srv.Requests()
	if len(reqs) != 3 || !hybridIsWorkflowRequest(reqs[1]) || hybridIsWorkflowRequest(reqs[0]) {
		t.Fatalf("%d requests; want the agent's, the workflow's, the agent's", len(reqs))
	}
	sys := reqs[0].Messages[0].Content
	i := strings.Index(sys, "# The run_workflow tool")
	if i < 0 || !strings.Contains(hybrid.Prompts(), sys[i:]) {
		t.Errorf("the agent's system prompt does not describe run_workflow in words the prompts text holds:\n%s", sys)
	}
	// The run's prompts digest is of the hybrid's prompts text (recomputed
	// here as the registry's digest is documented: name, NUL, text, NUL).
	if sum := sha256.Sum256([]byte("hybrid\x00" + hybrid.Prompts() + "\x00")); data.Run.PromptsSHA256 != hex.EncodeToString(sum[:]) {
		t.Errorf("run.json's prompts digest %s is not of the hybrid's prompts text", data.Run.PromptsSHA256)
	}
	if user := reqs[1].Messages[1].Content; !strings.Contains(user, "The file to fix is leap.py") || strings.Contains(user, "note") {
		t.Errorf("the workflow's request is not the workflow's, for leap.py:\n%s", user)
	}

	events := hybridEvents(t, dir, data, ep)
	var inner []string
	for _, ev := range events {
		if ev.Within == "run_workflow" {
			inner = append(inner, ev.Kind)
			if ev.Turn != 1 {
				t.Errorf("the workflow's %s event is stamped turn %d, want the agent's turn 1", ev.Kind, ev.Turn)
			}
		}
	}
	if want := []string{"test_run", "request", "response", "write", "test_run"}; !slices.Equal(inner, want) {
		t.Errorf("the workflow's events %v, want %v", inner, want)
	}
	res := hybridToolResults(events, "run_workflow")
	if len(res) != 1 || !strings.Contains(res[0], "written: leap.py") || !strings.Contains(res[0], "tests after: 6/6 passed") ||
		!strings.Contains(res[0], "The file as written, leap.py:") {
		t.Errorf("the tool's result does not say what was written and the tests after:\n%s", res)
	}
}

// TestHybridSeesTheMaskedBugAndFixesTheRest: the workflow fixes only the
// line parse_date's traceback points at (the partial fix); the agent reads
// the masked second failure in the tool's result and fixes it itself. The
// workflow track, given the same reply, fails.
func TestHybridSeesTheMaskedBugAndFixesTheRest(t *testing.T) {
	fixture.FullOnly(t, "TestHybridDelegatesOnceAndPasses and the hybrid package's tests")
	t.Parallel()
	edit, _ := json.Marshal(map[string]string{"path": "dateparse.py", "old": "return number\n", "new": "return number + 1\n"})
	f := hybridFake{
		agent: []modeltest.Reply{
			modeltest.Calls(modeltest.Call("run_workflow", `{"file":"dateparse.py","note":"Look at the day's comma."}`)).WithUsage(500, 30),
			modeltest.Calls(modeltest.Call("edit_file", string(edit))).WithUsage(1500, 40),
			modeltest.Calls(modeltest.Call("run_tests", `{}`)).WithUsage(1700, 10),
			modeltest.Text("The month was off by one; fixed.").WithUsage(1900, 10),
		},
		inner: modeltest.Text(testsupport.FileReply("dateparse.py", hybridSource(t, "parse_date", "partial"))).WithUsage(450, 250),
	}
	dir, data, srv := hybridRun(t, f, "--tasks", "parse_date", "--tracks", "workflow,hybrid")
	if wf := hybridEpisode(t, data, "parse_date", "workflow"); wf.Passed {
		t.Error("the workflow track passed parse_date on the partial fix")
	}
	ep := hybridEpisode(t, data, "parse_date", "hybrid")
	if !ep.Passed || ep.ExitReason != record.ExitDone {
		t.Fatalf("hybrid: passed %v, exit %s, error %q; want a pass", ep.Passed, ep.ExitReason, ep.Error)
	}
	if want := []string{"run_workflow", "edit_file", "run_tests"}; !slices.Equal(ep.ToolCalls, want) || ep.WorkflowCalls != 1 || ep.WorkflowTokens != 700 {
		t.Errorf("tool calls %q, workflow calls %d, tokens %d; want %q, 1, 700", ep.ToolCalls, ep.WorkflowCalls, ep.WorkflowTokens, want)
	}
	res := hybridToolResults(hybridEvents(t, dir, data, ep), "run_workflow")
	if len(res) != 1 || !regexp.MustCompile(`tests after: \d of 7 failed`).MatchString(res[0]) || !strings.Contains(res[0], hybridMonthMessage) {
		t.Fatalf("the tool's result does not show the masked failure:\n%s", res)
	}
	var sawNote, sawResult bool
	for _, r := range srv.Requests() {
		if hybridIsWorkflowRequest(r) && strings.Contains(r.Last().Content, "Look at the day's comma.") {
			sawNote = true
		}
		if slices.Contains(r.Tools, "run_workflow") && r.Last().Role == model.RoleTool && r.Last().ToolName == "run_workflow" {
			sawResult = strings.Contains(r.Last().Content, hybridMonthMessage)
		}
	}
	if !sawNote || !sawResult {
		t.Errorf("the note reached the workflow: %v; the agent was shown the masked failure: %v", sawNote, sawResult)
	}
}

// TestHybridThatNeverDelegates is the agent in all but its offer: no
// workflow call, no workflow tokens, no event of the workflow's.
func TestHybridThatNeverDelegates(t *testing.T) {
	t.Parallel()
	write, _ := json.Marshal(map[string]string{"path": "leap.py", "content": hybridSource(t, "leap_year", "solution")})
	f := hybridFake{agent: []modeltest.Reply{
		modeltest.Calls(modeltest.Call("write_file", string(write))).WithUsage(500, 200),
		modeltest.Calls(modeltest.Call("run_tests", `{}`)).WithUsage(800, 10),
	}}
	dir, data, srv := hybridRun(t, f, "--tasks", "leap_year", "--tracks", "hybrid")
	ep := hybridEpisode(t, data, "leap_year", "hybrid")
	if !ep.Passed || ep.WorkflowCalls != 0 || ep.WorkflowTokens != 0 || ep.WorkflowEstTokens != 0 || ep.ModelCalls != 3 {
		t.Errorf("passed %v, workflow calls %d, tokens %d (est %d), calls %d; want a pass with nothing delegated",
			ep.Passed, ep.WorkflowCalls, ep.WorkflowTokens, ep.WorkflowEstTokens, ep.ModelCalls)
	}
	for _, ev := range hybridEvents(t, dir, data, ep) {
		if ev.Within != "" {
			t.Errorf("event %s is marked %q with no delegation", ev.Kind, ev.Within)
		}
	}
	for _, r := range srv.Requests() {
		if hybridIsWorkflowRequest(r) {
			t.Error("the workflow was asked though the agent never called it")
		}
	}
}

// TestHybridWorkflowCallFailureEndsTheEpisode: a failure of the workflow's
// own call that the episode stands by (the server finds the conversation
// too long: 413) ends the episode as a failed agent call would, with its
// kind, and is never shown to the agent as a tool error.
func TestHybridWorkflowCallFailureEndsTheEpisode(t *testing.T) {
	t.Parallel()
	f := hybridFake{
		agent: []modeltest.Reply{modeltest.Calls(modeltest.Call("run_workflow", `{}`)).WithUsage(500, 20)},
		inner: modeltest.StatusText(413, "the fake refuses the workflow's request"),
	}
	_, data, srv := hybridRun(t, f, "--tasks", "leap_year", "--tracks", "hybrid")
	ep := hybridEpisode(t, data, "leap_year", "hybrid")
	if ep.ExitReason != record.ExitError || ep.ErrorKind != record.ErrorRequestTooLarge || !strings.Contains(ep.Error, "the fake refuses") {
		t.Errorf("exit %s, kind %s, error %q; want the call's failure", ep.ExitReason, ep.ErrorKind, ep.Error)
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("%d requests; want 2: the agent was asked again after the workflow's call failed", n)
	}
}

// TestHybridTwinsAreIdentical: two episodes of one seed make the same
// steps, tokens and workflow figures, and the report calls them identical.
func TestHybridTwinsAreIdentical(t *testing.T) {
	fixture.FullOnly(t, "the hybrid package's tests and runner's TestPlanOrderAndTwins")
	t.Parallel()
	edit, _ := json.Marshal(map[string]string{"path": "dateparse.py", "old": "return number\n", "new": "return number + 1\n"})
	f := hybridFake{
		agent: []modeltest.Reply{
			modeltest.Calls(modeltest.Call("run_workflow", `{}`)).WithUsage(500, 30),
			modeltest.Calls(modeltest.Call("edit_file", string(edit))).WithUsage(1500, 40),
		},
		inner: modeltest.Text(testsupport.FileReply("dateparse.py", hybridSource(t, "parse_date", "partial"))).WithUsage(450, 250),
	}
	dir, data, _ := hybridRun(t, f, "--tasks", "parse_date", "--tracks", "hybrid", "--seeds", "1,1")
	if len(data.Episodes) != 2 {
		t.Fatalf("%d episodes, want 2", len(data.Episodes))
	}
	a, b := data.Episodes[0], data.Episodes[1]
	if !slices.Equal(a.Steps, b.Steps) || !slices.Equal(a.ToolCalls, b.ToolCalls) || a.PromptTokens != b.PromptTokens ||
		a.WorkflowCalls != b.WorkflowCalls || a.WorkflowTokens != b.WorkflowTokens || a.WorkflowEstTokens != b.WorkflowEstTokens || a.Passed != b.Passed {
		t.Errorf("twins differ:\n%+v\n%+v", a, b)
	}
	stdout, stderr, err := runCLI(t, "report", dir, "--format", "json")
	if err != nil {
		t.Fatalf("bench report: %v\n%s", err, stderr)
	}
	var rep struct {
		Twins []struct {
			Track   string
			Members []struct{ Identical bool }
		}
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Twins) != 1 || rep.Twins[0].Track != "hybrid" || len(rep.Twins[0].Members) != 2 || !rep.Twins[0].Members[1].Identical {
		t.Errorf("twins %+v; want one hybrid group of two identical episodes", rep.Twins)
	}
}

// TestHybridBesideWorkflowAndAgent runs the three tracks on the course
// tasks, the workflow and the agent as the lesson's model plays them: the
// report pairs the hybrid with both (token ratio and McNemar per task).
func TestHybridBesideWorkflowAndAgent(t *testing.T) {
	fixture.FullOnly(t, "TestHybridDelegatesOnceAndPasses and runner's TestPyramidShardsCoverThePlanOnce")
	t.Parallel()
	f := hybridFake{
		lesson: newLessonModel(t),
		agent: []modeltest.Reply{
			modeltest.Calls(modeltest.Call("run_workflow", `{}`)).WithUsage(500, 20),
			modeltest.Text("Delegated.").WithUsage(900, 10),
		},
	}
	dir, data, _ := hybridRun(t, f, "--tracks", "workflow,hybrid,agent", "--parallel", "2")
	if len(data.Episodes) != 12 {
		t.Fatalf("%d episodes, want 12", len(data.Episodes))
	}
	// The hybrid delegates once and stops: it passes where the workflow
	// passes, and its tokens are the workflow's and its own.
	for _, task := range []string{"parse_date", "slugify", "word_freq", "leap_year"} {
		wf, hy := hybridEpisode(t, data, task, "workflow"), hybridEpisode(t, data, task, "hybrid")
		// On slugify both fail, differently: the workflow's naive fallback
		// writes the function alone, the strict tool writes nothing.
		if hy.Passed != wf.Passed {
			t.Errorf("%s: hybrid passed %v, workflow %v; with the same reply they should agree", task, hy.Passed, wf.Passed)
		}
		if hy.WorkflowCalls != 1 || hy.WorkflowTokens != wf.PromptTokens+wf.CompletionTokens {
			t.Errorf("%s: workflow calls %d, tokens %d; want 1 and the workflow track's %d", task, hy.WorkflowCalls, hy.WorkflowTokens, wf.PromptTokens+wf.CompletionTokens)
		}
	}
	stdout, stderr, err := runCLI(t, "report", dir, "--format", "json")
	if err != nil {
		t.Fatalf("bench report: %v\n%s", err, stderr)
	}
	var rep struct {
		Ratios  []struct{ Task, Num, Den string }
		McNemar []struct {
			Task, A, B string
			Pairs      int
		}
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	pairs := map[string]int{}
	for _, m := range rep.McNemar {
		pairs[m.A+"/"+m.B] += m.Pairs
	}
	ratios := map[string]int{}
	for _, r := range rep.Ratios {
		ratios[r.Num+"/"+r.Den]++
	}
	for _, p := range []string{"hybrid/workflow", "hybrid/agent", "agent/workflow"} {
		if pairs[p] != 4 || ratios[p] != 4 {
			t.Errorf("%s: %d McNemar pairs and %d ratios, want 4 of each (one per task)", p, pairs[p], ratios[p])
		}
	}
}
