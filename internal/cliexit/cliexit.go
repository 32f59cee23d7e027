// Package cliexit holds how bench ends: its exit codes, the convention of
// go, git and POSIX tools (0 done, 1 a failure, 2 a mistake on the command
// line, 130 stopped by an interrupt), the usage errors that carry exit 2,
// and bench's one handler of SIGINT and SIGTERM (interrupt.go).
package cliexit

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"bench/internal/inert"
)

// The exit codes.
const (
	Failure     = 1   // the command line was right and the work failed
	Usage       = 2   // the command line itself is wrong: unknown command or flag, a value the flag does not take, an argument too many or too few, flags that exclude each other
	Interrupted = 130 // an interrupt (Ctrl-C) or SIGTERM stopped the command
)

// usageErr is a mistake on the command line: bench exits with Usage.
type usageErr struct{ err error }

func (e usageErr) Error() string { return e.err.Error() }
func (e usageErr) Unwrap() error { return e.err }

// ExitCode makes usageErr a cli.ExitCoder.
func (e usageErr) ExitCode() int { return Usage }

// Usagef formats a mistake on the command line (exit 2), as fmt.Errorf does.
func Usagef(format string, a ...any) error { return usageErr{fmt.Errorf(format, a...)} }

// UsageOf marks err, when not nil, as a mistake on the command line (exit 2).
func UsageOf(err error) error {
	if err == nil {
		return nil
	}
	return usageErr{err}
}

// Code prints err (if it has a message) and returns the process exit
// code: the code err carries (cli.Exit, a usage error), else Failure.
func Code(err error, stderr io.Writer) int {
	if err == nil {
		return 0
	}
	code := Failure
	var ec cli.ExitCoder
	if errors.As(err, &ec) {
		code = ec.ExitCode()
	}
	if msg := err.Error(); msg != "" {
		fmt.Fprintln(stderr, "bench:", inert.Text(msg)) // an error can quote a server's or a model's bytes
	}
	return code
}

// GoRunNote warns, when bench runs under `go run` (its binary argv0 in the
// go command's build cache), that go run reports the exit status 130 of an
// interrupted run as 1; "" otherwise.
func GoRunNote(argv0 string) string {
	if !strings.Contains(filepath.ToSlash(argv0), "/go-build") {
		return ""
	}
	return "note: bench exits 130 here, but `go run` reports every failure as exit status 1; a script that tells an interrupt apart needs the built binary (go build -o bin/bench ./cmd/bench)"
}

// Silent is an error that prints nothing and exits code: the command has
// said why on its own.
func Silent(code int) error { return cli.Exit("", code) }
