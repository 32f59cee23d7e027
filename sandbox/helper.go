package sandbox

import (
	"os"
	"sync/atomic"

	"bench/sandbox/internal/helper"
)

// ready says that this executable can be re-executed as the helper: every
// executable linking this package can, since package helper's init
// function (which this package imports) handles the marker (tests turn it
// off to see the fallback).
var ready atomic.Bool

// helperReady reports whether this executable can serve as the helper.
func helperReady() bool { return ready.Load() }

func init() { Init() }

// Init makes the helper hook visible where it matters (like docker's
// reexec.Init, it is the first line of main). The helper itself takes
// over in the init function of package helper, before this package's and
// most others' are run: in the helper, neither this nor main is reached.
func Init() {
	if len(os.Args) >= 2 && os.Args[1] == helper.Marker {
		os.Exit(helper.Exit) // unreachable: package helper never returns there
	}
	ready.Store(true)
}
