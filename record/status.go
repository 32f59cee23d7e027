package record

import "encoding/json"

// Status is how an episode counts: the one definition every view of bench
// reads (the report in every format, the page, check, compare, show, the
// progress of a run).
type Status uint8

// The statuses of an episode. Passed, failed and inconsistent episodes are
// counted (n); lost and interrupted ones are in no rate, and --resume
// redoes them; a diverged one (a replay's) is in no rate either.
const (
	StatusPassed       Status = iota + 1 // graded, every test passed, and nothing contradicts it
	StatusFailed                         // graded, and not every test passed (or grading timed out, or the episode ran out of time)
	StatusLost                           // ended by an infrastructure failure (a server error past its retries): says nothing about the model
	StatusInterrupted                    // cut short by Ctrl-C or a cancelled run
	StatusInconsistent                   // says passed, but its test counts, exit or trajectory say otherwise: counted as failed
	StatusDiverged                       // a replayed episode whose conversation could not follow its recording (ExitDiverged)
)

// statusNames are the statuses as episodes.jsonl and the JSON documents
// spell them.
var statusNames = [...]string{StatusPassed: "passed", StatusFailed: "failed", StatusLost: "lost", StatusInterrupted: "interrupted", StatusInconsistent: "inconsistent", StatusDiverged: "diverged"}

// String is the status's name: passed, failed, lost, interrupted,
// inconsistent or diverged.
func (s Status) String() string {
	if int(s) < len(statusNames) && statusNames[s] != "" {
		return statusNames[s]
	}
	return "unknown"
}

// MarshalText writes the status's name.
func (s Status) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Counted reports whether an episode of this status is in n: passed,
// failed and inconsistent ones are; lost, interrupted and diverged ones
// are not.
func (s Status) Counted() bool {
	return s == StatusPassed || s == StatusFailed || s == StatusInconsistent
}

// Flaw says why an episode is not taken at its line's word, or what its
// failure says about grading.
type Flaw uint8

// The flaws of an episode.
const (
	FlawNone              Flaw = iota
	FlawGradingTimedOut        // failed: the grading run passed the task's time limit
	FlawContradicts            // inconsistent: the line says passed, its test counts (or its exit) say otherwise
	FlawTrajectoryEdited       // inconsistent: its trajectory differs from the digest recorded when it ended
	FlawTrajectoryMissing      // inconsistent: its digest was recorded, its trajectory is gone
)

// Verdict is an episode's status and, where it has one, its flaw.
type Verdict struct {
	Status Status
	Flaw   Flaw
}

// Pass reports whether the episode counts as a pass.
func (v Verdict) Pass() bool { return v.Status == StatusPassed }

// LineVerdict is what an episode's line says of it, by these rules in
// order: an exit "error" of an infrastructure kind is lost; an exit
// "interrupted" is interrupted; an exit "replay_diverged" is diverged; a line that does not say passed is failed
// (its flaw FlawGradingTimedOut when grading timed out); a line that says
// passed is inconsistent unless at least one test ran and every one
// passed and the episode did not run out of time (exit "timeout", which
// is never a pass); a grading timeout is failed; else it passed. Whether the trajectory agrees is
// TrajectoryCheck's part.
func LineVerdict(passed bool, testsPassed, testsTotal int, exit ExitReason, errorKind ErrorKind, gradingTimedOut bool) Verdict {
	switch {
	case exit == ExitError && InfraError(errorKind):
		return Verdict{StatusLost, FlawNone}
	case exit == ExitInterrupted:
		return Verdict{StatusInterrupted, FlawNone}
	case exit == ExitDiverged:
		return Verdict{StatusDiverged, FlawNone}
	case !passed && gradingTimedOut:
		return Verdict{StatusFailed, FlawGradingTimedOut}
	case !passed:
		return Verdict{StatusFailed, FlawNone}
	case testsTotal <= 0 || testsPassed != testsTotal || exit == ExitTimeout:
		return Verdict{StatusInconsistent, FlawContradicts}
	case gradingTimedOut:
		return Verdict{StatusFailed, FlawGradingTimedOut}
	}
	return Verdict{StatusPassed, FlawNone}
}

// Verdict is what the episode's line says of it (LineVerdict).
func (e *Episode) Verdict() Verdict {
	return LineVerdict(e.Passed, e.TestsPassed, e.TestsTotal, e.ExitReason, e.ErrorKind, e.GradingTimedOut)
}

// MarshalJSON writes the episode as a line of episodes.jsonl: its fields,
// with "passed" false for an episode that is lost or interrupted (its
// grading, if any, is not a result), and "status", its line's verdict
// (LineVerdict), so that a reader of the file (jq included) never counts
// such an episode as passed. Readers derive the status again; they never
// take it from the line.
func (e Episode) MarshalJSON() ([]byte, error) {
	type fields Episode // without the method
	v := e.Verdict()
	line := struct {
		fields
		Status Status `json:"status"`
	}{fields(e), v.Status}
	if !v.Status.Counted() {
		line.Passed = false
	}
	return json.Marshal(line)
}

// Outcome is the verdict in words, as every view heads an episode with
// it: "passed", "FAILED", "LOST …", "INTERRUPTED …", "INCONSISTENT: …".
func (v Verdict) Outcome() string {
	switch v.Status {
	case StatusPassed:
		return "passed"
	case StatusLost:
		return "LOST to the infrastructure (not counted; bench run --resume redoes it)"
	case StatusInterrupted:
		return "INTERRUPTED (not counted; bench run --resume redoes it)"
	case StatusDiverged:
		return "DIVERGED from its recording (a replay that could not follow it; not counted)"
	case StatusInconsistent:
		why := "its test counts disagree"
		switch v.Flaw {
		case FlawTrajectoryEdited:
			why = "its trajectory was edited after the run"
		case FlawTrajectoryMissing:
			why = "its trajectory is gone"
		}
		return "INCONSISTENT: says passed, but " + why + " (counted as failed)"
	}
	if v.Flaw == FlawGradingTimedOut {
		return "FAILED (grading timed out)"
	}
	return "FAILED"
}

// Verdicts returns the verdict of each of d's episodes, in order, as Scan
// gives it: its line's, with the trajectories of passes checked in d.Dir.
func (d Data) Verdicts() []Verdict {
	out := make([]Verdict, 0, len(d.Episodes))
	d.Scan(func(l *Line) error { // a visit that never fails
		out = append(out, l.Verdict)
		return nil
	})
	return out
}
