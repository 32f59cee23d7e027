package predict

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"bench/record"
)

// Tally counts an outcome: Passed episodes out of N.
type Tally struct{ Passed, N int }

// Most reports whether more than half the episodes passed; a tie is not most.
func (t Tally) Most() bool { return 2*t.Passed > t.N }

// String writes the tally as passed/n, or "-" when nothing ran.
func (t Tally) String() string {
	if t.N == 0 {
		return "-"
	}
	return fmt.Sprintf("%d/%d", t.Passed, t.N)
}

// Observe says what happened to a task, given its workflow and agent tallies:
// Workflow if the workflow passed in most of its episodes, else Agent if the
// agent did, else Neither. It returns a reason instead when the episodes
// cannot decide (no workflow episode; the workflow failed and no agent ran).
func Observe(workflow, agent Tally) (outcome, missing string) {
	switch {
	case workflow.N == 0:
		return "", "no workflow episodes"
	case workflow.Most():
		return Workflow, ""
	case agent.N == 0:
		return "", "no agent episodes"
	case agent.Most():
		return Agent, ""
	}
	return Neither, ""
}

// Row is one predicted task compared with what happened.
type Row struct {
	Prediction
	Workflow, Agent Tally
	Observed        string
	Right           bool
}

// Missing is a predicted task the runs cannot decide, and why.
type Missing struct{ Task, Reason string }

// Score is a set of predictions checked against one or more runs.
type Score struct {
	Rows        []Row           // counted tasks, in the order predicted
	Missing     []Missing       // predicted tasks not counted
	Unpredicted []string        // tasks in the runs that were not predicted, sorted
	Right       int             // rows predicted right
	Questions   []QuestionScore // per question, against the tasks' designed answers; nil when the runs record none
}

// Counted is the number of tasks scored.
func (s Score) Counted() int { return len(s.Rows) }

// Check compares predictions with the episodes of runs (merged). Only the
// tracks "workflow" and "agent" count, and episodes stopped as interrupted
// do not. It refuses predictions written after a run holding their task began.
func Check(f File, runs []record.Data) (Score, error) {
	if err := checkTimes(f, runs); err != nil {
		return Score{}, err
	}
	tallies := map[string]map[string]*Tally{} // task → track → tally
	for _, run := range runs {
		for _, ep := range run.Episodes {
			if ep.ExitReason == record.ExitInterrupted || (ep.Track != Workflow && ep.Track != Agent) {
				continue
			}
			if tallies[ep.Task] == nil {
				tallies[ep.Task] = map[string]*Tally{Workflow: {}, Agent: {}}
			}
			t := tallies[ep.Task][ep.Track]
			t.N++
			if ep.Passed {
				t.Passed++
			}
		}
	}
	var s Score
	predicted := map[string]bool{}
	for _, p := range f.Predictions {
		predicted[p.Task] = true
		tracks, ok := tallies[p.Task]
		if !ok {
			s.Missing = append(s.Missing, Missing{p.Task, "not in the run"})
			continue
		}
		row := Row{Prediction: p, Workflow: *tracks[Workflow], Agent: *tracks[Agent]}
		observed, why := Observe(row.Workflow, row.Agent)
		if why != "" {
			s.Missing = append(s.Missing, Missing{p.Task, why})
			continue
		}
		row.Observed, row.Right = observed, observed == p.Prediction
		if row.Right {
			s.Right++
		}
		s.Rows = append(s.Rows, row)
	}
	for task := range tallies {
		if !predicted[task] {
			s.Unpredicted = append(s.Unpredicted, task)
		}
	}
	slices.Sort(s.Unpredicted)
	s.Questions = byQuestion(f, runs)
	return s, nil
}

// checkTimes refuses predictions written after a run that holds their task started.
func checkTimes(f File, runs []record.Data) error {
	var late []string
	for _, run := range runs {
		tasks := runTasks(run)
		for _, p := range f.Predictions {
			if !tasks[p.Task] {
				continue
			}
			if run.Run.Started.IsZero() {
				return fmt.Errorf("%s: run.json has no start time, so the predictions cannot be shown to come first", run.Dir)
			}
			if p.Time.After(run.Run.Started) {
				late = append(late, fmt.Sprintf("  %s: predicted %s, but run %s started %s", p.Task, stamp(p.Time), run.Dir, stamp(run.Run.Started)))
			}
		}
	}
	if len(late) > 0 {
		return fmt.Errorf("predictions written after the run started cannot be checked (a prediction must come before the run):\n%s", strings.Join(late, "\n"))
	}
	return nil
}

// runTasks is the set of tasks a run planned or holds episodes of.
func runTasks(run record.Data) map[string]bool {
	tasks := map[string]bool{}
	for _, t := range run.Run.Tasks {
		tasks[t.Name] = true
	}
	for _, ep := range run.Episodes {
		tasks[ep.Task] = true
	}
	return tasks
}

// stamp formats a time for messages, in UTC to the second.
func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }
