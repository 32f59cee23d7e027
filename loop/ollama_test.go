package loop

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"bench/model"
	"bench/model/modeltest"
	"bench/record"
	"bench/track/tracktest"
)

// monthMessage is what parse_date's second bug prints once the first is fixed.
const monthMessage = "datetime.date(2024, 2, 5) != datetime.date(2024, 3, 5)"

// parseDateSteps is the lesson's agent on parse_date: fix the line the
// traceback points to, rerun, read the new failure, fix the month, rerun,
// stop. Each step is only taken if the last message the model was sent
// holds what the step needs.
var parseDateSteps = []struct {
	needs string
	reply model.Message
}{
	{"", tracktest.Calls("run_tests", `{}`)},
	{"invalid literal for int()", tracktest.Calls("edit_file", `{"path":"dateparse.py","old":"day = int(day)","new":"day = int(day.rstrip(\",\"))"}`)},
	{"edited dateparse.py", tracktest.Calls("run_tests", `{}`)},
	{monthMessage, tracktest.Calls("read_file", `{"path":"dateparse.py"}`)},
	{"return number\n", tracktest.Calls("edit_file", `{"path":"dateparse.py","old":"return number\n","new":"return number + 1\n"}`)},
	{"edited dateparse.py", tracktest.Calls("run_tests", `{}`)},
	{"7/7 passed", tracktest.Text("Fixed the day's trailing comma and the month off by one; the tests pass.")},
}

// ollama is the real Ollama client talking to a fake server playing script.
func ollama(t *testing.T, script ...modeltest.Reply) (model.Chatter, *modeltest.Server) {
	srv := modeltest.NewOllama(t, script...)
	return srv.Client(t), srv
}

func call(name, args string) modeltest.Reply { return modeltest.Calls(modeltest.Call(name, args)) }

// reply turns a scripted model message into a fake server reply.
func reply(m model.Message) modeltest.Reply {
	if len(m.ToolCalls) == 0 {
		return modeltest.Text(m.Content)
	}
	var cs []model.ToolCall
	for _, tc := range m.ToolCalls {
		cs = append(cs, modeltest.Call(tc.Name, tc.Arguments))
	}
	return modeltest.Calls(cs...)
}

// TestOllamaAgentParseDatePasses is the lesson's agent on parse_date through
// the real client (see parseDateSteps).
func TestOllamaAgentParseDatePasses(t *testing.T) {
	t.Parallel()
	chat, srv := ollama(t, modeltest.Always(modeltest.Func(func(r modeltest.Request) modeltest.Reply {
		s := parseDateSteps[r.N]
		if s.needs != "" && !strings.Contains(r.Last().Content, s.needs) {
			t.Errorf("request %d: the last message lacks %q:\n%s", r.N, s.needs, r.Last().Content)
			return modeltest.Text("confused")
		}
		return reply(s.reply)
	})))
	env, rec := tracktest.Fixture(t, "parse_date", chat)
	out := Agent(context.Background(), env)

	if out.Exit != record.ExitDone || out.ModelCalls != len(parseDateSteps) || out.Err != nil {
		t.Fatalf("exit %q after %d calls (%v)", out.Exit, out.ModelCalls, out.Err)
	}
	if want := []string{"run_tests", "edit_file", "run_tests", "read_file", "edit_file", "run_tests"}; !slices.Equal(out.ToolCalls, want) {
		t.Errorf("tool calls = %v, want %v", out.ToolCalls, want)
	}
	runs := rec.Of(record.EventTestRun)
	if len(runs) != 3 || runs[2].TestsTotal != 7 || runs[2].TestsPassed != 7 {
		t.Fatalf("test runs = %+v", runs)
	}
	if runs[1].Turn != 3 || runs[2].Turn != 6 {
		t.Errorf("test runs stamped with turns %d and %d, want 3 and 6", runs[1].Turn, runs[2].Turn)
	}
	if env.TestTime() <= 0 {
		t.Error("test time not accumulated")
	}
	for i, r := range srv.Requests() {
		if last := r.Last(); i > 0 && (last.Role != model.RoleTool || last.ToolName != out.ToolCalls[i-1]) {
			t.Errorf("request %d ends with %+v", i, last)
		}
	}
	if out.Usage.PromptTokens == 0 || out.Usage.EstPromptTokens == 0 || out.ModelTime <= 0 {
		t.Errorf("usage %+v, model time %v", out.Usage, out.ModelTime)
	}
}

func TestOllamaAgentListFilesForever(t *testing.T) {
	t.Parallel()
	chat, srv := ollama(t, modeltest.Always(call("list_files", `{"path":"."}`)))
	env, rec := tracktest.Fixture(t, "word_freq", chat)
	env.MaxTurns = 4
	out := Agent(context.Background(), env)
	if out.Exit != record.ExitMaxTurns || out.Turns != 4 || out.ModelCalls != 5 {
		t.Fatalf("outcome = %+v; want max_turns after 4 turns and 5 calls", out)
	}
	reqs := srv.Requests()
	var without []int
	for i, r := range reqs {
		if len(r.Tools) == 0 {
			without = append(without, i)
		} else if want := []string{"edit_file", "list_files", "read_file", "run_tests", "write_file"}; !slices.Equal(r.Tools, want) {
			t.Errorf("request %d tools = %v", i, r.Tools)
		}
		// Byte-identical system prompt in every request of the episode.
		if r.Messages[0].Role != model.RoleSystem || r.Messages[0].Content != reqs[0].Messages[0].Content {
			t.Errorf("request %d: system prompt differs", i)
		}
	}
	if !slices.Equal(without, []int{len(reqs) - 1}) {
		t.Errorf("requests without tools: %v; want only the last of %d", without, len(reqs))
	}
	if n := len(rec.Of(record.EventWrite)); n != 0 {
		t.Errorf("%d writes", n)
	}
	res, err := env.RunTests(context.Background()) // what grading will see: the bug is still there
	if err != nil || res.AllPassed() {
		t.Errorf("tests after max_turns: passed=%v err=%v", res.AllPassed(), err)
	}
}

func TestOllamaAgentToolErrorsGoBackToTheModel(t *testing.T) {
	t.Parallel()
	outside := t.TempDir()
	chat, srv := ollama(t,
		call("read_file", `{}`),
		call("read_file", `{"path":"leap.py","lines":"1-3"}`),
		call("rm_rf", `{"path":"."}`),
		call("write_file", `{"path":"../escaped.py","content":"x"}`),
		call("write_file", `{"path":"`+filepath.Join(outside, "abs.py")+`","content":"x"}`),
		call("read_file", `{"path":"nope.py"}`),
		call("write_file", `{"path":"test_leap.py","content":"import unittest\n"}`),
		modeltest.Text("Stopping."),
	)
	env, rec := tracktest.Fixture(t, "leap_year", chat)
	out := Agent(context.Background(), env)
	if out.Exit != record.ExitDone || out.ModelCalls != 8 {
		t.Fatalf("outcome = %+v", out)
	}
	reqs := srv.Requests()
	for i := 1; i <= 6; i++ {
		if last := reqs[i].Last(); last.Role != model.RoleTool || !strings.HasPrefix(last.Content, "error: ") {
			t.Errorf("request %d: last message %+v; want an error tool result", i, last)
		}
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("written outside: %v", entries)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(env.Dir), "escaped.py")); err == nil {
		t.Error("written beside the workspace")
	}
	// The agent may write a test file; grading restores it and flags the episode.
	if w := rec.Of(record.EventWrite); len(w) != 1 || w[0].Path != "test_leap.py" {
		t.Errorf("writes = %+v", w)
	}
}

func TestOpenAIAgentMalformedArguments(t *testing.T) {
	t.Parallel()
	srv := modeltest.NewOpenAI(t, call("read_file", `{"path": "leap.py"`), modeltest.Text("Sorry."))
	chat, err := model.New(srv.Config())
	if err != nil {
		t.Fatal(err)
	}
	env, _ := tracktest.Fixture(t, "leap_year", chat)
	out := Agent(context.Background(), env)
	if out.Exit != record.ExitDone || out.ModelCalls != 2 {
		t.Fatalf("outcome = %+v", out)
	}
	if last := srv.Requests()[1].Last(); !strings.HasPrefix(last.Content, "error: read_file: arguments are not a valid JSON object") {
		t.Errorf("tool result = %+v", last)
	}
}

func TestOllamaAgent500MidEpisodeIsRetried(t *testing.T) {
	t.Parallel()
	chat, srv := ollama(t,
		call("list_files", `{"path":"."}`),
		modeltest.Status(500),
		call("read_file", `{"path":"leap.py"}`),
		modeltest.Text("Done looking."),
	)
	env, rec := tracktest.Fixture(t, "leap_year", chat)
	out := Agent(context.Background(), env)
	if out.Exit != record.ExitDone || out.ModelCalls != 3 || !slices.Equal(out.ToolCalls, []string{"list_files", "read_file"}) {
		t.Fatalf("outcome = %+v", out)
	}
	if len(srv.Requests()) != 4 {
		t.Errorf("%d requests reached the server, want 4", len(srv.Requests()))
	}
	if resp := rec.Of(record.EventResponse); resp[1].Retries != 1 {
		t.Errorf("second response retries = %d, want 1", resp[1].Retries)
	}
}

func TestOllamaAgentServerStaysDown(t *testing.T) {
	t.Parallel()
	chat, _ := ollama(t, call("list_files", `{"path":"."}`), modeltest.Always(modeltest.Status(503)))
	env, _ := tracktest.Fixture(t, "leap_year", chat)
	out := Agent(context.Background(), env)
	if out.Exit != record.ExitError || !errors.Is(out.Err, model.ErrServer) || out.ModelCalls != 2 {
		t.Errorf("outcome = %+v; want error from the server on the second call", out)
	}
}

func TestOllamaAgentInterrupted(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	chat, _ := ollama(t, call("list_files", `{"path":"."}`), modeltest.Func(func(modeltest.Request) modeltest.Reply {
		cancel()
		return modeltest.Hang()
	}))
	env, _ := tracktest.Fixture(t, "leap_year", chat)
	if out := Agent(ctx, env); out.Exit != record.ExitInterrupted {
		t.Errorf("outcome = %+v; want interrupted", out)
	}
}

// TestOllamaRequestEstimateMatchesClient: the estimate recorded with each
// request is the figure the client reports as est_prompt_tokens.
func TestOllamaRequestEstimateMatchesClient(t *testing.T) {
	t.Parallel()
	chat, _ := ollama(t, call("list_files", `{"path":"."}`), call("read_file", `{"path":"leap.py"}`), modeltest.Text("ok"))
	env, rec := tracktest.Fixture(t, "leap_year", chat)
	out := Agent(context.Background(), env)
	sum := 0
	for _, r := range rec.Of(record.EventRequest) {
		sum += r.EstTokens
	}
	if sum == 0 || sum != out.Usage.EstPromptTokens {
		t.Errorf("request estimates sum to %d; the client estimated %d", sum, out.Usage.EstPromptTokens)
	}
}

// TestAgentTrajectoryOnDisk records an episode through the real trajectory
// writer and reads it back: every event is on disk, in order, turn-stamped.
func TestAgentTrajectoryOnDisk(t *testing.T) {
	t.Parallel()
	chat, _ := ollama(t, call("read_file", `{"path":"leap.py"}`), call("run_tests", `{}`), modeltest.Text("Looked."))
	env, _ := tracktest.Fixture(t, "leap_year", chat)
	w, err := record.Create(t.TempDir(), record.Run{ID: "test", Model: modeltest.DefaultModel, Tasks: []record.TaskRef{{Name: "leap_year"}}, Tracks: []string{"agent"}, Seeds: []int{1}})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	traj, err := w.Trajectory("leap_year", "agent", 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	env.Rec = traj
	Agent(context.Background(), env)
	if err := traj.Close(); err != nil {
		t.Fatal(err)
	}
	events, warnings, err := record.ReadTrajectory(traj.Path())
	if err != nil || len(warnings) > 0 {
		t.Fatalf("read back: %v %v", err, warnings)
	}
	var got []string
	for i, ev := range events {
		got = append(got, ev.Kind)
		if i > 0 && ev.Seq != events[i-1].Seq+1 {
			t.Errorf("event %d has seq %d after %d", i, ev.Seq, events[i-1].Seq)
		}
	}
	want := []string{"request", "response", "tool_call", "tool_result", "request", "response", "tool_call", "test_run", "tool_result", "request", "response"}
	if !slices.Equal(got, want) {
		t.Errorf("events on disk = %v\nwant %v", got, want)
	}
	if events[7].Turn != 2 || events[7].TestsTotal == 0 {
		t.Errorf("test_run event = %+v", events[7])
	}
}
