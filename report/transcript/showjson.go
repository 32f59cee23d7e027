package transcript

import (
	"encoding/json"
	"io"

	"bench/record"
)

// entryJSON is one episode as `bench show --format json` lists it.
type entryJSON struct {
	Task       string          `json:"task"`
	Track      string          `json:"track"`
	Model      string          `json:"model,omitempty"`   // in a run of several models
	Variant    string          `json:"variant,omitempty"` // in a run with dimensions
	Seed       int             `json:"seed"`
	Repeat     int             `json:"repeat"`
	Trajectory string          `json:"trajectory,omitempty"` // relative to the run folder; absent when missing
	Status     string          `json:"status"`               // how the episode counts, as bench report counts it; "unfinished" without a line
	Episode    *record.Episode `json:"episode"`              // null when the episode never finished
}

func toEntryJSON(e Entry) entryJSON {
	status := "unfinished"
	if e.Episode != nil {
		status = e.Verdict.Status.String()
	}
	return entryJSON{Task: e.Task, Track: e.Track, Model: e.Model, Variant: e.Variant, Seed: e.Seed, Repeat: e.Repeat, Trajectory: e.Trajectory, Status: status, Episode: e.Episode}
}

// writeListJSON writes the episodes the flags matched (all of them when
// none did) as {"run_dir", "matched", "episodes"}.
func writeListJSON(w io.Writer, dir string, all, picked []Entry) error {
	list := picked
	if len(picked) == 0 {
		list = all
	}
	out := struct {
		RunDir   string      `json:"run_dir"`
		Matched  int         `json:"matched"`
		Episodes []entryJSON `json:"episodes"`
	}{RunDir: dir, Matched: len(picked), Episodes: []entryJSON{}}
	for _, e := range list {
		out.Episodes = append(out.Episodes, toEntryJSON(e))
	}
	return writeJSON(w, out)
}

// writeEpisodeJSON writes one episode: its line of episodes.jsonl, the
// run's settings and every event of its trajectory, as recorded.
func writeEpisodeJSON(w io.Writer, t Transcript) error {
	events := t.Events
	if events == nil {
		events = []record.Event{}
	}
	return writeJSON(w, struct {
		RunDir string `json:"run_dir"`
		entryJSON
		Run      record.Run     `json:"run"`
		Causes   *causesJSON    `json:"causes,omitempty"`
		Events   []record.Event `json:"events"`
		Warnings []string       `json:"warnings,omitempty"`
	}{RunDir: t.Dir, entryJSON: toEntryJSON(t.Entry), Run: t.Run, Causes: causesOf(t), Events: events, Warnings: t.Warnings})
}

// causesJSON is why a failed episode failed, in show's JSON: the causes,
// how they were found (recorded, derived, absent) and why absent.
type causesJSON struct {
	List []record.Cause   `json:"list"`
	How  record.CausesHow `json:"how"`
	Why  string           `json:"why,omitempty"`
}

// causesOf is t's causes for the JSON document; nil for an episode with
// nothing to explain.
func causesOf(t Transcript) *causesJSON {
	if t.CausesHow == "" || t.CausesHow == record.HowNone {
		return nil
	}
	list := t.Causes
	if list == nil {
		list = []record.Cause{}
	}
	return &causesJSON{List: list, How: t.CausesHow, Why: t.CausesWhy}
}

// writeJSON writes v as indented JSON.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
