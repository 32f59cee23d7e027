package html

import (
	"fmt"

	"bench/record"
	"bench/report"
)

// causeRow is a row of the page's table of causes: one task and track with
// failures, the counts of its causes, and its failed episodes, each linked
// and named by its first cause.
type causeRow struct {
	Task, Track, Failed, Causes, Href string
	Episodes                          []causeLink
}

// causeLink points at a failed episode, labelled by its first cause.
type causeLink struct {
	Href, Text, Title string
}

// causeRows lays out the table of causes like the text report's, with
// links to the rows and to each failed episode.
func causeRows(rep *report.Report, eps []*episode) []causeRow {
	var out []causeRow
	for _, r := range rep.Rows {
		if r.Failed() == 0 {
			continue
		}
		model := shownModel(rep, r.Model)
		track := r.Track
		if model != "" {
			track += " · " + model
		}
		v := causeRow{Task: r.Task, Track: report.VariantLabel(track, r.Variant), Failed: report.Fraction(r.Failed(), r.N), Causes: r.CausesText(), Href: "#" + rowID(r.Task, r.Track, model, r.Variant)}
		for _, e := range eps {
			if e.Task != r.Task || e.Track != r.Track || e.Model != model || e.Variant != r.Variant || !e.Finished || e.Passed || len(e.Causes) == 0 {
				continue
			}
			v.Episodes = append(v.Episodes, causeLink{Href: "#" + e.ID, Text: string(e.Causes[0].Name) + " (" + e.Name + ")",
				Title: e.Causes[0].Evidence})
		}
		out = append(out, v)
	}
	return out
}

// causeFacts are an episode's causes as lines of its facts, first.
func causeFacts(causes []record.Cause) []string {
	var out []string
	for _, c := range causes {
		out = append(out, "why it failed: "+string(c.Name)+" — "+c.Evidence)
	}
	return out
}

// delegationRow is a row of the hybrid's delegation table.
type delegationRow struct {
	Task, Track, Delegated, PassedWhen, PassedWithout, Share, Href string
	Calls, Tokens                                                  int
}

// delegationRows lays out the report's delegation.
func delegationRows(rep *report.Report) []delegationRow {
	var out []delegationRow
	for _, d := range rep.Delegation {
		model := shownModel(rep, d.Model)
		v := delegationRow{Task: d.Task, Track: d.Track, Delegated: report.Fraction(d.Delegated, d.N), PassedWhen: report.Fraction(d.DelegatedPassed, d.Delegated),
			PassedWithout: report.Fraction(d.OwnPassed, d.N-d.Delegated), Share: report.Undefined, Calls: d.WorkflowCalls, Tokens: d.WorkflowTokens,
			Href: "#" + rowID(d.Task, d.Track, model, d.Variant)}
		v.Track = report.VariantLabel(v.Track, d.Variant)
		if model != "" {
			v.Track += " · " + model
		}
		if d.Share != nil {
			v.Share = fmt.Sprintf("%.0f%%", 100**d.Share)
		}
		out = append(out, v)
	}
	return out
}
