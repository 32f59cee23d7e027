// Package sandbox confines a test run of model-written code: Landlock for
// the file system and TCP, and user, network, PID, mount, IPC and UTS
// namespaces, with a parent-death signal so that nothing outlives bench.
//
// Landlock cannot be lifted once applied, so it is applied in a helper: the
// running executable itself, started again with a hidden marker that the
// init function of package sandbox/internal/helper recognises (it depends
// only on os and syscall, so it runs before bench's heavy dependencies are
// initialised). The helper applies its layers and then executes the test
// command in its place. From a caller that holds a heap (twoStages), it
// also enters the namespaces itself, in two stages: the caller starts it
// plainly (so that os/exec can use vfork: a fork-like clone copies the
// caller's page tables), and this first stage starts the second in the
// namespaces, waits for it and ends as it did; a smaller caller, or one
// built with -race, clones it into them.
//
// What each layer can do on this machine is in Probe; what a run got is a
// Layers value, recorded with every run and episode.
package sandbox

import (
	"fmt"
	"strings"
)

// Mode says whether test runs are sandboxed: the --sandbox flag.
type Mode string

// The modes. Auto sandboxes with whatever the kernel allows (the caller
// warns once about what is missing); On refuses to run a test without a
// file-system and a network layer; Off runs tests with only the process
// group kill and the parent-death signal.
const (
	Auto Mode = "auto"
	On   Mode = "on"
	Off  Mode = "off"
)

// ParseMode reads a --sandbox value; "" is Auto.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(strings.ToLower(strings.TrimSpace(s))); m {
	case "":
		return Auto, nil
	case Auto, On, Off:
		return m, nil
	}
	return "", fmt.Errorf("--sandbox %q: expected auto, on or off", s)
}

// Config is what a caller chooses about the sandbox. The zero value is Auto.
type Config struct {
	Mode Mode
}

// mode returns c.Mode, Auto when unset.
func (c Config) mode() Mode {
	if c.Mode == "" {
		return Auto
	}
	return c.Mode
}

// Layer names recorded in Layers.
const (
	None        = "none"
	Landlock    = "landlock"     // FS: Landlock path rules
	NetNS       = "netns"        // Net: a network namespace with loopback only
	LandlockTCP = "landlock-tcp" // Net: Landlock denies TCP bind and connect
	PIDNS       = "pidns"        // PID: its own PID namespace, dying with its PID 1
	Pdeathsig   = "pdeathsig"    // PID: process group kill and a parent-death signal only
)

// Layers is what sandbox a test run had, as recorded in run.json and on
// every episode.
type Layers struct {
	FS  string `json:"fs"`
	Net string `json:"net"`
	PID string `json:"pid"`
}

// String is the layers on one line, e.g. "fs=landlock net=netns pid=pidns".
func (l Layers) String() string {
	return fmt.Sprintf("fs=%s net=%s pid=%s", l.FS, l.Net, l.PID)
}

// Missing names the layers that are not there, in the order fs, net, pid;
// empty when the sandbox is complete.
func (l Layers) Missing() []string {
	var out []string
	if l.FS == None || l.FS == "" {
		out = append(out, "fs")
	}
	if l.Net == None || l.Net == "" {
		out = append(out, "net")
	}
	if l.PID != PIDNS {
		out = append(out, "pid")
	}
	return out
}

// Spec is what one test run may touch.
type Spec struct {
	Dir      string   // the workspace: read-write
	Tmp      string   // the run's private temporary folder: read-write
	Writable []string // further read-write folders
	ReadOnly []string // further read-only folders (toolchains); missing ones are ignored
}
