// Package helper is the sandbox's helper: bench re-executed with the
// marker as argv[1], to apply Landlock (and, on kernels before Landlock
// ABI 9, a seccomp filter against unix sockets) to itself and execute a
// test command in its place. Started with the ns word after the marker
// (Enter), it is a first stage that enters the sandbox's namespaces by
// starting the helper again in them, so that its caller need not.
//
// It does its work in its init function and depends on nothing but os and
// syscall, so that the helper takes over as soon as those are initialised,
// before the init functions of bench's heavy dependencies (Go initialises
// each package once its dependencies are, in import-path order, and
// "bench/…" sorts before them). Package sandbox builds its command line
// with Args.
package helper

import (
	"os"
	"syscall"
)

// Marker is argv[1] of the helper.
const Marker = "__bench_sandbox_exec__"

// Exit is the helper's exit status when it cannot set up the sandbox.
const Exit = 126

// Words of the helper's command line.
const (
	roWord   = "ro" // followed by a folder to read and execute
	rwWord   = "rw" // followed by a folder to read and write
	loWord   = "lo" // bring up loopback (a fresh network namespace)
	execWord = "--" // followed by the binary and its argv
)

// Args is the helper's argv after argv[0]: the marker, then what the test
// command may read (ro), read and write (rw), whether to bring up
// loopback, then the command (bin, argv).
func Args(ro, rw []string, loopback bool, bin string, argv []string) []string {
	args := []string{Marker}
	for _, p := range ro {
		args = append(args, roWord, p)
	}
	for _, p := range rw {
		args = append(args, rwWord, p)
	}
	if loopback {
		args = append(args, loWord)
	}
	args = append(args, execWord, bin)
	return append(args, argv...)
}

// init serves as the helper when argv[1] is the marker: it never returns
// then, but executes the test command (or, as a first stage, ends as the
// second stage it started did) or exits with status Exit and a message on
// stderr.
func init() {
	if len(os.Args) < 2 || os.Args[1] != Marker {
		return
	}
	args := os.Args[2:]
	var err error
	switch {
	case len(args) == 1 && args[0] == idWord:
		tellIdentity()
	case len(args) > 0 && args[0] == nsWord:
		err = enter(args[1:])
	default:
		err = run(args)
	}
	os.Stderr.WriteString("bench sandbox: " + err.Error() + "\n")
	os.Exit(Exit)
}

// spec is a parsed helper command line.
type spec struct {
	ro, rw   []string
	loopback bool
	bin      string
	argv     []string
}

// parse reads the words after the marker.
func parse(args []string) (spec, error) {
	var s spec
	for i := 0; i < len(args); i++ {
		switch w := args[i]; {
		case w == loWord:
			s.loopback = true
		case (w == roWord || w == rwWord) && i+1 < len(args):
			i++
			if w == roWord {
				s.ro = append(s.ro, args[i])
			} else {
				s.rw = append(s.rw, args[i])
			}
		case w == execWord && i+2 < len(args):
			s.bin, s.argv = args[i+1], args[i+2:]
			return s, nil
		default:
			return s, failure("reading the helper's command line at "+quote(w), 0)
		}
	}
	return s, failure("the helper was given no command", 0)
}

// run applies the sandbox and executes the command; it returns only on
// failure.
func run(args []string) error {
	s, err := parse(args)
	if err != nil {
		return err
	}
	if s.loopback {
		// Without it the namespace has no network at all, which is
		// stricter still; so a failure here is not fatal.
		loopbackUp()
	}
	return restrictAndExec(s, os.Environ())
}

// helperError is a failure of the helper, worded without package fmt.
type helperError struct {
	what  string
	errno syscall.Errno
}

func (e helperError) Error() string {
	if e.errno == 0 {
		return e.what
	}
	return e.what + ": " + e.errno.Error()
}

func (e helperError) Unwrap() error {
	if e.errno == 0 {
		return nil
	}
	return e.errno
}

// failure is a helperError; errno 0 means none.
func failure(what string, errno syscall.Errno) error { return helperError{what, errno} }

// errno is err's errno (the system calls here return nothing else), or EINVAL.
func errno(err error) syscall.Errno {
	if e, ok := err.(syscall.Errno); ok {
		return e
	}
	return syscall.EINVAL
}

func quote(s string) string { return "\"" + s + "\"" }
