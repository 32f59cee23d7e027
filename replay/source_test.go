package replay_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"bench/internal/testsupport/fixture"
	"bench/record"
	"bench/replay"
	"bench/tasks"
)

// TestOpenRefusesDamagedTrajectories damages the agent's trajectory in a
// copy of the recording, one way at a time: each is refused with a message
// naming the episode, the file and what is missing, and nothing is
// replayed. The undamaged copy opens (the control).
func TestOpenRefusesDamagedTrajectories(t *testing.T) {
	fixture.ParallelPython(t)
	r := sharedRun(t)
	current := loadTasks(t, r.taskRoot)
	ep := r.episode(t, "agent")
	lines := func(b []byte) []string { return strings.SplitAfter(string(b), "\n") }
	cases := []struct {
		name   string
		damage func(t *testing.T, path string, b []byte)
		want   string
	}{
		{"torn last line", func(t *testing.T, path string, b []byte) { write(t, path, b[:len(b)-10]) },
			"is torn or damaged, so events are missing from it: " + "%s:"},
		{"end event cut off", func(t *testing.T, path string, b []byte) {
			l := lines(b)
			write(t, path, []byte(strings.Join(l[:len(l)-2], "")))
		}, "without its end event: it was cut short"},
		{"middle line removed", func(t *testing.T, path string, b []byte) {
			l := lines(b)
			write(t, path, []byte(strings.Join(append(l[:4:4], l[5:]...), "")))
		}, "lacks event seq 4 (line 5 holds seq 5): events were cut out of it"},
		{"file removed", func(t *testing.T, path string, b []byte) { os.Remove(path) }, "is missing"},
		{"reply edited", func(t *testing.T, path string, b []byte) {
			if !strings.Contains(string(b), "Done: leap.py") {
				t.Fatal("the agent's last reply is not in its trajectory")
			}
			write(t, path, []byte(strings.Replace(string(b), "Done: leap.py", "Done! leap.py", 1)))
		}, "was changed after the episode ended: its SHA-256 is"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := copyRun(t, r.dir)
			path := filepath.Join(dir, record.TrajectoryRel(r.data.Run, ep))
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			c.damage(t, path, b)
			src, err := replay.Open(dir, current)
			want := strings.ReplaceAll(c.want, "%s", path)
			if err == nil || src != nil {
				t.Fatalf("a trajectory with its %s opened", c.name)
			}
			if msg := err.Error(); !strings.Contains(msg, "cannot replay "+ep.Key()+": its trajectory "+path+" ") || !strings.Contains(msg, want) || strings.Contains(msg, "\n") {
				t.Fatalf("error %q, want one line naming %s, %s and %q", msg, ep.Key(), path, want)
			}
		})
	}
	if _, err := replay.Open(copyRun(t, r.dir), current); err != nil {
		t.Fatalf("the undamaged copy: %v", err)
	}

	dir := copyRun(t, r.dir)
	for _, track := range []string{"agent", "hybrid"} {
		os.Remove(filepath.Join(dir, record.TrajectoryRel(r.data.Run, r.episode(t, track))))
	}
	if _, err := replay.Open(dir, current); err == nil || !strings.Contains(err.Error(), "(and 1 more trajectories cannot be replayed)") {
		t.Fatalf("two missing trajectories: %v", err)
	}
}

// write replaces a file's bytes.
func write(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestOpenSkipsUnfinishedEpisodes appends an interrupted and a lost
// episode, neither with a trajectory, to a copy of the recording: both are
// skipped, with their reasons, and the rest open. An episode whose track
// names a folder outside the recording is refused; a recording of nothing
// but unfinished episodes has nothing to replay.
func TestOpenSkipsUnfinishedEpisodes(t *testing.T) {
	fixture.ParallelPython(t)
	r := sharedRun(t)
	dir := copyRun(t, r.dir)
	interrupted, lost := r.episode(t, "agent"), r.episode(t, "agent")
	interrupted.Seed, interrupted.ExitReason = 2, record.ExitInterrupted
	lost.Seed, lost.ExitReason, lost.ErrorKind = 3, record.ExitError, record.ErrorUnreachable
	appendEpisodes(t, dir, interrupted, lost)
	src, err := replay.Open(dir, loadTasks(t, r.taskRoot))
	if err != nil {
		t.Fatal(err)
	}
	if len(src.Episodes) != len(allTracks) || len(src.Skipped) != 2 ||
		src.Skipped[0].Key != interrupted.Key() || !strings.Contains(src.Skipped[0].Reason, "interrupted") ||
		src.Skipped[1].Key != lost.Key() || !strings.Contains(src.Skipped[1].Reason, "lost to the infrastructure (unreachable)") {
		t.Fatalf("episodes %d, skipped %+v", len(src.Episodes), src.Skipped)
	}
	if _, err := src.Player(interrupted.Key()); err == nil || !strings.Contains(err.Error(), "has no episode "+interrupted.Key()) {
		t.Fatalf("a player for a skipped episode: %v", err)
	}

	outside := copyRun(t, r.dir)
	escape := r.episode(t, "agent")
	escape.Track = ".."
	appendEpisodes(t, outside, escape)
	if _, err := replay.Open(outside, loadTasks(t, r.taskRoot)); err == nil || !strings.Contains(err.Error(), `episodes.jsonl names the track "..", which names no folder of the recording's trajectories`) {
		t.Fatalf("a track naming a folder outside the recording: %v", err)
	}

	only := copyRun(t, r.dir)
	write(t, filepath.Join(only, record.EpisodesFile), nil)
	appendEpisodes(t, only, interrupted)
	if _, err := replay.Open(only, loadTasks(t, r.taskRoot)); err == nil || !strings.Contains(err.Error(), "holds no finished episode to replay (1 recorded, 1 interrupted or lost)") {
		t.Fatalf("nothing to replay: %v", err)
	}
}

// appendEpisodes appends episodes to a run folder's episodes.jsonl.
func appendEpisodes(t *testing.T, dir string, eps ...record.Episode) {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(dir, record.EpisodesFile), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, ep := range eps {
		b, _ := json.Marshal(ep)
		if _, err := f.Write(append(b, '\n')); err != nil {
			t.Fatal(err)
		}
	}
}

// TestOpenNeedsTheRecordedTasks: a recording whose task the current tasks
// lack is refused, naming the task and --tasks-dir.
func TestOpenNeedsTheRecordedTasks(t *testing.T) {
	fixture.ParallelPython(t)
	r := sharedRun(t)
	others := []tasks.Task{fixture.CourseTask(t, "parse_date")}
	if _, err := replay.Open(r.dir, others); err == nil || !strings.Contains(err.Error(), "the recording ran leap_year, which the current tasks lack") || !strings.Contains(err.Error(), "--tasks-dir") {
		t.Fatalf("missing task: %v", err)
	}
	if _, err := replay.Open(filepath.Join(t.TempDir(), "nowhere"), others); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Fatalf("no recording: %v", err)
	}
}

// TestOpenReadsADigestAsTheReportDoes: a digest recorded in upper case
// with the "sha256:" prefix of the tasks' checksums, which the report's
// trajectory check accepts (record.SameDigest), is accepted by the replay
// too: the two never disagree on one line.
func TestOpenReadsADigestAsTheReportDoes(t *testing.T) {
	fixture.ParallelPython(t)
	r := sharedRun(t)
	dir := copyRun(t, r.dir)
	path := filepath.Join(dir, record.EpisodesFile)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := r.episode(t, "agent").TrajectorySHA256
	if sum == "" || !strings.Contains(string(b), sum) {
		t.Fatal("the agent's episode has no digest to spell another way")
	}
	write(t, path, []byte(strings.Replace(string(b), sum, "sha256:"+strings.ToUpper(sum), 1)))
	data, err := record.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	verdicts := data.Verdicts()
	for i, ep := range data.Episodes {
		if st := verdicts[i].Status; ep.Track == "agent" && st != record.StatusPassed {
			t.Fatalf("the report counts the agent's episode %s", st)
		}
	}
	if _, err := replay.Open(dir, loadTasks(t, r.taskRoot)); err != nil {
		t.Errorf("the replay refuses what the report accepts: %v", err)
	}
}
