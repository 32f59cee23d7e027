// This file holds bench's exit codes, the convention of go, git and POSIX
// tools: 0 done, 1 a failure, 2 a mistake on the command line, 130 stopped
// by an interrupt.

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"

	"github.com/urfave/cli/v2"

	"bench/internal/inert"
	"bench/testrun"
)

// The exit codes.
const (
	exitFailure     = 1   // the command line was right and the work failed
	exitUsage       = 2   // the command line itself is wrong: unknown command or flag, a value the flag does not take, an argument too many or too few, flags that exclude each other
	exitInterrupted = 130 // an interrupt (Ctrl-C) or SIGTERM stopped the command
)

// usageErr is a mistake on the command line: bench exits with exitUsage.
type usageErr struct{ err error }

func (e usageErr) Error() string { return e.err.Error() }
func (e usageErr) Unwrap() error { return e.err }

// ExitCode makes usageErr a cli.ExitCoder.
func (e usageErr) ExitCode() int { return exitUsage }

// usagef formats a mistake on the command line (exit 2), as fmt.Errorf does.
func usagef(format string, a ...any) error { return usageErr{fmt.Errorf(format, a...)} }

// usage marks err, when not nil, as a mistake on the command line (exit 2).
func usage(err error) error {
	if err == nil {
		return nil
	}
	return usageErr{err}
}

// exitCode prints err (if it has a message) and returns the process exit
// code: the code err carries (cli.Exit, usageErr), else exitFailure.
func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return 0
	}
	code := exitFailure
	var ec cli.ExitCoder
	if errors.As(err, &ec) {
		code = ec.ExitCode()
	}
	if msg := err.Error(); msg != "" {
		fmt.Fprintln(stderr, "bench:", inert.Text(msg)) // an error can quote a server's or a model's bytes
	}
	return code
}

// ownInterrupt holds whether the running command handles an interrupt
// itself (bench run finishes or marks its running episodes, then exits
// exitInterrupted), as does bench tasks verify (it stops after the task
// under way); every other command is stopped at once.
var ownInterrupt atomic.Bool

// commandsWithOwnInterrupt are the commands that set ownInterrupt.
var commandsWithOwnInterrupt = map[string]bool{"run": true, "verify": true}

// exitOnInterrupt makes an interrupt or SIGTERM end a command that does not
// handle it itself with exitInterrupted, after killing the test processes
// it started. The returned context is cancelled by the same signal.
func exitOnInterrupt(stderr io.Writer) (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case <-sig:
		case <-done:
			return
		}
		cancel()
		if !ownInterrupt.Load() {
			fmt.Fprintln(stderr, "bench: interrupted")
			testrun.KillAll()
			os.Exit(exitInterrupted)
		}
	}()
	return ctx, func() {
		signal.Stop(sig)
		close(done)
		cancel()
	}
}
