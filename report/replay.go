package report

import (
	"fmt"

	"bench/internal/words"
	"bench/record"
)

// ReplaySummary is how the episodes of a replay run (bench run --replay)
// compared with the recording it replays.
type ReplaySummary struct {
	ID        string `json:"id"`        // the recording's run id
	Dir       string `json:"dir"`       // the recording's folder, as it was given
	Episodes  int    `json:"episodes"`  // the episodes replayed (lines that carry a replay)
	Identical int    `json:"identical"` // of them, those where nothing differed
	Diverged  int    `json:"diverged"`  // of them, those where a step differed
	Stopped   int    `json:"stopped"`   // of the diverged, those whose conversation stopped following the recording (replay_diverged)
	Skipped   int    `json:"skipped"`   // recorded episodes not replayed (lost or interrupted in the recording)
	Error     string `json:"error,omitempty"`
}

// String is the summary in one line: "replay of ID (DIR): N episodes, K
// identical, D diverged (S stopped), M skipped".
func (s ReplaySummary) String() string {
	line := fmt.Sprintf("replay of %s (%s): %s, %d identical, %d diverged (%d stopped), %d skipped",
		s.ID, s.Dir, words.Plural(s.Episodes, "episode"), s.Identical, s.Diverged, s.Stopped, s.Skipped)
	if s.Error != "" {
		line += " (" + s.Error + ")"
	}
	return line
}

// SummarizeReplay counts the replayed episodes of a replay run of, the
// lines that stand (record.Read's), by how they compared.
func SummarizeReplay(of record.ReplayOf, eps []record.Episode) ReplaySummary {
	s := ReplaySummary{ID: of.ID, Dir: of.Dir, Skipped: len(of.Skipped)}
	for _, ep := range eps {
		r := ep.Replay
		if r == nil {
			continue
		}
		s.Episodes++
		switch {
		case r.Identical:
			s.Identical++
		default:
			s.Diverged++
			if r.Stopped != nil {
				s.Stopped++
			}
		}
	}
	return s
}

// replayInfo gives the description of input in its replay summary, when
// it is a replay run: its episodes are read again (the aggregate keeps no
// replays). What is unfinished of a replay is its interrupted and lost
// episodes and those never started, but for the recorded episodes it
// could not replay (no replay can run them); an episode that stopped
// following its recording (replay_diverged) is finished. One left
// unfinished is finished by replaying the recording again (a replay is
// not resumed).
func (a *Aggregate) replayInfo(in *input, info *RunInfo) {
	of := in.run.ReplayOf
	if of == nil {
		return
	}
	data, err := record.Read(in.dir)
	s := SummarizeReplay(*of, data.Episodes)
	if err != nil {
		s.Error = "its episodes could not be read again: " + err.Error()
	}
	info.Replay = &s
	info.NotRun -= min(info.NotRun, s.Skipped)
	info.Unfinished = info.Interrupted + info.Lost + info.NotRun
	info.Resume = ""
	if info.Unfinished > 0 {
		info.Resume = "bench run --replay " + of.Dir + " --out NEW"
	}
}

// replayLines is the line under a replay run's that says how it compared
// with its recording; none for another run.
func replayLines(r RunInfo) []string {
	if r.Replay == nil {
		return nil
	}
	return []string{"  " + r.Replay.String()}
}
