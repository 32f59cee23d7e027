package sandbox

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"bench/sandbox/internal/helper"
)

// helperEnv names the environment variable that may hold the path of a
// separately built helper (bench-sandbox), for an executable that has none
// beside it, such as a go test binary.
const helperEnv = "BENCH_SANDBOX_HELPER"

// helperName is the separately built helper's file name, beside bench.
const helperName = "bench-sandbox"

// ready says that this executable can be re-executed as the helper: every
// executable linking this package can, since package helper's init
// function (which this package imports) handles the marker (tests turn it
// off to see the fallback).
var ready atomic.Bool

// helperReady reports whether a helper is there: a separately built one,
// or this executable.
func helperReady() bool { return chosenHelper().separate || ready.Load() }

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

// helperExe is an executable that serves as the helper.
type helperExe struct {
	path     string // "" when even this executable's path is unknown
	separate bool   // a separately built helper, not this executable
}

// helperChoice is the helper this process uses, chosen at its first use;
// tests replace it.
var helperChoice = sync.OnceValue(func() helperExe {
	self, err := os.Executable()
	if err != nil {
		self = ""
	}
	return chooseHelper(os.Getenv(helperEnv), self)
})

// chosenHelper is the executable that serves as the helper in this process:
// the first of the one BENCH_SANDBOX_HELPER names and bench-sandbox beside
// this executable that is the same helper (sameHelper), else this
// executable. A separately built helper starts with about 6 ms of CPU
// here, bench with 15 ms: the Go runtime's start grows with the binary.
func chosenHelper() helperExe { return helperChoice() }

// chooseHelper is chosenHelper for an executable at self ("" when
// unknown), with env as BENCH_SANDBOX_HELPER's value.
func chooseHelper(env, self string) helperExe {
	var candidates []string
	if env != "" {
		candidates = append(candidates, env)
	}
	if self != "" {
		candidates = append(candidates, filepath.Join(filepath.Dir(self), helperName))
	}
	for _, c := range candidates {
		if filepath.IsAbs(c) && c != self && sameHelper(c) {
			return helperExe{path: c, separate: true}
		}
	}
	return helperExe{path: self}
}

// sameHelper reports whether the executable at path is a helper built
// from the same source as this executable's: asked for its identity
// (helper.Identity), within 5 s, it answers what this one would.
func sameHelper(path string) bool {
	if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() || st.Mode().Perm()&0o111 == 0 {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, helper.Marker, "id")
	cmd.Env = []string{}
	out, err := cmd.Output()
	return err == nil && bytes.Equal(out, helper.Identity())
}
