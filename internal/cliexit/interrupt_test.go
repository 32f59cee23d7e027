package cliexit

import (
	"bytes"
	"context"
	"errors"
	"io"
	"sync"
	"syscall"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe to write from the handler's goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// interrupt sends this process a SIGINT, which the handler under test catches.
func interrupt(t *testing.T) {
	t.Helper()
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
}

// watchForTest installs the handler with an exit that reports its code.
func watchForTest(t *testing.T) (context.Context, *syncBuffer, chan int) {
	var errw syncBuffer
	codes := make(chan int, 2)
	ctx, stop := watch(&errw, func(code int) { codes <- code })
	t.Cleanup(stop)
	return ctx, &errw, codes
}

// An interrupt of a command that does not stop cleanly exits 130 before
// the command's context is cancelled: a command that fails on its
// cancelled context must not get to exit 1 first.
func TestInterruptEndsACommandAtOnce(t *testing.T) {
	var errw syncBuffer
	codes := make(chan int, 2)
	watched := make(chan context.Context, 1)
	ctx, stop := watch(&errw, func(code int) {
		ctx := <-watched
		watched <- ctx
		if ctx.Err() != nil {
			code = -1 // cancelled before the exit
		}
		codes <- code
	})
	watched <- ctx
	t.Cleanup(stop)
	interrupt(t)
	select {
	case code := <-codes:
		if code != Interrupted {
			t.Errorf("exit %d, want %d (-1: the context was cancelled before the exit)", code, Interrupted)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the interrupt did not end the command")
	}
	if got := errw.String(); got != "bench: interrupted\n" {
		t.Errorf("stderr %q", got)
	}
}

func TestInterruptOfACommandThatStopsCleanly(t *testing.T) {
	ctx, errw, codes := watchForTest(t)
	StopCleanly(ctx, "stopping")
	interrupt(t)
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the first interrupt did not cancel the context")
	}
	select {
	case code := <-codes:
		t.Fatalf("the first interrupt exited %d; it should only cancel", code)
	case <-time.After(200 * time.Millisecond):
	}
	interrupt(t)
	select {
	case code := <-codes:
		if code != Interrupted {
			t.Errorf("exit %d, want %d", code, Interrupted)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the second interrupt did not quit")
	}
	if got, want := errw.String(), "stopping\nsecond interrupt: quitting now\n"; got != want {
		t.Errorf("stderr %q, want %q", got, want)
	}
}

// TestExitAfterACleanInterrupt: a command that stops cleanly exits 130
// after the first interrupt whatever it returns (a check it cut short
// fails, or nothing), and before any interrupt with its error's code.
func TestExitAfterACleanInterrupt(t *testing.T) {
	ctx, _, _ := watchForTest(t)
	StopCleanly(ctx, "")
	failed := errors.New("model call interrupted")
	if code := Exit(ctx, failed, io.Discard); code != Failure {
		t.Errorf("before an interrupt: exit %d, want %d", code, Failure)
	}
	if code := Exit(ctx, Usagef("bad"), io.Discard); code != Usage {
		t.Errorf("before an interrupt, a usage error: exit %d, want %d", code, Usage)
	}
	interrupt(t)
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the interrupt did not cancel the context")
	}
	for _, err := range []error{nil, failed, Silent(Failure)} {
		if code := Exit(ctx, err, io.Discard); code != Interrupted {
			t.Errorf("after an interrupt, returning %v: exit %d, want %d", err, code, Interrupted)
		}
	}
	if Exit(context.Background(), nil, io.Discard) != 0 || WasInterrupted(context.Background()) {
		t.Error("without a handler, nothing was interrupted")
	}
}

func TestStopCleanlyWithoutAHandlerIsHarmless(t *testing.T) {
	StopCleanly(context.Background(), "stopping") // a test driving the CLI in process has no handler
}
