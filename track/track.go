// Package track holds what every track shares: the episode environment it
// runs in and the outcome it reports. Grading happens afterwards, in runner.
package track

import (
	"context"
	"time"

	"bench/model"
	"bench/record"
	"bench/tasks"
	"bench/testrun"
)

// Env is everything a track may touch during one episode.
type Env struct {
	Task    tasks.Task
	Dir     string // absolute path of the episode's workspace
	Model   model.Chatter
	Options model.Options // what every request sends: the sampling settings and the episode's seed
	// RunSettings are the run's settings; a track reads its budgets
	// there: MaxTurns (agent: model turns before the final call without
	// tools; 0 = the loop's default), TokenLimit (agent: backend-reported
	// tokens per episode; 0 = no limit), Tries (workflow-retry: attempts).
	// Its WorkflowModel is the name of the model WorkflowClient asks.
	record.RunSettings
	// MaxToolCalls caps the tool calls run from one reply (agent); 0 means
	// the loop's default.
	MaxToolCalls int
	Guidance     string // coding guidance for the system prompt; "" keeps the general posture
	Snapshot     string // workspace snapshot for the system prompt; may be ""
	// WorkflowClient is the client of the model the hybrid's run_workflow
	// tool asks (the editor to the agent's architect); nil asks Model.
	WorkflowClient model.Chatter
	Rec            record.Recorder

	testTime time.Duration
}

// Outcome is what a track reports when it stops.
type Outcome struct {
	Exit       record.ExitReason // one of the record.Exit* reasons
	Turns      int
	ModelCalls int
	ToolCalls  []string // tool names in the order they were called
	Steps      []string // a short digest of each model reply
	Usage      model.Usage
	ModelTime  time.Duration
	// WorkflowCalls and WorkflowUsage are the share of ModelCalls and Usage
	// spent by side conversations (Conversation.Aside): the workflow the
	// hybrid agent runs as a tool. They are part of ModelCalls and Usage,
	// not added to them.
	WorkflowCalls int
	WorkflowUsage model.Usage
	Err           error

	spent int // tokens against the budget (Conversation.Spent)
}

// Func is a track: it runs one episode in env and says how it stopped.
type Func func(ctx context.Context, env *Env) Outcome

// RunTests runs the task's test command in the workspace, records a
// test_run event and adds the run's duration to TestTime.
func (e *Env) RunTests(ctx context.Context) (testrun.Result, error) { return e.runTests(ctx, e.Rec) }

// runTests is RunTests recording into rec.
func (e *Env) runTests(ctx context.Context, rec record.Recorder) (testrun.Result, error) {
	res, err := testrun.RunTask(ctx, e.Task, e.Dir)
	e.testTime += res.Duration
	ev := record.Event{Kind: record.EventTestRun, TestsPassed: res.Passed, TestsTotal: res.Total, Output: res.Normalized}
	if err != nil {
		ev.Error = err.Error()
	}
	rec.Record(ev)
	return res, err
}

// TestTime is the time spent in test subprocesses during the episode so far.
func (e *Env) TestTime() time.Duration { return e.testTime }

// Track describes one track for the registry that the runner, the report
// and the command line all read.
type Track struct {
	Name        string // the command-line word, a contract of the results format
	Run         Func
	NeedsModel  bool     // calls the model (every track but the oracle)
	UsesTools   bool     // offers the model tools, which a model without tool support cannot take
	UsesPosture bool     // gets the coding guidance and snapshot that --posture decides
	ComparedTo  []string // tracks this one is paired with per task (token ratio, McNemar)
	// Delegates says the track asks Env.WorkflowClient (the hybrid's
	// run_workflow), which --workflow-model may make a second model.
	Delegates bool
	// Prompts is the fixed text the track sends (prompts and tool schemas);
	// its digest is a run setting, so runs with different prompts are never twins.
	Prompts string
}
