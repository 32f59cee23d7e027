package html

import (
	"fmt"
	"html/template"
	"path/filepath"
	"strconv"
	"strings"

	"bench/internal/words"
	"bench/record"
	"bench/report"
	"bench/report/transcript"
)

// episode is one episode as the page shows it: its outcome and timeline.
type episode struct {
	ID           string // the element's id: episode-<task>-<track>[-<model>]-<seed>-<repeat>
	Run          string
	Task, Track  string
	Model        string // in a run of several models, else ""
	Variant      string // its values of the run's dimensions, else ""
	Seed, Repeat int
	Name         string // seed-<s>[-r<k>]
	Finished     bool   // the episode has a line in episodes.jsonl
	Passed       bool
	Outcome      string // "passed 7/7 tests", "FAILED 3/7 tests", "unfinished"
	Facts        []string
	Tokens       int
	Steps        []step
	End          ending
	Note         string         // why the timeline is missing or partial
	Trajectory   string         // the trajectory file, relative to the run folder
	Lazy         template.HTML  // the body, when the page builds it on opening
	Causes       []record.Cause // why it failed, as its line records them
	replies      []transcript.Step
}

// loadEpisodes reads the episodes of every run with their trajectories, in
// run order and then by task, track, seed and repeat. A missing or
// unreadable trajectory is noted on its episode, not an error: the page
// still shows what episodes.jsonl says.
func loadEpisodes(rep *report.Report, runs []record.Data, limit func(nEvents int) int) ([]*episode, error) {
	var out []*episode
	ids := map[string]int{}
	for i, data := range runs {
		entries, err := transcript.Entries(data)
		if err != nil {
			return nil, fmt.Errorf("listing the trajectories of %s: %w", data.Dir, err)
		}
		at := make(map[*record.Episode]int, len(data.Episodes))
		for k := range data.Episodes {
			at[&data.Episodes[k]] = k
		}
		label := data.Run.ID
		if i < len(rep.Runs) {
			label = rep.Runs[i].Label
		}
		for _, e := range entries {
			var v record.Verdict
			counts := false
			if e.Episode != nil {
				v, counts = rep.EpisodeVerdict(i, at[e.Episode])
			}
			ep := newEpisode(label, e, v, counts)
			ep.ID = unique(ids, episodeID(e))
			t, err := transcript.Load(data, e)
			switch {
			case err != nil:
				ep.Note = "no timeline: " + err.Error()
			default:
				ep.Steps, ep.End = timeline(t.Events, limit(len(t.Events)))
				ep.replies = transcript.Steps(t.Events)
				if len(t.Warnings) > 0 {
					ep.Note = "skipped lines of the trajectory: " + strings.Join(t.Warnings, "; ")
				}
			}
			out = append(out, ep)
		}
	}
	return out, nil
}

// episodeID is an entry's element id, before it is made unique.
func episodeID(e transcript.Entry) string {
	id := "episode-" + idPart(e.Task) + "-" + idPart(e.Track)
	if e.Model != "" {
		id += "-" + idPart(record.ModelDir(e.Model))
	}
	return id + "-" + strconv.Itoa(e.Seed) + "-" + strconv.Itoa(e.Repeat)
}

// newEpisode describes an entry from its line in episodes.jsonl and the
// verdict the report gave it (counts is false for the copy of an episode
// counted from another folder of its run).
func newEpisode(run string, e transcript.Entry, v record.Verdict, counts bool) *episode {
	ep := &episode{Run: run, Task: e.Task, Track: e.Track, Model: e.Model, Seed: e.Seed, Repeat: e.Repeat,
		Name: record.TrajectoryName(e.Seed, e.Repeat), Outcome: "unfinished (no line in episodes.jsonl)",
		Trajectory: filepath.ToSlash(e.Path(""))}
	r := e.Episode
	if r == nil {
		return ep
	}
	ep.Finished, ep.Passed, ep.Variant = true, counts && v.Pass(), r.Variant
	ep.Outcome = outcomeText(r, v, counts)
	ep.Tokens = r.PromptTokens + r.CompletionTokens
	ep.Facts = []string{
		"exit " + string(r.ExitReason),
		words.Plural(r.Turns, "turn") + ", " + words.Plural(r.ModelCalls, "model call") + ", " + words.Plural(len(r.ToolCalls), "tool call"),
		fmt.Sprintf("%d prompt + %d completion tokens (estimated %d + %d)", r.PromptTokens, r.CompletionTokens, r.EstPromptTokens, r.EstCompletionTokens),
		"tools: " + report.CollapseLoops(r.ToolCalls),
	}
	if !ep.Passed {
		ep.Causes = r.Causes
		ep.Facts = append(causeFacts(r.Causes), ep.Facts...)
	}
	if len(r.FailedTests) > 0 {
		ep.Facts = append(ep.Facts, "failed at grading: "+strings.Join(r.FailedTests, ", "))
	}
	if r.TestsTampered {
		ep.Facts = append(ep.Facts, "tests tampered: the track changed a protected test file (grading used the pristine copy)")
	}
	if r.Error != "" {
		kind := ""
		if r.ErrorKind != "" {
			kind = " (" + string(r.ErrorKind) + ")"
		}
		ep.Facts = append(ep.Facts, "error"+kind+": "+r.Error)
	}
	return ep
}

// idPart makes a name usable inside an element id: no spaces.
func idPart(s string) string {
	return strings.Join(strings.Fields(s), "_")
}

// unique returns id, or id-2, id-3, … when it was returned before (merged
// runs can hold the same episode key).
func unique(seen map[string]int, id string) string {
	seen[id]++
	if n := seen[id]; n > 1 {
		return id + "-" + strconv.Itoa(n)
	}
	return id
}

// outcomeText is an episode's outcome as the page heads it: its status as
// the report counts it (record.Verdict.Outcome), and its tests.
func outcomeText(r *record.Episode, v record.Verdict, counts bool) string {
	tests := fmt.Sprintf("%d/%d tests", r.TestsPassed, r.TestsTotal)
	if !counts {
		return "a copy of an episode counted from another folder of its run, " + tests
	}
	return v.Outcome() + " " + tests
}
