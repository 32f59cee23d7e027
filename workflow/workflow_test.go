package workflow

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"bench/model"
	"bench/record"
	"bench/track"
	"bench/track/tracktest"
	"bench/workspace"
)

// monthMessage is what parse_date's second bug prints once the first is fixed.
const monthMessage = "datetime.date(2024, 2, 5) != datetime.date(2024, 3, 5)"

// slugifyFunctionOnly is a reply holding only the fixed function, as in the lesson.
const slugifyFunctionOnly = "The function should lower-case its input first:\n\n```python\n" +
	"def slugify(text, sep=\"-\"):\n    words = re.findall(r\"[a-z0-9]+\", text.lower())\n    return sep.join(words)\n```\n"

func fileReply(path, body string) string {
	return "FILE: " + path + "\n```python\n" + body + "```\n"
}

func lastTestRun(t *testing.T, rec *tracktest.FakeRecorder) record.Event {
	t.Helper()
	runs := rec.Of(record.EventTestRun)
	if len(runs) == 0 {
		t.Fatal("no test run recorded")
	}
	return runs[len(runs)-1]
}

func TestWorkflowParseDateFixesOnlyThePointedLine(t *testing.T) {
	t.Parallel()
	env, rec, sent := onFixture(t, "parse_date", func(env *track.Env) []string {
		return []string{fileReply("dateparse.py", tracktest.ReadOverlay(t, env, "partial", "dateparse.py"))}
	})
	out := Workflow(context.Background(), env)

	if out.Exit != record.ExitDone || out.Err != nil || out.ModelCalls != 1 || out.Turns != 1 {
		t.Fatalf("outcome = %+v; want done after one call", out)
	}
	// Step 1's output and the source file are in the one request.
	reqs := sent()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	req := reqs[0]
	if len(req.Tools) != 0 || len(req.Messages) != 2 || req.Messages[0].Role != model.RoleSystem {
		t.Fatalf("request = %+v", req)
	}
	user := req.Messages[1].Content
	if !strings.Contains(user, "invalid literal for int()") || !strings.Contains(user, "def month_number(name):") || !strings.Contains(user, "FILE: dateparse.py") {
		t.Errorf("the prompt lacks the test output, the source or the format:\n%s", user)
	}
	if strings.Contains(user, env.Dir) {
		t.Errorf("the prompt shows the workspace's absolute path")
	}
	if w := rec.Of(record.EventWrite); len(w) != 1 || w[0].Path != "dateparse.py" {
		t.Errorf("write events = %+v", w)
	}
	final := lastTestRun(t, rec)
	if len(rec.Of(record.EventTestRun)) != 2 || !strings.Contains(final.Output, monthMessage) || final.TestsPassed == final.TestsTotal {
		t.Errorf("final test run: %d of %d passed, output:\n%s", final.TestsPassed, final.TestsTotal, final.Output)
	}
	wantKinds := []string{"test_run", "request", "response", "write", "test_run"}
	if got := rec.Kinds(); !slices.Equal(got, wantKinds) {
		t.Errorf("events = %v, want %v", got, wantKinds)
	}
}

func TestWorkflowSlugifyFallbackLosesImport(t *testing.T) {
	t.Parallel()
	env, rec, _ := onFixture(t, "slugify", func(*track.Env) []string { return []string{slugifyFunctionOnly} })
	out := Workflow(context.Background(), env)
	if out.Exit != record.ExitDone {
		t.Fatalf("exit = %q (%v)", out.Exit, out.Err)
	}
	got, _ := os.ReadFile(filepath.Join(env.Dir, "slugify.py"))
	if strings.Contains(string(got), "import re") || !strings.HasPrefix(string(got), "def slugify") {
		t.Errorf("slugify.py after the fallback:\n%s", got)
	}
	fb := rec.Of(record.EventFallbackWrite)
	if len(fb) != 1 || fb[0].Path != "slugify.py" || fb[0].Bytes != len(got) || !strings.Contains(fb[0].Reason, "first code block") {
		t.Errorf("fallback_write events = %+v", fb)
	}
	if final := lastTestRun(t, rec); !strings.Contains(final.Output, "name 're' is not defined") || final.TestsPassed == final.TestsTotal {
		t.Errorf("final test run: %d of %d passed, output:\n%s", final.TestsPassed, final.TestsTotal, final.Output)
	}
}

func TestWorkflowFallbackWithoutCodeBlockWritesWholeReply(t *testing.T) {
	t.Parallel()
	reply := "Change line 6 so that it lower-cases the text."
	chat := &tracktest.FakeChatter{Script: []tracktest.FakeReply{tracktest.Say(tracktest.Text(reply))}}
	env, rec := tracktest.Fixture(t, "slugify", chat)
	Workflow(context.Background(), env)
	if got, _ := os.ReadFile(filepath.Join(env.Dir, "slugify.py")); string(got) != reply {
		t.Errorf("slugify.py = %q, want the whole reply", got)
	}
	if fb := rec.Of(record.EventFallbackWrite); len(fb) != 1 || !strings.Contains(fb[0].Reason, "whole reply") {
		t.Errorf("fallback_write events = %+v", fb)
	}
}

func TestWorkflowRejectsPathOutsideWorkspace(t *testing.T) {
	t.Parallel()
	outside := t.TempDir()
	for _, path := range []string{"../escape.py", filepath.Join(outside, "escape.py")} {
		chat := &tracktest.FakeChatter{Script: []tracktest.FakeReply{tracktest.Say(tracktest.Text(fileReply(path, "x = 1\n")))}}
		env, rec := tracktest.Fixture(t, "slugify", chat)
		out := Workflow(context.Background(), env)
		if out.Exit != record.ExitDone {
			t.Errorf("%s: exit = %q", path, out.Exit)
		}
		if r := rec.Of(record.EventReject); len(r) != 1 || !strings.Contains(r[0].Reason, "outside the workspace") {
			t.Errorf("%s: reject events = %+v", path, r)
		}
		if n := len(rec.Of(record.EventWrite)) + len(rec.Of(record.EventFallbackWrite)); n != 0 {
			t.Errorf("%s: %d writes recorded", path, n)
		}
		if _, err := os.Stat(filepath.Join(filepath.Dir(env.Dir), "escape.py")); err == nil {
			t.Errorf("%s: a file was written beside the workspace", path)
		}
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("files written outside: %v", entries)
	}
}

func TestWorkflowModelErrorEndsWithError(t *testing.T) {
	t.Parallel()
	boom := errors.New("server down")
	chat := &tracktest.FakeChatter{Script: []tracktest.FakeReply{{Err: boom}}}
	env, rec := tracktest.Fixture(t, "slugify", chat)
	out := Workflow(context.Background(), env)
	if out.Exit != record.ExitError || !errors.Is(out.Err, boom) {
		t.Errorf("outcome = %+v; want error", out)
	}
	if n := len(rec.Of(record.EventTestRun)); n != 1 {
		t.Errorf("%d test runs; want only the first", n)
	}
}

func TestWorkflowInterrupted(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	env, _ := tracktest.Fixture(t, "slugify", &tracktest.FakeChatter{})
	if out := Workflow(ctx, env); out.Exit != record.ExitInterrupted {
		t.Errorf("exit = %q, want interrupted", out.Exit)
	}
}

func TestRetrySlugifyRejectsFunctionOnlyAndAsksAgain(t *testing.T) {
	t.Parallel()
	var solution string
	env, rec, sent := onFixture(t, "slugify", func(env *track.Env) []string {
		solution = tracktest.ReadOverlay(t, env, "solution", "slugify.py")
		return []string{slugifyFunctionOnly, fileReply("slugify.py", solution)}
	})
	original, _ := os.ReadFile(filepath.Join(env.Dir, "slugify.py"))
	out := Retry(context.Background(), env)

	if out.Exit != record.ExitDone || out.ModelCalls != 2 || out.Turns != 2 {
		t.Fatalf("outcome = %+v; want done after two calls", out)
	}
	rej := rec.Of(record.EventReject)
	if len(rej) != 1 || !strings.Contains(rej[0].Reason, "FILE:") {
		t.Fatalf("reject events = %+v", rej)
	}
	// Nothing was written for the rejected reply: the first write is the second reply's.
	kinds := rec.Kinds()
	if i, j := slices.Index(kinds, "reject"), slices.Index(kinds, "write"); i < 0 || j < i {
		t.Errorf("events = %v; want the reject before any write", kinds)
	}
	if n := len(rec.Of(record.EventFallbackWrite)); n != 0 {
		t.Errorf("%d fallback writes", n)
	}
	// The second request names what was wrong and keeps the system prompt.
	reqs := sent()
	second := reqs[1].Messages
	if second[0].Content != reqs[0].Messages[0].Content {
		t.Errorf("the system prompt changed between attempts")
	}
	if ask := second[len(second)-1]; ask.Role != model.RoleUser || !strings.Contains(ask.Content, "nothing was written") || !strings.Contains(ask.Content, "FILE:") {
		t.Errorf("the retry request ends with %+v", ask)
	}
	got, _ := os.ReadFile(filepath.Join(env.Dir, "slugify.py"))
	if string(got) != solution || string(got) == string(original) {
		t.Errorf("slugify.py is not the accepted reply:\n%s", got)
	}
	if final := lastTestRun(t, rec); final.TestsPassed != final.TestsTotal || final.TestsTotal == 0 {
		t.Errorf("final test run %d of %d:\n%s", final.TestsPassed, final.TestsTotal, final.Output)
	}
}

func TestRetryRejectsEveryMalformedReplyAndWritesNothing(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, reply, reason string }{
		{"no marker", slugifyFunctionOnly, "no \"FILE: <path>\" line"},
		{"other file", fileReply("other.py", "x = 1\n"), "names other.py, but the file to fix is slugify.py"},
		{"escape", fileReply("../slugify.py", "x = 1\n"), "outside the workspace"},
		{"two blocks", "FILE: slugify.py\n```\na\n```\n```\nb\n```\n", "2 code blocks"},
		{"no block", "FILE: slugify.py\nimport re\n", "0 code blocks"},
	} {
		chat := &tracktest.FakeChatter{Next: func(int, model.Request) tracktest.FakeReply { return tracktest.Say(tracktest.Text(tc.reply)) }}
		env, rec := tracktest.Fixture(t, "slugify", chat)
		env.Tries = 3
		original, _ := os.ReadFile(filepath.Join(env.Dir, "slugify.py"))
		out := Retry(context.Background(), env)
		if out.Exit != record.ExitMaxTurns || out.ModelCalls != 3 {
			t.Errorf("%s: exit %q after %d calls; want max_turns after 3", tc.name, out.Exit, out.ModelCalls)
		}
		rej := rec.Of(record.EventReject)
		if len(rej) != 3 || !strings.Contains(rej[0].Reason, tc.reason) {
			t.Errorf("%s: reject events = %+v; want 3 with %q", tc.name, rej, tc.reason)
		}
		if got, _ := os.ReadFile(filepath.Join(env.Dir, "slugify.py")); string(got) != string(original) {
			t.Errorf("%s: slugify.py changed", tc.name)
		}
		if n := len(rec.Of(record.EventWrite)) + len(rec.Of(record.EventFallbackWrite)); n != 0 {
			t.Errorf("%s: %d writes", tc.name, n)
		}
		if n := len(rec.Of(record.EventTestRun)); n != 1 {
			t.Errorf("%s: %d test runs; nothing changed after the first", tc.name, n)
		}
		if ask := chat.Requests[1].Messages[len(chat.Requests[1].Messages)-1].Content; !strings.Contains(ask, tc.reason) {
			t.Errorf("%s: the second request does not name the problem:\n%s", tc.name, ask)
		}
	}
}

func TestRetryStopsWhenTestsPass(t *testing.T) {
	t.Parallel()
	chat := &tracktest.FakeChatter{}
	env, _ := tracktest.Fixture(t, "slugify", chat)
	solution := tracktest.ReadOverlay(t, env, "solution", "slugify.py")
	chat.Next = func(int, model.Request) tracktest.FakeReply {
		return tracktest.Say(tracktest.Text(fileReply("slugify.py", solution)))
	}
	env.Tries = 5
	if out := Retry(context.Background(), env); out.ModelCalls != 1 {
		t.Errorf("%d calls; the evaluator should stop after the first passing write", out.ModelCalls)
	}
}

func TestRetryDefaultTries(t *testing.T) {
	t.Parallel()
	chat := &tracktest.FakeChatter{Next: func(int, model.Request) tracktest.FakeReply { return tracktest.Say(tracktest.Text("no idea")) }}
	env, _ := tracktest.Fixture(t, "slugify", chat)
	if out := Retry(context.Background(), env); out.ModelCalls != record.DefaultTries || out.Exit != record.ExitMaxTurns {
		t.Errorf("%d calls, exit %q; want %d and max_turns", out.ModelCalls, out.Exit, record.DefaultTries)
	}
}

// TestWorkflowRefusesAnOversizedFile: a reply larger than workspace.MaxFileBytes
// is rejected, not written.
func TestWorkflowRefusesAnOversizedFile(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("x", workspace.MaxFileBytes) + "\n"
	env, rec, _ := onFixture(t, "leap_year", func(*track.Env) []string { return []string{fileReply("leap.py", big)} })
	before, _ := os.ReadFile(filepath.Join(env.Dir, "leap.py"))
	Workflow(context.Background(), env)
	if after, _ := os.ReadFile(filepath.Join(env.Dir, "leap.py")); string(after) != string(before) {
		t.Errorf("leap.py was overwritten with %d bytes", len(after))
	}
	if rej := rec.Of(record.EventReject); len(rej) != 1 || !strings.Contains(rej[0].Reason, "the most a file may hold") {
		t.Errorf("reject events = %+v", rej)
	}
}
