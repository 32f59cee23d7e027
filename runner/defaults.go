package runner

import "bench/record"

// Defaults of a run's settings, which the command line's flags show: the
// table's (record.Table), under the runner's names that callers know.
const (
	DefaultTemperature    = record.DefaultTemperature
	DefaultNumCtx         = record.DefaultNumCtx
	DefaultMaxTokens      = record.DefaultMaxTokens
	DefaultMaxTurns       = record.DefaultMaxTurns
	DefaultTries          = record.DefaultTries
	DefaultPosture        = record.DefaultPosture
	DefaultParallel       = record.DefaultParallel
	MaxParallel           = record.MaxParallel
	DefaultEpisodeTimeout = record.DefaultEpisodeTimeout
)

// Values of --posture.
const (
	PostureOff  = record.PostureOff
	PostureAuto = record.PostureAuto
	PostureOn   = record.PostureOn
)

// ResultsDir is the folder new runs are written under when no folder is named.
const ResultsDir = "results"
