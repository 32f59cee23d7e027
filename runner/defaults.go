package runner

import (
	"time"

	"bench/model"
)

// Defaults of a run's settings, which the command line's flags show.
const (
	DefaultTemperature    = 0.7 // low enough for mostly stable code, high enough that seeds matter
	DefaultNumCtx         = model.DefaultNumCtx
	DefaultMaxTokens      = 4096 // cap on one reply: without one, Ollama lets a looping model generate until the call times out
	DefaultMaxTurns       = 25
	DefaultTries          = 2
	DefaultPosture        = PostureOff
	DefaultParallel       = 1
	MaxParallel           = 64 // more episodes at once than any machine bench targets runs well
	DefaultEpisodeTimeout = 10 * time.Minute
)

// Values of --posture.
const (
	PostureOff  = "off"
	PostureAuto = "auto"
	PostureOn   = "on"
)

// ResultsDir is the folder new runs are written under when no folder is named.
const ResultsDir = "results"
