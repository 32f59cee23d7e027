package cliexit

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

func TestCode(t *testing.T) {
	for _, tc := range []struct {
		err    error
		code   int
		stderr string
	}{
		{nil, 0, ""},
		{errors.New("broke"), Failure, "bench: broke\n"},
		{Usagef("bad --%s", "x"), Usage, "bench: bad --x\n"},
		{fmt.Errorf("wrapped: %w", UsageOf(errors.New("bad"))), Usage, "bench: wrapped: bad\n"},
		{cli.Exit("", Interrupted), Interrupted, ""},
		{errors.New("a \x1b[2J b"), Failure, "bench: a \\x1b[2J b\n"},
	} {
		var errw bytes.Buffer
		if got := Code(tc.err, &errw); got != tc.code || errw.String() != tc.stderr {
			t.Errorf("Code(%v) = %d, %q; want %d, %q", tc.err, got, errw.String(), tc.code, tc.stderr)
		}
	}
}

func TestUsageOfNil(t *testing.T) {
	if UsageOf(nil) != nil {
		t.Error("UsageOf(nil) is not nil")
	}
}

// TestGoRunNote: under go run (a binary in the build cache) an interrupted
// run says that go run turns its exit 130 into 1; the built binary says
// nothing of it.
func TestGoRunNote(t *testing.T) {
	if note := GoRunNote("/tmp/go-build1234/b001/exe/bench"); !strings.Contains(note, "exit status 1") || !strings.Contains(note, "130") {
		t.Errorf("under go run: %q", note)
	}
	if note := GoRunNote("bin/bench"); note != "" {
		t.Errorf("the built binary: %q", note)
	}
}
