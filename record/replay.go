package record

import (
	"fmt"
	"strings"
)

// ExitDiverged is the exit reason of a replayed episode whose conversation
// could no longer follow its recording (bench run --replay): neither a
// pass nor a failure nor lost, it is in no rate (StatusDiverged).
const ExitDiverged ExitReason = "replay_diverged"

// DivergenceEpisode is the Divergence.Kind of a difference in a replayed
// episode's verdict or sums (passed, tests, exit reason, tokens).
const DivergenceEpisode = "episode"

// Replay is what a replayed episode carries: how it compared with the
// episode it replays (its line in the recording, its trajectory).
type Replay struct {
	// Identical says that nothing differed: every event the tools, the
	// tests and the track decided, the verdict and the episode's sums.
	Identical bool `json:"identical"`
	// Differences counts the steps that differed (an event, a request,
	// the verdict counting one each).
	Differences int         `json:"differences,omitempty"`
	First       *Divergence `json:"first,omitempty"`   // the first step that differed
	Stopped     *Divergence `json:"stopped,omitempty"` // where the conversation stopped following the recording
}

// ReplayOf names the recorded run a replay run replays (run.json's
// replay_of), and the recorded episodes it did not replay.
type ReplayOf struct {
	ID      string       `json:"id"`  // the recording's run id
	UID     string       `json:"uid"` // the recording's identity
	Dir     string       `json:"dir"` // the recording's folder, as it was given
	Skipped []ReplaySkip `json:"skipped,omitempty"`
}

// ReplaySkip is a recorded episode that was not replayed (one the
// recording lost to the infrastructure or that was interrupted), and why.
type ReplaySkip struct {
	Key    string `json:"key"`
	Reason string `json:"reason"`
}

// Divergence is one step where the fresh side of a replayed episode
// differs from its recording.
type Divergence struct {
	// Seq is the recorded event's sequence number, and FreshSeq the fresh
	// one's in the new trajectory; -1 where that side has no event (an
	// event the fresh side did not produce, or one the recording lacks).
	// For the verdict both are the end events'.
	Seq      int    `json:"seq"`
	FreshSeq int    `json:"fresh_seq"`
	Turn     int    `json:"turn"`
	Kind     string `json:"kind"`             // the event's kind, or DivergenceEpisode
	Within   string `json:"within,omitempty"` // the tool the event was recorded within (the hybrid's run_workflow)
	Tool     string `json:"tool,omitempty"`   // a tool_call's or tool_result's tool
	Fields   string `json:"fields"`           // what differs, comma-separated: "output, tests_total"
	Want     string `json:"want"`             // the recording's values of Fields, shortened around the first difference
	Got      string `json:"got"`              // the fresh side's
	// Stop says why the conversation could not follow the recording from
	// here; "" for a difference the episode went on past.
	Stop string `json:"stop,omitempty"`
}

// String is the divergence on one line: where, what was recorded and
// what came, and why it stopped when it did.
func (d Divergence) String() string {
	s := fmt.Sprintf("%s: recorded %s; replayed %s", d.Where(), d.Want, d.Got)
	if d.Stop != "" {
		s += "; stopped: " + d.Stop
	}
	return s
}

// Where names the step: the recorded and fresh sequence numbers, the
// turn, the kind and the tool.
func (d Divergence) Where() string {
	var at []string
	if d.Seq >= 0 {
		at = append(at, fmt.Sprintf("recorded seq %d", d.Seq))
	}
	if d.FreshSeq >= 0 {
		at = append(at, fmt.Sprintf("replayed seq %d", d.FreshSeq))
	}
	what := d.Kind
	if d.Kind != DivergenceEpisode {
		what = fmt.Sprintf("turn %d, %s", d.Turn, d.Kind)
	}
	if d.Tool != "" {
		what += " of " + d.Tool
	}
	if d.Within != "" {
		what += " within " + d.Within
	}
	return fmt.Sprintf("%s (%s)", strings.Join(at, ", "), what)
}
