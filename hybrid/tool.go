package hybrid

import (
	"cmp"
	"context"
	"fmt"
	"strings"

	"bench/loop"
	"bench/testrun"
	"bench/workflow"
	"bench/workspace"
)

// Shares of loop.ResultCap that each part of the tool's result may take;
// the rest holds its summary lines. A part longer than its share keeps its
// head and tail (loop.CapMiddle).
const (
	fileShare   = 6 << 10 // the file as written, or the reply not used
	afterShare  = 5 << 10 // the test output after
	beforeShare = 3 << 10 // the test output before
)

// tool is run_workflow for the track c.
func (c Config) tool() loop.Tool {
	return loop.Tool{
		Name: ToolName, Description: toolDescription,
		Params: []loop.Param{
			{Name: "file", Description: fileParam, Optional: true},
			{Name: "note", Description: noteParam, Optional: true},
		},
		Run: c.runWorkflow,
	}
}

// runWorkflow runs one pass of the workflow (workflow.Fix) on the agent's
// workspace, in a side conversation of the episode's marked ToolName, on
// env.WorkflowClient. A failure of its model call ends the episode
// (loop.Stop): it is the server's, never the agent's. A test run, a file
// that cannot be read or written, is a tool error, as for the agent's own
// tools.
func (c Config) runWorkflow(ctx context.Context, call loop.Call) (string, error) {
	env := call.Conv.Env()
	file, err := workspace.Clean(cmp.Or(strings.TrimSpace(call.Args["file"]), env.Task.Source))
	if err != nil {
		return "", err
	}
	aside := call.Conv.Aside(workflow.SystemPrompt, ToolName, env.WorkflowClient)
	p, err := workflow.Fix{File: file, Note: call.Args["note"], Naive: c.Naive}.Run(ctx, aside)
	switch p.Stage {
	case "":
		return result(p), nil
	case workflow.StageCall:
		return "", loop.Stop(err)
	case workflow.StageTests, workflow.StageRerun:
		return "", fmt.Errorf("could not run the tests: %w", err)
	}
	return "", err
}

// result is what the agent reads after a pass, as a person would: the
// verdicts before and after and what was written first, then the file as
// written (or the reply that was not used), the test output after and the
// test output before.
func result(p workflow.Pass) string {
	var b strings.Builder
	fmt.Fprintf(&b, "run_workflow on %s\n", p.File)
	fmt.Fprintf(&b, "tests before: %s\n", loop.Verdict(p.Before))
	switch {
	case p.Wrote != "" && p.Fallback:
		fmt.Fprintf(&b, "written: %s, %d bytes (the reply had no FILE: line; its code was written as it came)\n", p.Wrote, len(p.Content))
	case p.Wrote != "":
		fmt.Fprintf(&b, "written: %s, %d bytes\n", p.Wrote, len(p.Content))
	default:
		fmt.Fprintf(&b, "nothing written: %s\n", p.Rejected)
	}
	fmt.Fprintf(&b, "tests after: %s\n", loop.Verdict(p.After))
	if p.Wrote != "" {
		section(&b, "The file as written, "+p.Wrote, p.Content, fileShare)
	} else {
		section(&b, "The workflow's reply, not used", p.Reply, fileShare)
	}
	section(&b, "The test output after", p.After.Normalized, afterShare)
	section(&b, "The test output before", p.Before.Normalized, beforeShare)
	return b.String()
}

// section adds a titled, fenced part of at most share bytes of text.
func section(b *strings.Builder, title, text string, share int) {
	fmt.Fprintf(b, "\n%s:\n%s\n", title, workflow.Fenced(loop.CapMiddle(text, share)))
}

// resultShapes is the fixed wording of the tool's results, filled with
// placeholders, for the prompts digest.
func resultShapes() string {
	res := testrun.Result{Total: 2, Passed: 1, Failed: []string{"<test>"}, Normalized: "<test output>"}
	written := workflow.Pass{File: "<file>", Before: res, After: res, Wrote: "<file>", Content: "<content>"}
	fallback := written
	fallback.Fallback = true
	rejected := workflow.Pass{File: "<file>", Before: res, After: res, Rejected: "<problem>", Reply: "<reply>"}
	return result(written) + result(fallback) + result(rejected)
}
