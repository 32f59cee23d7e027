package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"bench/internal/testsupport/fixture"
	"bench/model"
	"bench/model/modeltest"
	"bench/record"
)

// faultsWithinLimit reports whether an episode ended within limit plus a
// grace: its test runs (grading runs after the limit, and on a loaded
// machine a run takes seconds) and 5 s for its records.
func faultsWithinLimit(ep record.Episode, limit time.Duration) bool {
	return time.Duration(ep.WallMS)*time.Millisecond <= limit+time.Duration(ep.TestMS)*time.Millisecond+5*time.Second
}

// TestFaultsHugeReplyIsTheModelsFailure: a reply far past the reply cap
// (24 MB against the default 256 KiB of --max-tokens 4096) is cut at the
// cap and is the model's failure (reply_too_large, standing); the episode
// ends within its limit and the trajectory holds none of the flood. (The
// limit is loose: the first test run must not use it up on a loaded machine.)
func TestFaultsHugeReplyIsTheModelsFailure(t *testing.T) {
	t.Parallel()
	for _, backend := range fixture.Few(t, faultsBackends, 1, "model's TestDefaultReplyCap (a reply past the cap is cut, both protocols)") {
		t.Run(backend, func(t *testing.T) {
			t.Parallel()
			srv := faultsServer(t, backend, modeltest.Always(modeltest.Huge(24<<20)))
			dir := filepath.Join(t.TempDir(), "run")
			stderr, data, _ := faultsAgentRun(t, srv, dir, "1", "--episode-timeout", "30s", "--timeout", "4s")
			if len(data.Episodes) != 1 {
				t.Fatalf("%d episodes:\n%s", len(data.Episodes), stderr)
			}
			ep := data.Episodes[0]
			if ep.Lost() || ep.ErrorKind != record.ErrorReplyTooLarge || ep.Passed || !strings.Contains(ep.Error, "--max-reply-bytes") {
				t.Fatalf("kind %q, lost %v, error %q; want the model's reply_too_large naming --max-reply-bytes", ep.ErrorKind, ep.Lost(), ep.Error)
			}
			if !faultsWithinLimit(ep, 30*time.Second) {
				t.Errorf("the episode took %d ms (%d ms in tests), past its limit", ep.WallMS, ep.TestMS)
			}
			if info, err := os.Stat(data.TrajectoryPath(ep)); err != nil || info.Size() > 1<<20 {
				t.Errorf("trajectory: %v, %d bytes; want it to hold no flood", err, info.Size())
			}
		})
	}
}

// TestFaultsRaisedReplyCapStaysWithinTheLimits: with --max-reply-bytes
// raised past a 24 MB reply, the reply is read, its token estimate is
// bounded (a capped prefix, extrapolated), and the episode still ends
// within --episode-timeout plus the grace; a reply that streams slowly is
// cut at the episode's limit.
func TestFaultsRaisedReplyCapStaysWithinTheLimits(t *testing.T) {
	fixture.FullOnly(t, "TestFaultsReplyCapFlag and TestFaultsHugeReplyIsTheModelsFailure")
	t.Parallel()
	const limit = 8 * time.Second
	for name, rep := range map[string]modeltest.Reply{
		"fast": modeltest.Huge(24 << 20),
		"slow": modeltest.Huge(24 << 20).Drip(50 * time.Millisecond), // 384 chunks: 19 s
	} {
		t.Run(name, func(t *testing.T) {
			srv := modeltest.NewOllama(t, modeltest.Always(rep))
			stderr, data, _ := faultsRun(t, srv, filepath.Join(t.TempDir(), "run"), "1",
				"--episode-timeout", limit.String(), "--timeout", "30s", "--max-reply-bytes", "67108864")
			if len(data.Episodes) != 1 {
				t.Fatalf("%d episodes:\n%s", len(data.Episodes), stderr)
			}
			ep := data.Episodes[0]
			if !faultsWithinLimit(ep, limit) {
				t.Errorf("the episode took %d ms (%d ms in tests), past its %v limit (exit %s: %s)", ep.WallMS, ep.TestMS, limit, ep.ExitReason, ep.Error)
			}
			if ep.Lost() {
				t.Errorf("a long reply is no fault of the infrastructure: kind %q: %s", ep.ErrorKind, ep.Error)
			}
			if name == "slow" && ep.ExitReason != record.ExitTimeout {
				t.Errorf("a reply still streaming at the limit: exit %s, want timeout (%s)", ep.ExitReason, ep.Error)
			}
		})
	}
}

// TestFaultsReplyCapFlag: --max-reply-bytes is recorded, refused when
// negative, and kept by --resume.
func TestFaultsReplyCapFlag(t *testing.T) {
	t.Parallel()
	srv := modeltest.NewOllama(t, modeltest.Always(modeltest.Huge(300)))
	dir := filepath.Join(t.TempDir(), "run")
	_, data, _ := faultsAgentRun(t, srv, dir, "1", "--max-reply-bytes", "100")
	if data.Run.MaxReplyBytes != 100 || len(data.Episodes) != 1 || data.Episodes[0].ErrorKind != record.ErrorReplyTooLarge {
		t.Fatalf("run.json max_reply_bytes %d, episodes %+v", data.Run.MaxReplyBytes, data.Episodes)
	}
	if _, _, err := runCLI(t, "run", "--resume", dir, "--max-reply-bytes", "5"); err == nil || !strings.Contains(err.Error(), "drop --max-reply-bytes") {
		t.Errorf("resume with a new cap: %v", err)
	}
	if _, _, err := runCLI(t, "run", "--tracks", "oracle", "--max-reply-bytes", "-1", "--out", filepath.Join(t.TempDir(), "x")); err == nil || !strings.Contains(err.Error(), "--max-reply-bytes") {
		t.Errorf("a negative cap: %v", err)
	}
	if got := (model.Config{}).ReplyCap(model.Options{MaxReplyTokens: 4096}); got != 256<<10 {
		t.Errorf("the default cap for --max-tokens 4096 is %d, want 256 KiB", got)
	}
}
