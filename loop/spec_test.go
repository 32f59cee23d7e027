package loop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"bench/model"
	"bench/record"
	"bench/track/tracktest"
)

// echoTool is an added tool that answers with its arguments.
func echoTool(calls *[]Call) Tool {
	return Tool{Name: "echo", Description: "Echo the arguments.",
		Params: []Param{{Name: "word", Description: "a word"}, {Name: "extra", Description: "more", Optional: true}},
		Run: func(_ context.Context, c Call) (string, error) {
			*calls = append(*calls, c)
			return fmt.Sprintf("word=%q extra=%q", c.Args["word"], c.Args["extra"]), nil
		}}
}

// TestSpecAddsAToolWithOptionalArguments: the added tool is offered beside
// the five, its optional argument may be left out, a missing required one
// is a tool error, and the spec's words follow the standing instruction.
func TestSpecAddsAToolWithOptionalArguments(t *testing.T) {
	var calls []Call
	spec := Spec{Tools: []Tool{echoTool(&calls)}, About: "# Echo\n\nUse echo to echo."}
	chat := &tracktest.FakeChatter{Script: []tracktest.FakeReply{
		tracktest.Say(tracktest.Calls("echo", `{"word":"a"}`, "echo", `{"word":"b","extra":"c"}`, "echo", `{"extra":"c"}`, "echo", `{"word":1}`)),
		tracktest.Say(tracktest.Text("Done.")),
	}}
	env, rec := newEnv(t, chat)
	out := spec.Run(context.Background(), env)
	if out.Exit != record.ExitDone || len(calls) != 2 {
		t.Fatalf("exit %q, %d calls run; want done, 2", out.Exit, len(calls))
	}
	if calls[0].Conv == nil || calls[0].Conv.Env() != env {
		t.Error("the tool did not get the episode's conversation")
	}
	var results []string
	for _, ev := range rec.Of(record.EventToolResult) {
		results = append(results, ev.Result)
	}
	want := []string{`word="a" extra=""`, `word="b" extra="c"`,
		`error: echo: missing argument "word" (expected: word, extra (optional))`, `error: echo: argument "word" must be a string`}
	if !slices.Equal(results, want) {
		t.Errorf("results %q\nwant %q", results, want)
	}
	req := chat.Requests[0]
	if !slices.ContainsFunc(req.Tools, func(t model.Tool) bool { return t.Name == "echo" }) || len(req.Tools) != 6 {
		t.Errorf("offered %d tools; want the five and echo", len(req.Tools))
	}
	var schema struct {
		Required []string `json:"required"`
	}
	for _, tl := range req.Tools {
		if tl.Name == "echo" {
			if err := json.Unmarshal(tl.Parameters, &schema); err != nil || !slices.Equal(schema.Required, []string{"word"}) {
				t.Errorf("echo's schema %s; want only word required", tl.Parameters)
			}
		}
	}
	system := req.Messages[0].Content
	if !strings.HasPrefix(system, systemBase+"\n\n# Echo\n\nUse echo to echo.") {
		t.Errorf("system prompt does not carry the spec's words after the instruction:\n%s", system)
	}
	if !strings.Contains(spec.Prompts(), "Use echo to echo.") || !strings.Contains(spec.Prompts(), `"name":"echo"`) || spec.Prompts() == Prompts() {
		t.Error("the spec's prompts digest text does not cover its words and its tool")
	}
}

// TestStopEndsTheEpisode: a tool error wrapped by Stop ends the loop with
// the error (its kind kept for the runner), after its result is recorded;
// the same error unwrapped goes back to the model.
func TestStopEndsTheEpisode(t *testing.T) {
	for _, stop := range []bool{true, false} {
		fail := Tool{Name: "fail", Description: "Fail.", Run: func(context.Context, Call) (string, error) {
			err := fmt.Errorf("the inner call: %w", model.ErrServer)
			if stop {
				return "", Stop(err)
			}
			return "", err
		}}
		chat := &tracktest.FakeChatter{Script: []tracktest.FakeReply{
			tracktest.Say(tracktest.Calls("fail", `{}`, "list_files", `{"path":"."}`)),
			tracktest.Say(tracktest.Text("Done.")),
		}}
		env, rec := newEnv(t, chat)
		out := Spec{Tools: []Tool{fail}}.Run(context.Background(), env)
		res := rec.Of(record.EventToolResult)
		if stop {
			if out.Exit != record.ExitError || !errors.Is(out.Err, model.ErrServer) || len(res) != 1 || out.ModelCalls != 1 {
				t.Errorf("stopped: exit %q, err %v, %d results, %d calls; want error after the one result", out.Exit, out.Err, len(res), out.ModelCalls)
			}
			continue
		}
		if out.Exit != record.ExitDone || out.Err != nil || len(res) != 2 || !res[0].IsError {
			t.Errorf("not stopped: exit %q, err %v, %d results; want the error shown and the loop going on", out.Exit, out.Err, len(res))
		}
	}
}

// TestTokenBudgetCountsAToolsModelCalls: the calls a tool makes in a side
// conversation count against --token-limit, and the loop stops after the
// tool once they reach it.
func TestTokenBudgetCountsAToolsModelCalls(t *testing.T) {
	editor := &tracktest.FakeChatter{Next: func(int, model.Request) tracktest.FakeReply {
		return tracktest.FakeReply{Msg: tracktest.Text("inner"), Usage: model.Usage{PromptTokens: 150, CompletionTokens: 50}}
	}}
	ask := Tool{Name: "ask", Description: "Ask.", Run: func(ctx context.Context, c Call) (string, error) {
		a := c.Conv.Aside("inner system", "ask", editor)
		a.Add(model.Message{Role: model.RoleUser, Content: "go"})
		_, err := a.Call(ctx, nil)
		return "asked", err
	}}
	chat := &tracktest.FakeChatter{Next: func(int, model.Request) tracktest.FakeReply {
		return tracktest.FakeReply{Msg: tracktest.Calls("ask", `{}`), Usage: model.Usage{PromptTokens: 40, CompletionTokens: 10}}
	}}
	env, _ := newEnv(t, chat)
	env.TokenLimit = 250
	out := Spec{Tools: []Tool{ask}}.Run(context.Background(), env)
	if out.Exit != record.ExitTokenBudget || out.Turns != 1 || out.ModelCalls != 2 || out.WorkflowCalls != 1 || out.Usage.Total() != 250 {
		t.Errorf("exit %q after %d turns, %d calls (%d the tool's), %d tokens; want token_budget after the first tool: 1, 2 (1), 250",
			out.Exit, out.Turns, out.ModelCalls, out.WorkflowCalls, out.Usage.Total())
	}
}

// TestAddedToolCannotShadowTheAgents: an added tool named like one of the
// five is refused when the registry is built.
func TestAddedToolCannotShadowTheAgents(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "run_tests") {
			t.Errorf("recovered %v; want a refusal naming run_tests", r)
		}
	}()
	newRegistry([]Tool{{Name: "run_tests"}})
}
