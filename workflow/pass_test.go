package workflow

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
	"bench/track"
	"bench/track/tracktest"
)

// asidePass runs f as the hybrid's tool does: in a side conversation of the
// episode's, marked "run_workflow".
func asidePass(t *testing.T, env *track.Env, f Fix) (Pass, track.Outcome, error) {
	t.Helper()
	conv := track.NewConversation(env, "the agent's system prompt")
	p, err := f.Run(context.Background(), conv.Aside(SystemPrompt, "run_workflow", nil))
	return p, conv.End(record.ExitDone, nil), err
}

// TestPassAsAToolIsStrictAndMarked runs the parse_date partial fix as a
// pass in a side conversation: the pass reports the tests before and after
// and the file written, every event it made is marked, and its one call
// counts as a workflow call of the episode.
func TestPassAsAToolIsStrictAndMarked(t *testing.T) {
	fixture.ParallelPython(t)
	env, rec, sent := onFixture(t, "parse_date", func(env *track.Env) []string {
		return []string{fileReply("dateparse.py", tracktest.ReadOverlay(t, env, "partial", "dateparse.py"))}
	})
	p, out, err := asidePass(t, env, Fix{Note: "The month looks off by one too."})
	if err != nil || p.Stage != "" {
		t.Fatalf("pass stopped at %q: %v", p.Stage, err)
	}
	if p.File != "dateparse.py" || p.Wrote != "dateparse.py" || p.Fallback || p.Rejected != "" || !p.Reran {
		t.Errorf("pass = %+v; want dateparse.py written and the tests rerun", p)
	}
	if strings.Contains(p.Before.Normalized, monthMessage) || p.After.Passed == p.After.Total || !strings.Contains(p.After.Normalized, monthMessage) {
		t.Errorf("tests before %d/%d, after %d/%d (%q); want the masked month bug showing only after",
			p.Before.Passed, p.Before.Total, p.After.Passed, p.After.Total, p.After.Normalized)
	}
	if out.ModelCalls != 1 || out.WorkflowCalls != 1 || out.Usage.Total() == 0 || out.WorkflowUsage != out.Usage {
		t.Errorf("outcome %+v; want the one call counted once, as the workflow's", out)
	}
	user := sent()[0].Messages[1].Content
	if !strings.Contains(user, "adds a note:\n\n```\nThe month looks off by one too.\n```") {
		t.Errorf("the request lacks the note:\n%s", user)
	}
	var kinds []string
	for _, ev := range rec.Events {
		if ev.Within != "run_workflow" {
			t.Errorf("event %s is not marked as the workflow's: %+v", ev.Kind, ev)
		}
		kinds = append(kinds, ev.Kind)
	}
	if want := []string{"test_run", "request", "response", "write", "test_run"}; !slices.Equal(kinds, want) {
		t.Errorf("events %v, want %v", kinds, want)
	}
}

// TestPassWithoutNoteSendsTheWorkflowsRequest: with no note (or a blank
// one) the pass sends exactly the workflow track's request.
func TestPassWithoutNoteSendsTheWorkflowsRequest(t *testing.T) {
	fixture.ParallelPython(t)
	var requests []string
	for _, note := range []string{"", " \n\t"} {
		env, _, sent := onFixture(t, "leap_year", func(env *track.Env) []string {
			return []string{fileReply("leap.py", tracktest.ReadOverlay(t, env, "solution", "leap.py"))}
		})
		if _, _, err := asidePass(t, env, Fix{Note: note}); err != nil {
			t.Fatal(err)
		}
		requests = append(requests, sent()[0].Messages[1].Content)
	}
	env, _, sent := onFixture(t, "leap_year", func(env *track.Env) []string {
		return []string{fileReply("leap.py", tracktest.ReadOverlay(t, env, "solution", "leap.py"))}
	})
	Workflow(context.Background(), env)
	wf := sent()[0].Messages[1].Content
	if requests[0] != wf || requests[1] != wf || strings.Contains(wf, "note") {
		t.Errorf("the pass's requests\n%q\n%q\ndiffer from the workflow's\n%q", requests[0], requests[1], wf)
	}
}

// TestStrictPassRejectsWhatTheNaiveOneWrites: slugify's function-only reply
// is written by the naive fallback over the file to fix and rejected by the
// strict pass, which writes nothing and still reruns the tests.
func TestStrictPassRejectsWhatTheNaiveOneWrites(t *testing.T) {
	fixture.ParallelPython(t)
	for _, naive := range []bool{false, true} {
		env, rec, _ := onFixture(t, "slugify", func(*track.Env) []string { return []string{slugifyFunctionOnly} })
		before, _ := os.ReadFile(filepath.Join(env.Dir, "slugify.py"))
		p, _, err := asidePass(t, env, Fix{Naive: naive})
		if err != nil || !p.Reran {
			t.Fatalf("naive %v: %v, reran %v", naive, err, p.Reran)
		}
		after, _ := os.ReadFile(filepath.Join(env.Dir, "slugify.py"))
		if naive {
			if !p.Fallback || p.Wrote != "slugify.py" || strings.Contains(string(after), "import re") || len(rec.Of(record.EventFallbackWrite)) != 1 {
				t.Errorf("naive pass %+v wrote %q; want the function alone over slugify.py", p, after)
			}
			continue
		}
		if p.Wrote != "" || p.Fallback || !strings.Contains(p.Rejected, "FILE:") || string(after) != string(before) {
			t.Errorf("strict pass %+v changed the file to %q; want nothing written", p, after)
		}
		if r := rec.Of(record.EventReject); len(r) != 1 || r[0].Within != "run_workflow" {
			t.Errorf("rejects %+v; want one, marked", r)
		}
		if p.After.Passed != p.Before.Passed || len(rec.Of(record.EventTestRun)) != 2 {
			t.Errorf("tests before %d, after %d; want the same, run twice", p.Before.Passed, p.After.Passed)
		}
	}
}

// TestPassOfAnotherFileIsStrictAboutIt: the file to fix decides the
// request and the FILE: line the strict pass accepts.
func TestPassOfAnotherFileIsStrictAboutIt(t *testing.T) {
	fixture.ParallelPython(t)
	env, _, sent := onFixture(t, "parse_date", func(*track.Env) []string {
		return []string{fileReply("dateparse.py", "x = 1\n"), fileReply("README.md", "# fixed\n")}
	})
	p, _, err := asidePass(t, env, Fix{File: "README.md"})
	if err != nil || p.Wrote != "" || !strings.Contains(p.Rejected, "the file to fix is README.md") {
		t.Fatalf("pass %+v, %v; want the dateparse.py reply rejected", p, err)
	}
	if user := sent()[0].Messages[1].Content; !strings.Contains(user, "The file to fix is README.md") || !strings.Contains(user, `"FILE: README.md"`) {
		t.Errorf("the request is not about README.md:\n%s", user)
	}
	p, _, err = asidePass(t, env, Fix{File: "./README.md"})
	if err != nil || p.Wrote != "README.md" || p.Rejected != "" {
		t.Errorf("pass %+v, %v; want README.md written", p, err)
	}
}

// TestPassStages: each failing step stops the pass and is named.
func TestPassStages(t *testing.T) {
	fixture.ParallelPython(t)
	env, _ := tracktest.Fixture(t, "leap_year", &tracktest.FakeChatter{Script: []tracktest.FakeReply{{Err: model.ErrServer}}})
	p, out, err := asidePass(t, env, Fix{})
	if !errors.Is(err, model.ErrServer) || p.Stage != StageCall || out.ModelCalls != 1 || out.WorkflowCalls != 1 {
		t.Errorf("stage %q, %v, %d calls; want the call's failure, counted", p.Stage, err, out.ModelCalls)
	}
	p, _, err = asidePass(t, env, Fix{File: "missing.py"})
	if err == nil || p.Stage != StageRead || !strings.Contains(err.Error(), "read the file to fix missing.py") {
		t.Errorf("stage %q, %v; want a read failure naming the file", p.Stage, err)
	}
	p, _, err = asidePass(t, env, Fix{File: "../outside.py"})
	if err == nil || p.Stage != StageRead {
		t.Errorf("stage %q, %v; want a path outside the workspace refused", p.Stage, err)
	}
}
