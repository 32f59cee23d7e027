package integration

import (
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// The command-line flags the suite uses, in one place: a renamed flag is
// changed here only.
const (
	flagBackend  = "--backend"
	flagHost     = "--host"
	flagModel    = "--model"
	flagTasks    = "--tasks"
	flagTracks   = "--tracks"
	flagSeeds    = "--seeds"
	flagReplyCap = "--max-tokens" // the cap on one reply's tokens
	flagTimeout  = "--timeout"
	flagThink    = "--think"
	flagMaxTurns = "--max-turns"
	flagOut      = "--out"
	flagFormat   = "--format"
)

// The suite's models and its one task.
const (
	modelPlain = "tiny"      // no tool support
	modelTools = "tinytools" // reports tool support (but never calls a tool)
	task       = "leap_year"
)

// job is one `bench run`; zero fields are left out of the command line.
type job struct {
	backend  string // "" is bench's default, ollama
	host     string // "" is the suite's server (its /v1 for the openai backend)
	model    string
	tracks   string
	seeds    string
	replyCap int
	timeout  time.Duration
	think    bool
	maxTurns int
	out      string // "" is a fresh folder under t.TempDir()
}

// args is the command line of j, with j.out filled in.
func (j *job) args(t *testing.T) []string {
	t.Helper()
	if j.out == "" {
		j.out = filepath.Join(t.TempDir(), "run")
	}
	host := j.host
	if host == "" {
		host = suite.server.URL
		if j.backend == "openai" {
			host += "/v1"
		}
	}
	args := []string{"run", flagHost, host, flagModel, j.model, flagTasks, task, flagTracks, j.tracks, flagSeeds, j.seeds, flagOut, j.out}
	if j.backend != "" {
		args = append(args, flagBackend, j.backend)
	}
	if j.replyCap != 0 {
		args = append(args, flagReplyCap, strconv.Itoa(j.replyCap))
	}
	if j.timeout != 0 {
		args = append(args, flagTimeout, j.timeout.String())
	}
	if j.think {
		args = append(args, flagThink)
	}
	if j.maxTurns != 0 {
		args = append(args, flagMaxTurns, strconv.Itoa(j.maxTurns))
	}
	return args
}

// run runs j and fails t unless bench exits 0.
func (j *job) run(t *testing.T) result {
	t.Helper()
	r := bench(t, j.args(t)...)
	if r.code != 0 {
		t.Fatalf("the run failed: %s", r)
	}
	return r
}
