package html

import (
	"fmt"
	"strconv"
	"strings"

	"bench/lesson"
	"bench/report"
	"bench/report/predict"
)

// trackView is a row of the headline table.
type trackView struct {
	report.TrackRow
	Label                  string // the track, with its model when the page holds several
	Colour                 string
	Solved                 []string // the tasks solved
	Rate                   string
	SolvedText, PassedText string // "1/2", "–" when nothing counted
	Unfinished             int    // interrupted or never started, as the text report's column
}

// trackViews lays out the headline table: per track (and model), the
// tasks it solved.
func trackViews(rep *report.Report, colours map[string]string) []trackView {
	var out []trackView
	for _, t := range rep.Tracks {
		v := trackView{TrackRow: t, Label: t.Track, Colour: colours[t.Track], Rate: report.RateText(t.Rate, t.Wilson), Unfinished: t.Interrupted + t.NotRun,
			SolvedText: report.Fraction(t.TasksSolved, t.Tasks), PassedText: report.Fraction(t.Passed, t.N)}
		if m := shownModel(rep, t.Model); m != "" {
			v.Label += " · " + m
		}
		v.Label = report.VariantLabel(v.Label, t.Variant)
		if t.NotCounted > 0 {
			v.SolvedText += fmt.Sprintf(" (%d not counted)", t.NotCounted)
		}
		for _, r := range rep.Rows {
			if r.Track == t.Track && r.Model == t.Model && r.Variant == t.Variant && r.N > 0 && 2*r.Passed > r.N {
				v.Solved = append(v.Solved, r.Task)
			}
		}
		out = append(out, v)
	}
	return out
}

// rowView is a row of the per-task table with links to its episodes.
type rowView struct {
	report.Row
	ID                 string
	PassedText         string // "3/4", "–" when nothing counted
	Rate, PassK, Exits string
	Tokens, Est, Turns string
	Unfinished         int // interrupted or never started, as the text report's column
	Episodes           []episodeLink
}

// episodeLink points at an episode from a table.
type episodeLink struct {
	Href, Text, Title string
	Passed            bool
}

// rowViews lays out the per-task table, linking each row to its episodes.
func rowViews(rep *report.Report, eps []*episode) []rowView {
	var out []rowView
	for _, r := range rep.Rows {
		model := shownModel(rep, r.Model)
		v := rowView{Row: r, ID: rowID(r.Task, r.Track, model, r.Variant), PassedText: report.Fraction(r.Passed, r.N), Rate: report.RateText(r.Rate, r.Wilson),
			Tokens: report.MedianText(r.MedianTokens), Est: report.MedianText(r.MedianEstTokens), Turns: report.MedianText(r.MedianTurns), Unfinished: r.Interrupted + r.NotRun}
		var ks, exits []string
		for _, k := range r.PassAtK {
			ks = append(ks, fmt.Sprintf("%d:%.2f", k.K, k.P))
		}
		for _, c := range r.Exits {
			exits = append(exits, fmt.Sprintf("%s %d", c.Name, c.Count))
		}
		v.PassK, v.Exits = strings.Join(ks, " "), strings.Join(exits, ", ")
		for _, e := range eps {
			if e.Task == r.Task && e.Track == r.Track && e.Model == model && e.Variant == r.Variant && e.Finished {
				text := strconv.Itoa(e.Seed)
				if e.Repeat > 0 {
					text += "r" + strconv.Itoa(e.Repeat)
				}
				v.Episodes = append(v.Episodes, episodeLink{Href: "#" + e.ID, Text: text, Passed: e.Passed,
					Title: e.Run + ": " + e.Name + ", " + e.Outcome})
			}
		}
		out = append(out, v)
	}
	return out
}

// pairView is a row of the paired table: token ratio and McNemar test.
type pairView struct {
	Task, Tracks, Medians, Ratio, Interval, P string
	Pairs, OnlyA, OnlyB                       int
	Href                                      string
}

// pairViews lays out the agent/workflow comparison per task.
func pairViews(rep *report.Report) []pairView {
	var out []pairView
	for _, m := range rep.McNemar {
		v := pairView{Task: m.Task, Tracks: report.VariantLabel(m.A+"/"+m.B, m.Variant), Pairs: m.Pairs, OnlyA: m.OnlyA, OnlyB: m.OnlyB,
			P: fmt.Sprintf("%.3f", m.P), Href: "#" + rowID(m.Task, m.A, shownModel(rep, m.Model), m.Variant)}
		for _, r := range rep.Ratios {
			if r.Task == m.Task && r.Model == m.Model && r.Variant == m.Variant && r.Num == m.A && r.Den == m.B {
				v.Medians = report.NumberText(r.NumMedian) + "/" + report.NumberText(r.DenMedian)
				if r.Basis == report.BasisEstimated {
					v.Medians += " (est.)"
				}
				v.Ratio = fmt.Sprintf("%.2f", r.Ratio)
				if r.Interval != nil {
					v.Interval = fmt.Sprintf("[%.2f, %.2f]", r.Interval.Low, r.Interval.High)
				}
			}
		}
		out = append(out, v)
	}
	return out
}

// sequenceView is the distinct tool sequences of one task and track.
type sequenceView struct {
	Task, Track string
	Lines       []sequenceLine
	More        int // sequences left out
}

// sequenceLine is one distinct sequence, loops collapsed.
type sequenceLine struct {
	Count int
	Tools string
}

// sequencesShown is the most distinct sequences listed per task and track.
const sequencesShown = 8

// sequenceViews groups the report's sequences by task, track and model
// (never pooling models), with their loops collapsed, the most frequent
// first.
func sequenceViews(rep *report.Report) []sequenceView {
	var out []sequenceView
	for _, g := range report.GroupSequences(rep, sequencesShown) {
		v := sequenceView{Task: g.Task, Track: g.Track, More: g.More}
		if m := shownModel(rep, g.Model); m != "" {
			v.Track += " · " + m
		}
		for _, s := range g.Shown {
			v.Lines = append(v.Lines, sequenceLine{Count: s.Count, Tools: report.CollapseLoops(s.Tools)})
		}
		out = append(out, v)
	}
	return out
}

// predictView is the predictions checked against the runs.
type predictView struct {
	predict.Score
	QuestionTexts []string
}

// newPredictView shows a score with the questions behind the answers.
func newPredictView(s predict.Score) *predictView {
	return &predictView{Score: s, QuestionTexts: lesson.Questions[:]}
}
