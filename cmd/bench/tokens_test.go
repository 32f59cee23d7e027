package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"bench/model/tokens"
)

func TestTokensCountsAFile(t *testing.T) {
	t.Parallel()
	text := "def is_leap(year):\n    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)\n"
	path := filepath.Join(t.TempDir(), "leap.py")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, enc := range []string{tokens.CL100K, tokens.O200K} {
		out, _, err := runCLI(t, "tokens", "--encoding", enc, path)
		if err != nil {
			t.Fatal(err)
		}
		c, _ := tokens.New(enc)
		if got := strings.TrimSpace(out); got != strconv.Itoa(c.Count(text)) {
			t.Errorf("%s: printed %q, want %d", enc, got, c.Count(text))
		}
	}
}

func TestTokensReadsStdin(t *testing.T) {
	t.Parallel()
	var out, errb bytes.Buffer
	app := newApp(&out, &errb)
	app.Reader = strings.NewReader("hello world")
	if err := app.Run([]string{"bench", "tokens", "-"}); err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(out.String()); got != "2" {
		t.Errorf("printed %q, want 2", got)
	}
}

func TestTokensErrors(t *testing.T) {
	t.Parallel()
	_, _, err := runCLI(t, "tokens", filepath.Join(t.TempDir(), "nope.txt"))
	if err == nil || !strings.Contains(err.Error(), "nope.txt") {
		t.Errorf("missing file: %v", err)
	}
	_, _, err = runCLI(t, "tokens", "--encoding", "gpt2", "-")
	if err == nil || !strings.Contains(err.Error(), "cl100k_base") {
		t.Errorf("unknown encoding: %v", err)
	}
}

func TestTokensRefusesBinaryStdin(t *testing.T) {
	t.Parallel()
	var out, errb bytes.Buffer
	app := newApp(&out, &errb)
	app.Reader = bytes.NewReader([]byte{0, 0xff, 'a'})
	err := app.Run([]string{"bench", "tokens", "-"})
	if err == nil || !strings.Contains(err.Error(), "stdin is not text") || out.Len() != 0 {
		t.Fatalf("binary stdin: %v, printed %q", err, out.String())
	}
}
