package sandbox

import (
	"fmt"

	"bench/sandbox/internal/helper"
)

// Check is what one layer can do on this machine, for bench doctor.
type Check struct {
	Layer  string // "fs", "net" or "pid"
	OK     bool
	Detail string // what the layer does here
	Fix    string // how to get it when !OK; "" when OK
}

// Probe reports, one Check per layer (fs, net, pid), what the sandbox can
// do on this machine in mode Auto.
func Probe() []Check {
	c := detect()
	l, _ := Plan(Config{Mode: Auto})
	return []Check{fsCheck(c, l), netCheck(c, l), pidCheck(c, l)}
}

func fsCheck(c caps, l Layers) Check {
	switch {
	case l.FS == Landlock:
		unix := "Landlock"
		if c.abi < helper.ResolveUnixABI {
			unix = "a seccomp filter"
		}
		return Check{Layer: "fs", OK: true, Detail: fmt.Sprintf("Landlock ABI %d: tests write only in the workspace and a private temp folder; %s keeps them from unix sockets outside; helper: %s", c.abi, unix, helperNote())}
	case c.abi >= 1:
		return Check{Layer: "fs", Detail: "Landlock is there but this program cannot serve as the sandbox helper", Fix: "put bench-sandbox (make build) beside it, or link package sandbox into the executable"}
	}
	return Check{Layer: "fs", Detail: fmt.Sprintf("no Landlock (%v): tests can write wherever the user can", c.abiErr),
		Fix: "use Linux 5.13 or later with Landlock enabled (boot with lsm=landlock,…)"}
}

func netCheck(c caps, l Layers) Check {
	switch l.Net {
	case NetNS:
		return Check{Layer: "net", OK: true, Detail: "network namespace: loopback only, nothing outside reachable"}
	case LandlockTCP:
		return Check{Layer: "net", OK: true, Detail: fmt.Sprintf("Landlock ABI %d denies TCP bind and connect (UDP and unix sockets still work)", c.abi),
			Fix: "allow unprivileged user namespaces for a network namespace too: " + usernsFix}
	}
	return Check{Layer: "net", Detail: "none: tests can reach the network and the model server",
		Fix: "allow unprivileged user namespaces (" + usernsFix + ") or use Linux 6.7+ (Landlock ABI 4)"}
}

func pidCheck(c caps, l Layers) Check {
	if l.PID == PIDNS {
		return Check{Layer: "pid", OK: true, Detail: "PID namespace: every process a test starts dies with the run; parent-death signal"}
	}
	return Check{Layer: "pid", Detail: fmt.Sprintf("no user namespaces (%v): a process that leaves the test's process group can outlive the run", c.usernsEr),
		Fix: usernsFix}
}

// usernsFix is how to allow unprivileged user namespaces.
const usernsFix = "sysctl kernel.apparmor_restrict_unprivileged_userns=0 (Ubuntu 24.04+) or kernel.unprivileged_userns_clone=1, or an AppArmor profile allowing userns for bench"

// helperNote says which executable serves as the helper.
func helperNote() string {
	if h := chosenHelper(); h.separate {
		return h.path
	}
	return "bench itself (no bench-sandbox of this version beside it: make build puts one there, and test runs start faster)"
}
