package cliexit

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"bench/testrun"
)

// handler is bench's one handler of SIGINT and SIGTERM. By default an
// interrupt kills the test processes bench started and exits Interrupted
// at once; a command that stops cleanly (StopCleanly) has the first one
// cancel its context instead, and a second one quit at once.
type handler struct {
	stderr io.Writer
	cancel context.CancelFunc
	exit   func(int)

	mu          sync.Mutex
	clean       bool   // the running command stops cleanly
	notice      string // what the first interrupt prints for it
	interrupted bool   // an interrupt came
}

type handlerKey struct{}

// Watch installs the handler for the life of the process's command: the
// context it returns is cancelled by the first interrupt, and stop
// removes the handler.
func Watch(stderr io.Writer) (ctx context.Context, stop func()) {
	return watch(stderr, os.Exit)
}

// watch is Watch with the function that ends the process.
func watch(stderr io.Writer, exit func(int)) (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	h := &handler{stderr: stderr, cancel: cancel, exit: exit}
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go h.serve(sig, done)
	return context.WithValue(ctx, handlerKey{}, h), func() {
		signal.Stop(sig)
		close(done)
		cancel()
	}
}

// serve answers the signals on sig until done is closed.
func (h *handler) serve(sig <-chan os.Signal, done <-chan struct{}) {
	for first := true; ; first = false {
		select {
		case <-sig:
		case <-done:
			return
		}
		h.mu.Lock()
		clean, notice := h.clean, h.notice
		h.interrupted = true
		h.mu.Unlock()
		switch {
		case !clean:
			fmt.Fprintln(h.stderr, "bench: interrupted")
		case first:
			h.cancel()
			if notice != "" {
				fmt.Fprintln(h.stderr, notice)
			}
			continue
		default:
			fmt.Fprintln(h.stderr, "second interrupt: quitting now")
		}
		// The context is cancelled only after the exit: cancelled first, a
		// command that does not stop cleanly could fail on it and exit 1
		// before this goroutine exits 130.
		testrun.KillAll()
		h.exit(Interrupted)
		h.cancel()
		return
	}
}

// WasInterrupted reports whether an interrupt came to the handler
// watching ctx. A command that stops cleanly then exits Interrupted
// whatever it returns (Exit): what it could not finish, it did not finish
// for the interrupt.
func WasInterrupted(ctx context.Context) bool {
	h, ok := ctx.Value(handlerKey{}).(*handler)
	if !ok {
		return false
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.interrupted
}

// Exit prints err (if it has a message) and returns the process's exit
// code: Interrupted after an interrupt (WasInterrupted), else Code's.
func Exit(ctx context.Context, err error, stderr io.Writer) int {
	code := Code(err, stderr)
	if WasInterrupted(ctx) {
		return Interrupted
	}
	return code
}

// StopCleanly tells the handler watching ctx (if any: a test that drives
// the CLI in its own process has none) that the running command stops
// cleanly on an interrupt: the first one prints notice (when not empty)
// and cancels the command's context, which the command then returns
// Interrupted for; a second one kills the test processes and exits
// Interrupted at once.
func StopCleanly(ctx context.Context, notice string) {
	h, ok := ctx.Value(handlerKey{}).(*handler)
	if !ok {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.clean, h.notice = true, notice
}
