package report

import (
	"fmt"
	"strconv"
	"strings"

	"bench/record"
	"bench/trackfacts"
)

// explainRow counts the causes of a cell's failed counted episodes and the
// hybrid's delegation into row.
func (a *Aggregate) explainRow(c *cell, row *Row) {
	per := make([]int, len(record.CauseVocabulary)+1) // the last: a name outside the vocabulary
	for _, k := range c.counted {
		e := &a.eps[c.idx[k]]
		row.Tokens += int(e.tokens)
		if d, ok := a.delegated[uint32(c.idx[k])]; ok {
			row.Delegated++
			row.WorkflowCalls += int(d.calls)
			row.WorkflowTokens += int(d.tokens)
			if e.pass() {
				row.DelegatedPassed++
			}
		}
		if e.pass() {
			continue
		}
		if !e.causes.Recorded() {
			row.CausesAbsent++
			continue
		}
		found := false
		for i := range record.CauseVocabulary {
			if e.causes.HasRank(i) {
				per[i], found = per[i]+1, true
			}
		}
		if e.causes&record.CauseOther != 0 {
			per[len(per)-1], found = per[len(per)-1]+1, true
		}
		if !found {
			row.Unexplained++
		}
	}
	for i, v := range record.CauseVocabulary {
		if per[i] > 0 {
			row.Causes = append(row.Causes, Count{Name: string(v.Name), Count: per[i]})
		}
	}
	if n := per[len(per)-1]; n > 0 {
		row.Causes = append(row.Causes, Count{Name: OtherCause, Count: n})
	}
	if row.Track != trackfacts.Hybrid && row.WorkflowCalls == 0 {
		row.Tokens = 0 // the share's denominator is the hybrid's alone
	}
}

// OtherCause is how the tables name the causes outside the vocabulary
// (a later bench's, read by this one).
const OtherCause = "other"

// CauseCount is the number of episodes of row carrying the cause name.
func (r Row) CauseCount(name record.CauseName) int {
	for _, c := range r.Causes {
		if c.Name == string(name) {
			return c.Count
		}
	}
	return 0
}

// Failed is the number of the row's counted episodes that did not pass.
func (r Row) Failed() int { return r.N - r.Passed }

// CausesText is the row's causes as "masked_failure 3, lost_content 1",
// with the failures that carry none.
func (r Row) CausesText() string {
	parts := []string{}
	if t := countsText(r.Causes); t != "" {
		parts = append(parts, t)
	}
	if r.Unexplained > 0 {
		parts = append(parts, fmt.Sprintf("no cause found %d", r.Unexplained))
	}
	if r.CausesAbsent > 0 {
		parts = append(parts, fmt.Sprintf("not recorded %d", r.CausesAbsent))
	}
	return strings.Join(parts, ", ")
}

// causesTable has one row per task and track with failures: why they
// failed, cause by cause (package cause's vocabulary, docs/RESULTS.md).
func causesTable(rep *Report) table {
	t := table{
		title: "Why the failed episodes failed, per task and track (each failed counted episode under each of its causes; " +
			"bench show names each cause's evidence; 'not recorded': a run from before causes, which bench show derives)",
		header: []string{"task", "track", "failed", "causes", "episodes"},
	}
	several := rep.severalModels()
	for _, r := range rep.Rows {
		if r.Failed() == 0 {
			continue
		}
		t.rows = append(t.rows, []string{r.Task, fullLabel(r.Track, r.Model, r.Variant, several), Fraction(r.Failed(), r.N), r.CausesText(),
			"bench show " + showArgs(rep, r)})
	}
	return t
}

// showArgs is the run folder and the flags that list a row's episodes.
func showArgs(rep *Report, r Row) string {
	dir := "RUN_DIR"
	for _, run := range rep.Runs {
		if len(r.Runs) > 0 && run.Label == r.Runs[0] && run.Dir != "" {
			dir = run.Dir
		}
	}
	s := dir + " --task " + r.Task + " --track " + r.Track
	if rep.severalModels() && r.Model != "" {
		s += " --model " + r.Model
	}
	return s
}

// Delegation is how often the hybrid of one task and model called the
// workflow as its tool, and what the calls cost.
type Delegation struct {
	Task            string   `json:"task"`
	Track           string   `json:"track"`
	Model           string   `json:"model"`
	Variant         string   `json:"variant,omitempty"` // the values of the run's dimensions, when it has any
	N               int      `json:"n"`                 // counted episodes
	Delegated       int      `json:"delegated"`         // of them, those that called run_workflow
	DelegatedPassed int      `json:"delegated_passed"`  // of those, the passes
	OwnPassed       int      `json:"own_passed"`        // passes of the episodes that never called it
	WorkflowCalls   int      `json:"workflow_calls"`
	WorkflowTokens  int      `json:"workflow_tokens"`
	Tokens          int      `json:"tokens"`
	Share           *float64 `json:"workflow_share"` // WorkflowTokens/Tokens; null when no tokens were reported
}

// delegations lists, per task and model, the rows of the hybrid track (or
// any track whose episodes called run_workflow).
func delegations(rows []Row) []Delegation {
	var out []Delegation
	for _, r := range rows {
		if r.Track != trackfacts.Hybrid && r.WorkflowCalls == 0 {
			continue
		}
		d := Delegation{Task: r.Task, Track: r.Track, Model: r.Model, Variant: r.Variant, N: r.N, Delegated: r.Delegated, DelegatedPassed: r.DelegatedPassed,
			OwnPassed: r.Passed - r.DelegatedPassed, WorkflowCalls: r.WorkflowCalls, WorkflowTokens: r.WorkflowTokens, Tokens: r.Tokens}
		if r.Tokens > 0 {
			s := float64(r.WorkflowTokens) / float64(r.Tokens)
			d.Share = &s
		}
		out = append(out, d)
	}
	return out
}

// delegationTable shows the delegations.
func delegationTable(rep *Report) table {
	t := table{
		title: "The hybrid's delegation, per task (episodes that called run_workflow, their passes, and the workflow's share of the tokens)",
		header: []string{"task", "track", "delegated", "passed when delegating", "passed without", "workflow calls", "workflow tokens",
			"share of tokens"},
	}
	several := rep.severalModels()
	for _, d := range rep.Delegation {
		share := Undefined
		if d.Share != nil {
			share = strconv.FormatFloat(100**d.Share, 'f', 0, 64) + "%"
		}
		t.rows = append(t.rows, []string{d.Task, fullLabel(d.Track, d.Model, d.Variant, several), Fraction(d.Delegated, d.N),
			Fraction(d.DelegatedPassed, d.Delegated), Fraction(d.OwnPassed, d.N-d.Delegated),
			strconv.Itoa(d.WorkflowCalls), strconv.Itoa(d.WorkflowTokens), share})
	}
	return t
}
