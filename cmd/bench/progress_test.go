package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"bench/record"
)

func TestProgressPlainLines(t *testing.T) {
	var b bytes.Buffer
	p := newProgress(&b, 3, 1, 1)
	p.episode(record.Episode{Task: "slugify", Track: "workflow", Seed: 2, Repeat: 1, TestsTotal: 5, TestsPassed: 2, ExitReason: "done", Turns: 1, PromptTokens: 300, CompletionTokens: 50, WallMS: 1500})
	p.finish()
	want := "[2/3] slugify workflow seed-2-r1: failed (2/5 tests, exit done, 1 turn, 350 tokens, 1.5s)\n"
	if b.String() != want {
		t.Fatalf("got %q\nwant %q", b.String(), want)
	}
}

func TestProgressStatusETA(t *testing.T) {
	p := newProgress(&bytes.Buffer{}, 10, 0, 0)
	start := p.start
	p.now = func() time.Time { return start.Add(4 * time.Second) }
	p.done, p.fresh, p.passed = 2, 2, 1
	if got := p.status(); got != "2/10 episodes, 1 passed, elapsed 4s, ETA 16s" {
		t.Fatalf("status %q", got)
	}
	p.fresh = 0
	if got := p.status(); !strings.HasSuffix(got, "ETA ?") {
		t.Fatalf("status without a finished episode %q", got)
	}
}
