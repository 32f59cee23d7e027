package progress

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"time"

	"bench/record"
	"bench/runner"
	"bench/tasks"
)

func TestProgressPlainLines(t *testing.T) {
	var b bytes.Buffer
	p := New(&b, 3, 1, 1)
	p.Episode(record.Episode{Task: "slugify", Track: "workflow", Seed: 2, Repeat: 1, TestsTotal: 5, TestsPassed: 2, ExitReason: "done", Turns: 1, PromptTokens: 300, CompletionTokens: 50, WallMS: 1500})
	p.Episode(record.Episode{Task: "slugify", Track: "agent", Seed: 2, ExitReason: record.ExitError, ErrorKind: record.ErrorUnreachable, Error: "cannot reach the server\nmore"})
	p.Finish()
	want := "[2/3] slugify workflow seed-2-r1: failed (2/5 tests, exit done, 1 turn, 350 tokens, 1.5s)\n" +
		"[3/3] slugify agent seed-2: lost to the server, to be redone by --resume: lost (0/0 tests, exit error, 0 turns, 0 tokens, 0s): cannot reach the server\n"
	if b.String() != want {
		t.Fatalf("got %q\nwant %q", b.String(), want)
	}
	if strings.Contains(b.String(), "\r") || strings.Contains(b.String(), "\033") {
		t.Error("terminal codes in plain output")
	}
}

func TestProgressCounts(t *testing.T) {
	s := progressState{Total: 6}
	for _, ep := range []record.Episode{
		{Task: "a", Track: "workflow", Seed: 1, Passed: true, TestsPassed: 3, TestsTotal: 3, ExitReason: "done"},
		{Task: "a", Track: "oracle", Seed: 1, Passed: true, TestsPassed: 2, TestsTotal: 3, ExitReason: "done"}, // inconsistent: a failure
		{Task: "a", Track: "agent", Seed: 1, ExitReason: "max_turns"},
		{Task: "b", Track: "agent", Seed: 1, ExitReason: record.ExitError, ErrorKind: "tool"},
		{Task: "b", Track: "workflow", Seed: 1, ExitReason: record.ExitError, ErrorKind: record.ErrorCallTimeout},
	} {
		s = s.add(ep)
	}
	if s.Done != 5 || s.Passed != 1 || s.Failed != 2 || s.Errors != 1 || s.Lost != 1 || s.Last != "b workflow seed-1 lost" {
		t.Errorf("%+v", s)
	}
}

func TestRenderBar(t *testing.T) {
	s := progressState{Total: 10, Done: 5, Passed: 3, Failed: 1, Errors: 0, Lost: 1, Fresh: 2, Elapsed: 4 * time.Second, ETA: "10s (8s–12s)", Last: "slugify agent seed-1 passed"}
	want := "██████████░░░░░░░░░░ 5/10  passed 3  failed 1  errors 0  lost 1  elapsed 4s  ETA 10s (8s–12s)  last: slugify agent seed-1 passed"
	if got := renderBar(s); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if got := renderBar(progressState{Total: 3}); !strings.HasPrefix(got, strings.Repeat("░", barWidth)+" 0/3") || !strings.Contains(got, "ETA ?") || strings.Contains(got, "last:") {
		t.Errorf("before the first episode: %q", got)
	}
	if got := renderBar(progressState{Total: 3, Done: 3, Fresh: 3}); !strings.HasPrefix(got, strings.Repeat("█", barWidth)+" 3/3") {
		t.Errorf("done: %q", got)
	}
}

func TestFitWidth(t *testing.T) {
	line := renderBar(progressState{Total: 10, Done: 5, Last: "a long task name agent seed-1 passed"})
	got := fitWidth(line, 40)
	if n := len([]rune(got)); n != 39 || !strings.HasSuffix(got, "…") {
		t.Errorf("%d runes: %q", n, got)
	}
	if fitWidth("short", 40) != "short" || fitWidth(line, 0) != line {
		t.Error("a line that fits was changed")
	}
}

// TestRenderBarShowsRunningEpisodes: the terminal line names what each
// worker is running, oldest first, with how long it has run.
func TestRenderBarShowsRunningEpisodes(t *testing.T) {
	s := progressState{Total: 4, Done: 1, Fresh: 1, Elapsed: 20 * time.Second, Last: "a agent seed-1 passed",
		Running: []string{"b agent seed-1 12s", "a workflow seed-2 3s"}}
	want := "  running: b agent seed-1 12s, a workflow seed-2 3s  last: a agent seed-1 passed"
	if got := renderBar(s); !strings.HasSuffix(got, want) {
		t.Errorf("got  %q\nwant it to end %q", got, want)
	}
}

// TestProgressTracksRunningEpisodes: an episode is running from its start
// until it finishes.
func TestProgressTracksRunningEpisodes(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	p := New(&bytes.Buffer{}, 2, 0, 0)
	p.now = func() time.Time { return now }
	p.Begin(runner.Job{Task: tasks.Task{Name: "b"}, Track: "agent", Seed: 1})
	now = now.Add(5 * time.Second)
	p.Begin(runner.Job{Task: tasks.Task{Name: "a"}, Track: "workflow", Seed: 2})
	now = now.Add(2 * time.Second)
	if got, want := p.running(), []string{"b agent seed-1 7s", "a workflow seed-2 2s"}; !slices.Equal(got, want) {
		t.Errorf("running %q, want %q", got, want)
	}
	p.Episode(record.Episode{Task: "b", Track: "agent", Seed: 1, ExitReason: "done"})
	if got, want := p.running(), []string{"a workflow seed-2 2s"}; !slices.Equal(got, want) {
		t.Errorf("after one finished: running %q, want %q", got, want)
	}
	p.Finish()
}

// TestProgressKeepsInterruptedApart: an interrupted episode is neither a
// failure nor lost to the server: the line counts it on its own.
func TestProgressKeepsInterruptedApart(t *testing.T) {
	s := progressState{Total: 2}.add(record.Episode{Task: "a", Track: "agent", Seed: 1, Passed: true, TestsPassed: 3, TestsTotal: 3, ExitReason: record.ExitInterrupted})
	if s.Interrupted != 1 || s.Failed != 0 || s.Lost != 0 || s.Passed != 0 || !strings.Contains(renderBar(s), "lost 0  interrupted 1  elapsed") {
		t.Errorf("%+v: %s", s, renderBar(s))
	}
}
