package sandbox

import (
	"os/exec"
	"sync"
	"syscall"

	"bench/sandbox/internal/helper"
)

// caps is what the kernel allows, found once per process.
type caps struct {
	abi      int   // Landlock ABI version; 0 when Landlock is unavailable
	abiErr   error // why not
	userns   bool  // user namespaces (with net, pid, mount, ipc, uts) can be created
	usernsEr error // why not
}

var (
	capsOnce sync.Once
	found    caps
)

// detect returns the kernel's capabilities, probing them on first use.
func detect() caps {
	capsOnce.Do(func() {
		found.abi, found.abiErr = helper.ABIVersion()
		found.usernsEr = tryNamespaces()
		found.userns = found.usernsEr == nil
	})
	return found
}

// nsFlags are the namespaces every sandboxed test run gets.
const nsFlags = syscall.CLONE_NEWUSER | syscall.CLONE_NEWNET | syscall.CLONE_NEWPID |
	syscall.CLONE_NEWNS | syscall.CLONE_NEWIPC | syscall.CLONE_NEWUTS

// tryNamespaces starts `true` in the namespaces a test run would get.
func tryNamespaces() error {
	bin, err := exec.LookPath("true")
	if err != nil {
		return err
	}
	cmd := exec.Command(bin)
	cmd.SysProcAttr = &syscall.SysProcAttr{}
	setNamespaces(cmd.SysProcAttr)
	return cmd.Run()
}

// ownNamespaces are the namespaces of a test run, with the caller's own
// uid and gid.
func ownNamespaces() helper.Namespaces {
	return helper.Namespaces{Flags: nsFlags, UID: syscall.Getuid(), GID: syscall.Getgid()}
}

// setNamespaces asks a for a test run's namespaces.
func setNamespaces(a *syscall.SysProcAttr) { ownNamespaces().Set(a) }
