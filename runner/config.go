package runner

import (
	"time"

	"bench/model"
	"bench/record"
)

// ConfigFrom is the Config that a run's run.json describes: its id, the
// sampling options, the budgets, the posture and the episode time limit,
// with the registry of tracks. The model client is left to the caller
// (Session.Connect makes it), as is Keep.
func ConfigFrom(r record.Run) Config {
	return Config{
		RunID: r.ID,
		Options: model.Options{
			Temperature: r.Temperature, NumCtx: r.NumCtx, TopP: r.TopP, Think: r.Think,
			MaxReplyTokens: r.MaxTokens,
		},
		MaxTurns: r.MaxTurns, TokenLimit: r.TokenLimit, Tries: r.Tries, Posture: r.Posture,
		Tracks:         Tracks(),
		EpisodeTimeout: time.Duration(r.EpisodeTimeoutMS) * time.Millisecond,
		WorkspaceLimit: r.WorkspaceLimit,

		WorkflowModelName: r.WorkflowModel,
	}
}
