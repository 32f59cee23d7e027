package workflow

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"bench/model/modeltest"
	"bench/record"
	"bench/track/tracktest"
)

// TestOllamaRetrySpendingEveryTryEndsWithMaxTurns: workflow-retry that
// writes a fix on every try without the tests passing ran out of budget.
func TestOllamaRetrySpendingEveryTryEndsWithMaxTurns(t *testing.T) {
	t.Parallel()
	env, rec := tracktest.Fixture(t, "parse_date", nil)
	partial := fileReply("dateparse.py", tracktest.ReadOverlay(t, env, "partial", "dateparse.py"))
	env.Model, _ = ollama(t, modeltest.Text(partial), modeltest.Text(partial))
	out := Retry(context.Background(), env)
	if out.Exit != record.ExitMaxTurns || out.ModelCalls != record.DefaultTries || out.Err != nil {
		t.Errorf("outcome = %+v; want max_turns after %d calls", out, record.DefaultTries)
	}
	if n := len(rec.Of(record.EventTestRun)); n != record.DefaultTries+1 {
		t.Errorf("%d test runs, want %d", n, record.DefaultTries+1)
	}
}

// TestOllamaRetryPassingOnTheLastTryIsDone: the budget was enough; the
// second try's request carries the test output of the first try's edit
// (the masked month bug), and the last test run passes.
func TestOllamaRetryPassingOnTheLastTryIsDone(t *testing.T) {
	t.Parallel()
	env, rec := tracktest.Fixture(t, "parse_date", nil)
	partial := fileReply("dateparse.py", tracktest.ReadOverlay(t, env, "partial", "dateparse.py"))
	solution := fileReply("dateparse.py", tracktest.ReadOverlay(t, env, "solution", "dateparse.py"))
	var srv *modeltest.Server
	env.Model, srv = ollama(t, modeltest.Text(partial), modeltest.Text(solution))
	if out := Retry(context.Background(), env); out.Exit != record.ExitDone || out.ModelCalls != 2 {
		t.Fatalf("outcome = %+v; want done after 2 calls", out)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	if second := reqs[1].Messages; !strings.Contains(second[len(second)-1].Content, monthMessage) {
		t.Errorf("the second attempt lacks the new test output:\n%s", second[len(second)-1].Content)
	}
	if final := lastTestRun(t, rec); final.TestsPassed != final.TestsTotal {
		t.Errorf("final test run %d of %d", final.TestsPassed, final.TestsTotal)
	}
}

// TestOllamaWorkflowCutReplyIsRecordedAsCut: a reply the server cut off at
// the reply cap carries the stop reason "length" in its response event.
func TestOllamaWorkflowCutReplyIsRecordedAsCut(t *testing.T) {
	t.Parallel()
	env, rec := tracktest.Fixture(t, "slugify", nil)
	env.Model, _ = ollama(t, modeltest.Text("FILE: slugify.py\n```python\nimport re\n\ndef slug").WithDoneReason("length"))
	out := Workflow(context.Background(), env)
	if out.Exit != record.ExitDone {
		t.Fatalf("outcome = %+v", out)
	}
	if resp := rec.Of(record.EventResponse); len(resp) != 1 || resp[0].StopReason != "length" {
		t.Errorf("response events = %+v; want one with stop reason length", resp)
	}
}

// TestOllamaRetryCutReplyIsRejectedAsCut: workflow-retry names the cut
// when it rejects a reply whose code block the reply cap cut off.
func TestOllamaRetryCutReplyIsRejectedAsCut(t *testing.T) {
	t.Parallel()
	env, rec := tracktest.Fixture(t, "slugify", nil)
	cut := modeltest.Text("FILE: slugify.py\n```python\nimport re\n\ndef slug").WithDoneReason("length")
	var srv *modeltest.Server
	env.Model, srv = ollama(t, cut, cut)
	out := Retry(context.Background(), env)
	if out.Exit != record.ExitMaxTurns {
		t.Errorf("exit = %q, want max_turns", out.Exit)
	}
	rej := rec.Of(record.EventReject)
	if len(rej) != 2 || !strings.Contains(rej[0].Reason, "cut off at the reply cap") {
		t.Errorf("reject events = %+v", rej)
	}
	if ask := srv.Requests()[1].Last().Content; !strings.Contains(ask, "cut off at the reply cap") {
		t.Errorf("the second request does not say the reply was cut:\n%s", ask)
	}
	var reasons []string
	for _, ev := range rec.Of(record.EventResponse) {
		reasons = append(reasons, ev.StopReason)
	}
	if !slices.Equal(reasons, []string{"length", "length"}) {
		t.Errorf("stop reasons = %v", reasons)
	}
}

// TestWorkflowDoesNotWriteThroughAHardLink: when the source file is a hard
// link to a file outside the workspace, the write is rejected and the
// outside file keeps its content.
func TestWorkflowDoesNotWriteThroughAHardLink(t *testing.T) {
	t.Parallel()
	env, rec := tracktest.Fixture(t, "slugify", nil)
	src := filepath.Join(env.Dir, "slugify.py")
	victim := filepath.Join(t.TempDir(), "victim.py")
	if err := os.Rename(src, victim); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(victim, src); err != nil {
		t.Skipf("link: %v", err)
	}
	before, _ := os.ReadFile(victim)
	env.Model, _ = ollama(t, modeltest.Text(fileReply("slugify.py", "x = 1\n")))
	if out := Workflow(context.Background(), env); out.Exit != record.ExitDone {
		t.Errorf("outcome = %+v", out)
	}
	if after, _ := os.ReadFile(victim); string(after) != string(before) {
		t.Errorf("the file outside the workspace changed to %q", after)
	}
	if rej := rec.Of(record.EventReject); len(rej) != 1 || !strings.Contains(rej[0].Reason, "hard links") {
		t.Errorf("reject events = %+v", rej)
	}
}
