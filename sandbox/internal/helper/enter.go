package helper

import (
	"os"
	"runtime"
	"syscall"
)

// Namespaces are the namespaces the helper enters before it applies the
// rest of the sandbox: clone flags, and the uid and gid mapped to
// themselves in the new user namespace.
type Namespaces struct {
	Flags    uintptr
	UID, GID int
}

// Set asks a (a command's SysProcAttr) for the namespaces ns: its clone
// flags, with ns's uid and gid mapped to themselves in the new user
// namespace (so that files the tests write belong to the user, and no
// root is needed).
func (ns Namespaces) Set(a *syscall.SysProcAttr) {
	a.Cloneflags |= ns.Flags
	a.UidMappings = []syscall.SysProcIDMap{{ContainerID: ns.UID, HostID: ns.UID, Size: 1}}
	a.GidMappings = []syscall.SysProcIDMap{{ContainerID: ns.GID, HostID: ns.GID, Size: 1}}
	a.GidMappingsEnableSetgroups = false
}

// nsWord, right after the marker, makes the helper a first stage: it
// enters the namespaces by starting itself again in them.
const nsWord = "ns"

// Enter is args (a command line from Args) for a helper that enters ns
// itself. Its caller can then start it without clone flags or id
// mappings, which lets os/exec use vfork: a fork-like clone of a process
// with a large heap copies and write-protects all its page tables, and
// each of its later writes to a page faults. The helper's first stage, a
// small fresh process, pays for that clone instead.
func Enter(ns Namespaces, args []string) []string {
	out := []string{Marker, nsWord, itoa(uint64(ns.Flags)), itoa(uint64(ns.UID)), itoa(uint64(ns.GID))}
	return append(out, args[1:]...)
}

// parseEnter reads the words after nsWord: the namespaces, then the
// second stage's words.
func parseEnter(args []string) (Namespaces, []string, error) {
	var n [3]uint64
	if len(args) < len(n) {
		return Namespaces{}, nil, failure("the helper was given no namespaces", 0)
	}
	for i := range n {
		v, ok := atoi(args[i])
		if !ok {
			return Namespaces{}, nil, failure("reading the helper's namespaces at "+quote(args[i]), 0)
		}
		n[i] = v
	}
	return Namespaces{Flags: uintptr(n[0]), UID: int(n[1]), GID: int(n[2])}, args[len(n):], nil
}

// enter is the first stage: it starts the second (the helper without
// nsWord) in the namespaces, with the file descriptors it was given, waits
// for it and ends as it did. It returns only when it cannot start it.
//
// The second stage dies with the first (a parent-death signal), which
// dies with its own caller (the one the caller set); both are in the
// caller's process group, so killing the group kills them, and the death
// of the second, PID 1 of its PID namespace, kills all in it.
func enter(args []string) error {
	ns, rest, err := parseEnter(args)
	if err != nil {
		return err
	}
	// The parent-death signal fires when the thread that started the
	// second stage ends: init's goroutine is locked to the main thread,
	// and this keeps it so.
	runtime.LockOSThread()
	// The caller's extra files (fds 3 and up, as exec.Cmd's ExtraFiles
	// leaves them: without close-on-exec) pass to the second stage, and
	// on to the command, at their numbers as they are, like its gaps.
	sys := &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	ns.Set(sys)
	attr := &syscall.ProcAttr{Env: os.Environ(), Files: []uintptr{0, 1, 2}, Sys: sys}
	argv := append([]string{os.Args[0], Marker}, rest...)
	pid, err := syscall.ForkExec("/proc/self/exe", argv, attr)
	if err == syscall.ENOENT { // no /proc
		pid, err = syscall.ForkExec(os.Args[0], argv, attr)
	}
	if err != nil {
		return failure("entering the sandbox's namespaces", errno(err))
	}
	relay(wait(pid))
	return nil // not reached
}

// wait waits for the child pid to end and returns how it did.
func wait(pid int) syscall.WaitStatus {
	var ws syscall.WaitStatus
	for {
		_, err := syscall.Wait4(pid, &ws, 0, nil)
		if err != syscall.EINTR {
			return ws
		}
	}
}

// itoa is v in decimal.
func itoa(v uint64) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + v%10)
		v /= 10
		if v == 0 {
			return string(b[i:])
		}
	}
}

// atoi reads a decimal number of at most 19 digits.
func atoi(s string) (uint64, bool) {
	if s == "" || len(s) > 19 {
		return 0, false
	}
	var v uint64
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		v = v*10 + uint64(s[i]-'0')
	}
	return v, true
}
