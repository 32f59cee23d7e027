package loop

import (
	"context"
	"slices"
	"strings"
	"testing"

	"bench/model"
	"bench/results"
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
	{"", calls("run_tests", `{}`)},
	{"invalid literal for int()", calls("edit_file", `{"path":"dateparse.py","old":"day = int(day)","new":"day = int(day.rstrip(\",\"))"}`)},
	{"edited dateparse.py", calls("run_tests", `{}`)},
	{monthMessage, calls("read_file", `{"path":"dateparse.py"}`)},
	{"return number\n", calls("edit_file", `{"path":"dateparse.py","old":"return number\n","new":"return number + 1\n"}`)},
	{"edited dateparse.py", calls("run_tests", `{}`)},
	{"summary: 7 of 7 tests passed, exit code 0", text("Fixed the day's trailing comma and the month off by one; the tests pass.")},
}

func TestAgentParseDateFindsTheSecondBug(t *testing.T) {
	t.Parallel()
	chat := &fakeChatter{next: func(call int, req model.Request) fakeReply {
		s := parseDateSteps[call]
		if last := req.Messages[len(req.Messages)-1]; s.needs != "" && !strings.Contains(last.Content, s.needs) {
			t.Errorf("call %d: the last message lacks %q:\n%s", call, s.needs, last.Content)
			return say(text("confused"))
		}
		return say(s.reply)
	}}
	env, rec := fixture(t, "parse_date", chat)
	out := Agent(context.Background(), env)

	if out.Exit != results.ExitDone || out.ModelCalls != len(parseDateSteps) || out.Err != nil {
		t.Fatalf("exit %q after %d calls (%v)", out.Exit, out.ModelCalls, out.Err)
	}
	if want := []string{"run_tests", "edit_file", "run_tests", "read_file", "edit_file", "run_tests"}; !slices.Equal(out.ToolCalls, want) {
		t.Errorf("tool calls = %v, want %v", out.ToolCalls, want)
	}
	runs := rec.of(results.EventTestRun)
	if len(runs) != 3 || runs[2].TestsTotal != 7 || runs[2].TestsPassed != 7 {
		t.Fatalf("test runs = %+v", runs)
	}
	if runs[1].Turn != 3 || runs[2].Turn != 6 {
		t.Errorf("test runs stamped with turns %d and %d, want 3 and 6", runs[1].Turn, runs[2].Turn)
	}
	if env.TestTime() <= 0 {
		t.Error("test time not accumulated")
	}
}
