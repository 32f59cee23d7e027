package transcript

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"bench/internal/table"
	"bench/record"
)

// Step is one model reply of an episode, in order.
type Step struct {
	Turn  int
	Reply record.Message
}

// Steps returns the model replies of a trajectory, one step each.
func Steps(events []record.Event) []Step {
	var out []Step
	for _, ev := range events {
		if ev.Kind == record.EventResponse && ev.Reply != nil {
			out = append(out, Step{Turn: ev.Turn, Reply: *ev.Reply})
		}
	}
	return out
}

// Compact is the step on one short line: its tool calls with short
// arguments, or the start of its text.
func (s Step) Compact() string {
	if len(s.Reply.ToolCalls) == 0 {
		text := strings.TrimSpace(s.Reply.Content)
		if text == "" {
			return "(empty reply)"
		}
		return "says " + strconv.Quote(clip(text, 32))
	}
	calls := make([]string, len(s.Reply.ToolCalls))
	for i, c := range s.Reply.ToolCalls {
		calls[i] = compactCall(c.Name, c.Arguments)
	}
	return strings.Join(calls, "; ")
}

// same reports whether two steps are the same reply.
func same(a, b Step) bool {
	return a.Reply.Content == b.Reply.Content && slices.Equal(a.Reply.ToolCalls, b.Reply.ToolCalls)
}

// Diverge returns the index of the first step at which a and b differ (the
// length of the shorter when one is a prefix of the other), or -1 when they
// are the same.
func Diverge(a, b []Step) int {
	for i := range min(len(a), len(b)) {
		if !same(a[i], b[i]) {
			return i
		}
	}
	if len(a) == len(b) {
		return -1
	}
	return min(len(a), len(b))
}

// WriteDiff writes two episodes' steps side by side, one line per step,
// and marks the first step at which they diverge.
func WriteDiff(w io.Writer, a, b Transcript, format string) error {
	bw := bufio.NewWriter(w)
	s, err := newStyle(bw, format)
	if err != nil {
		return err
	}
	ea, eb := a.Entry, b.Entry
	s.title(fmt.Sprintf("%s · %s · seed %d: %s vs %s", ea.Task, ea.Track, ea.Seed, record.TrajectoryName(ea.Seed, ea.Repeat), record.TrajectoryName(eb.Seed, eb.Repeat)))
	sa, sb := Steps(a.Events), Steps(b.Events)
	k := Diverge(sa, sb)
	s.line(verdict(sa, sb, k))
	for _, t := range []Transcript{a, b} {
		s.line(record.TrajectoryName(t.Entry.Seed, t.Entry.Repeat) + ": " + shortOutcome(t.Entry, len(Steps(t.Events))))
	}
	bw.WriteString("\n")
	if err := s.flush(); err != nil {
		return err
	}
	rows := make([][]string, max(len(sa), len(sb)))
	for i := range rows {
		mark := ""
		switch {
		case k >= 0 && i == k:
			mark = ">> diverge"
		case k < 0 || i < k:
			mark = "same"
		}
		rows[i] = []string{mark, strconv.Itoa(i + 1), stepAt(sa, i), stepAt(sb, i)}
	}
	return table.Write(w, format, []string{"", "step", record.TrajectoryName(ea.Seed, ea.Repeat), record.TrajectoryName(eb.Seed, eb.Repeat)}, rows)
}

// verdict says in one sentence whether and where two step lists diverge.
func verdict(a, b []Step, k int) string {
	switch {
	case k < 0:
		return fmt.Sprintf("identical: the same %d steps (model replies) in both", len(a))
	case k == 0:
		return "same seed, different path: they diverge at step 1, the very first reply"
	case k == 1:
		return "same seed, different path: step 1 is the same; they diverge at step 2"
	}
	return fmt.Sprintf("same seed, different path: steps 1 to %d are the same; they diverge at step %d", k, k+1)
}

// stepAt is the compact step i, or "(stopped)" past the end.
func stepAt(steps []Step, i int) string {
	if i < len(steps) {
		return steps[i].Compact()
	}
	return "(stopped)"
}

// shortOutcome describes an episode's outcome in a few words: its
// status as the report counts it.
func shortOutcome(e Entry, steps int) string {
	ep := e.Episode
	if ep == nil {
		return fmt.Sprintf("%d steps, unfinished (not in episodes.jsonl)", steps)
	}
	return fmt.Sprintf("%d steps, %s %d/%d, exit %s", steps, e.Verdict.Status, ep.TestsPassed, ep.TestsTotal, ep.ExitReason)
}
