package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// runCLI runs the CLI in-process and returns its output and error.
func runCLI(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errb bytes.Buffer
	err = runContext(context.Background(), append([]string{"bench"}, args...), &out, &errb)
	return out.String(), errb.String(), err
}

func TestVersion(t *testing.T) {
	t.Parallel()
	out, _, err := runCLI(t, "version")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out, "bench ") {
		t.Fatalf("version output %q does not start with \"bench \"", out)
	}
	for _, flag := range []string{"--version", "-v"} {
		got, _, err := runCLI(t, flag)
		if err != nil || got != out {
			t.Errorf("bench %s printed %q (err %v); bench version printed %q", flag, got, err, out)
		}
	}
}

func TestUnknownCommandFails(t *testing.T) {
	t.Parallel()
	_, _, err := runCLI(t, "no-such-command")
	if err == nil {
		t.Fatal("an unknown command succeeded")
	}
}
