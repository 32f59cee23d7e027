package predict

import (
	"fmt"
	"slices"
	"strings"
	"time"
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

// Row is one predicted task compared with what happened (with one model:
// a run of several models gives a row per task and model).
type Row struct {
	Prediction
	Model           string // the model the tallies are of; "" with one model
	Workflow, Agent Tally
	Observed        string
	Right           bool
}

// Missing is a predicted task the runs cannot decide, and why.
type Missing struct {
	Task   string `json:"task"`
	Model  string `json:"model,omitempty"`
	Reason string `json:"reason"`
}

// Score is a set of predictions checked against one or more runs.
type Score struct {
	Rows        []Row           // counted tasks (per model), in the order predicted
	Missing     []Missing       // predicted tasks not counted
	Unpredicted []string        // tasks in the runs that were not predicted, sorted
	Right       int             // rows predicted right
	Models      bool            // the runs hold several models: each row is of one
	Questions   []QuestionScore // per question, against the tasks' designed answers; nil when the runs record none
}

// Counted is the number of rows scored.
func (s Score) Counted() int { return len(s.Rows) }

// Observed is what runs show, as the report counts it (report.Report's
// Observed makes it): the counted episodes and passes of each task, track
// and model, and what each run's run.json says of its start and tasks.
type Observed struct {
	Runs  []ObservedRun
	Cells []ObservedCell
}

// ObservedRun is one run folder: when it started, and its tasks with their
// designed answers ("" when run.json records none).
type ObservedRun struct {
	Dir     string
	Started time.Time
	Tasks   []string
	Answers map[string]string
}

// ObservedCell is the counted episodes of one task, track and model: those
// that passed, failed or were inconsistent; lost and interrupted ones are
// in no rate, here as in the report.
type ObservedCell struct {
	Task, Track, Model string
	Passed, N          int
}

// Check compares predictions with what the runs show (merged, counted as
// the report counts them). Only the tracks "workflow" and "agent" count.
// With several models, each task is scored once per model. It refuses
// predictions written after a run holding their task began.
func Check(f File, obs Observed) (Score, error) {
	if err := checkTimes(f, obs.Runs); err != nil {
		return Score{}, err
	}
	type taskModel struct{ task, model string }
	tallies := map[taskModel]map[string]*Tally{} // → track → tally
	models := map[string][]string{}              // task → its models, in order
	for _, c := range obs.Cells {
		if c.Track != Workflow && c.Track != Agent {
			continue
		}
		k := taskModel{c.Task, c.Model}
		if tallies[k] == nil {
			tallies[k] = map[string]*Tally{Workflow: {}, Agent: {}}
			models[c.Task] = append(models[c.Task], c.Model)
		}
		t := tallies[k][c.Track]
		t.Passed, t.N = t.Passed+c.Passed, t.N+c.N
	}
	var s Score
	for _, ms := range models {
		s.Models = s.Models || len(ms) > 1
	}
	predicted := map[string]bool{}
	for _, p := range f.Predictions {
		predicted[p.Task] = true
		if len(models[p.Task]) == 0 {
			s.Missing = append(s.Missing, Missing{Task: p.Task, Reason: "not in the run"})
			continue
		}
		for _, m := range models[p.Task] {
			tracks := tallies[taskModel{p.Task, m}]
			row := Row{Prediction: p, Workflow: *tracks[Workflow], Agent: *tracks[Agent]}
			if s.Models {
				row.Model = m
			}
			observed, why := Observe(row.Workflow, row.Agent)
			if why != "" {
				s.Missing = append(s.Missing, Missing{Task: p.Task, Model: row.Model, Reason: why})
				continue
			}
			row.Observed, row.Right = observed, observed == p.Prediction
			if row.Right {
				s.Right++
			}
			s.Rows = append(s.Rows, row)
		}
	}
	for task := range models {
		if !predicted[task] {
			s.Unpredicted = append(s.Unpredicted, task)
		}
	}
	slices.Sort(s.Unpredicted)
	s.Questions = byQuestion(f, obs.Runs)
	return s, nil
}

// checkTimes refuses predictions written after a run that holds their task started.
func checkTimes(f File, runs []ObservedRun) error {
	var late []string
	for _, run := range runs {
		for _, p := range f.Predictions {
			if !slices.Contains(run.Tasks, p.Task) {
				continue
			}
			if run.Started.IsZero() {
				return fmt.Errorf("%s: run.json has no start time, so the predictions cannot be shown to come first", run.Dir)
			}
			if p.Time.After(run.Started) {
				late = append(late, fmt.Sprintf("  %s: predicted %s, but run %s started %s", p.Task, stamp(p.Time), run.Dir, stamp(run.Started)))
			}
		}
	}
	if len(late) > 0 {
		return fmt.Errorf("predictions written after the run started cannot be checked (a prediction must come before the run):\n%s", strings.Join(late, "\n"))
	}
	return nil
}

// stamp formats a time for messages, in UTC with its fraction of a second
// (RFC 3339, to the nanosecond, trailing zeros dropped): a prediction made
// 300 ms after the run started must not read as made at the same second.
func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }
