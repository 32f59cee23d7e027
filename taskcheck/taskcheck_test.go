package taskcheck

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"bench/internal/cliexit"
	"bench/tasks"
	"bench/verify"
)

func TestDesignCheck(t *testing.T) {
	for _, tc := range []struct {
		title, instruction string
		ok                 bool
		detail             string
	}{
		{"Fix it", "The year is wrong.", true, "title and instruction hold no TODO"},
		{"TODO: a title", "The year is wrong.", false, "title still begins with TODO in task.toml: say what is broken"},
		{" todo", "todo: say it", false, "title and instruction still begin with TODO in task.toml: say what is broken"},
	} {
		got := DesignCheck(tasks.Task{Title: tc.title, Instruction: tc.instruction})
		if got.Name != "text written" || got.OK != tc.ok || got.Detail != tc.detail {
			t.Errorf("%q, %q: %+v; want ok %v, %q", tc.title, tc.instruction, got, tc.ok, tc.detail)
		}
	}
}

func TestDescribeFailureNamesTheFailedChecks(t *testing.T) {
	v := verify.Verification{Task: "leap_year", Checks: []verify.Check{{Name: "original fails"}, {Name: "solution passes", OK: true}, {Name: "text written"}}}
	if got, want := describeFailure(v), "leap_year (original fails, text written)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestVerifyInterrupted: a cancelled check stops after the task under way,
// writes the table so far and exits 130.
func TestVerifyInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out bytes.Buffer
	err := Verify(ctx, &out, []tasks.Task{{Name: "first", Title: "t", Instruction: "i"}, {Name: "second"}})
	var ec cli.ExitCoder
	if !errors.As(err, &ec) || ec.ExitCode() != cliexit.Interrupted {
		t.Fatalf("err %v, want exit %d", err, cliexit.Interrupted)
	}
	if !strings.Contains(out.String(), "first") || strings.Contains(out.String(), "second") {
		t.Errorf("the table should hold the first task only:\n%s", out.String())
	}
}
