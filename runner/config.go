package runner

import (
	"bench/record"
)

// ConfigFrom is the Config that a run's run.json describes: its id and
// its settings, with the registry of tracks. The model client is left to
// the caller (Session.ConnectInspected makes it), as is Keep.
func ConfigFrom(r record.Run) Config {
	return Config{RunID: r.ID, RunSettings: r.RunSettings, Tracks: Tracks()}
}
