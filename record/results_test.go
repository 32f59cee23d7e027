package record

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// sampleRun is a small run description for tests.
func sampleRun() Run {
	return Run{
		BenchVersion: "test",
		ID:           "run-1",
		Backend:      "ollama",
		Host:         "http://127.0.0.1:11434",
		Model:        "qwen3:8b",
		Seeds:        []int{1, 2},
		Tasks:        []TaskRef{{Name: "leap_year", Checksum: "sha256:00"}},
		Tracks:       []string{"workflow", "agent"},
		RunSettings:  RunSettings{Posture: "auto", MaxTurns: 20},
		Started:      time.Date(2026, 11, 29, 22, 0, 0, 0, time.UTC),
	}
}

// sampleEpisode is episode i of a test run, with every field set.
func sampleEpisode(i int) Episode {
	return Episode{
		Task: "leap_year", Track: "agent", Seed: i, Repeat: i % 2,
		Passed: i%3 == 0, TestsPassed: 3, TestsTotal: 4, FailedTests: []string{"test_1900"},
		ExitReason: ExitDone, Turns: 4, ModelCalls: 4, ToolCalls: []string{"read_file", "edit_file", "run_tests"},
		Steps: []string{"a1b2", "c3d4"}, PromptTokens: 1000 + i, CompletionTokens: 200, EstPromptTokens: 990,
		EstCompletionTokens: 210, WallMS: 1234, ModelMS: 1000, TestMS: 100, Posture: "general",
	}
}

func mustCreate(t *testing.T, dir string) *Writer {
	t.Helper()
	w, err := Create(dir, sampleRun())
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func TestRoundTrip(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run-1")
	w := mustCreate(t, dir)
	var want []Episode
	for i := range 3 {
		ep := sampleEpisode(i)
		if err := w.Append(ep); err != nil {
			t.Fatal(err)
		}
		ep.Format, ep.Run = FormatVersion, "run-1"
		want = append(want, ep)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}

	got, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	wantRun := sampleRun()
	wantRun.Format = FormatVersion
	if len(got.Run.UID) != 32 || got.UID != got.Run.UID {
		t.Errorf("run.json's uid %q (identity %q): Create makes a new one", got.Run.UID, got.UID)
	}
	wantRun.UID = got.Run.UID
	if !reflect.DeepEqual(got.Run, wantRun) {
		t.Errorf("run.json read back as\n%+v\nwant\n%+v", got.Run, wantRun)
	}
	if !reflect.DeepEqual(got.Episodes, want) {
		t.Errorf("episodes read back as\n%+v\nwant\n%+v", got.Episodes, want)
	}
	if len(got.Warnings) != 0 || got.Dir != dir {
		t.Errorf("Dir %q, warnings %q; want %q and none", got.Dir, got.Warnings, dir)
	}
	if keys := keysOf(got); !keys[want[1].Key()] || keys["leap_year/agent/seed-9"] {
		t.Errorf("episodes read: %v", keys)
	}
	if _, err := os.Stat(filepath.Join(dir, TrajectoriesDir)); err != nil {
		t.Errorf("no trajectories folder: %v", err)
	}
}

func TestCreateRefusesExistingRun(t *testing.T) {
	dir := t.TempDir()
	mustCreate(t, dir).Close()
	_, err := Create(dir, sampleRun())
	if err == nil || !strings.Contains(err.Error(), "--resume") || !strings.Contains(err.Error(), dir) {
		t.Fatalf("Create on an existing run: err = %v; want one naming the folder and --resume", err)
	}
}

func TestCreateSetsStartedInUTC(t *testing.T) {
	dir := t.TempDir()
	run := sampleRun()
	run.Started = time.Time{}
	w, _ := Create(dir, run)
	w.Close()
	data, err := Read(dir)
	if err != nil || data.Run.Started.Location() != time.UTC || time.Since(data.Run.Started) > time.Minute {
		t.Fatalf("started %v, err %v; want now, in UTC", data.Run.Started, err)
	}
}

func TestCreateRefusesStrayEpisodes(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, EpisodesFile), []byte("{}\n"), 0o644)
	if _, err := Create(dir, sampleRun()); err == nil || !strings.Contains(err.Error(), "no "+RunFile) {
		t.Fatalf("err = %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, EpisodesFile)); string(b) != "{}\n" {
		t.Fatal("Create touched a stray episodes.jsonl")
	}
}

func TestCreateLeavesNoTempFiles(t *testing.T) {
	dir := t.TempDir()
	mustCreate(t, dir).Close()
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if want := []string{EpisodesFile, RunFile, LockFile, TrajectoriesDir}; !reflect.DeepEqual(names, want) {
		t.Errorf("run folder holds %q, want %q", names, want)
	}
}

func TestConcurrentAppend(t *testing.T) {
	dir := t.TempDir()
	w := mustCreate(t, dir)
	const goroutines, each = 16, 25
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			for i := range each {
				ep := sampleEpisode(0)
				ep.Seed, ep.Repeat = g, i
				// A long field makes interleaved writes visible if locking breaks.
				ep.Error = strings.Repeat(fmt.Sprint(g%10), 5000)
				if err := w.Append(ep); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(filepath.Join(dir, EpisodesFile))
	lines := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
	if len(lines) != goroutines*each {
		t.Fatalf("%d lines, want %d", len(lines), goroutines*each)
	}
	for i, l := range lines {
		var ep Episode
		if err := json.Unmarshal([]byte(l), &ep); err != nil {
			t.Fatalf("line %d is not intact: %v", i+1, err)
		}
		if ep.Error != strings.Repeat(fmt.Sprint(ep.Seed%10), 5000) {
			t.Fatalf("line %d mixes two episodes", i+1)
		}
	}
	data, err := Read(dir)
	if err != nil || len(data.Warnings) != 0 || len(keysOf(data)) != goroutines*each {
		t.Fatalf("Read: %d distinct episodes, warnings %q, err %v", len(keysOf(data)), data.Warnings, err)
	}
}

// writeRun creates a run folder with n episodes and returns the episodes
// file's path and the byte offset at which each line ends.
func writeRun(t *testing.T, dir string, n int) (string, []int) {
	t.Helper()
	w := mustCreate(t, dir)
	for i := range n {
		if err := w.Append(sampleEpisode(i)); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	path := filepath.Join(dir, EpisodesFile)
	raw, _ := os.ReadFile(path)
	var ends []int
	for i, b := range raw {
		if b == '\n' {
			ends = append(ends, i+1)
		}
	}
	return path, ends
}

func TestTornLastLine(t *testing.T) {
	dir := t.TempDir()
	path, _ := writeRun(t, dir, 3)
	f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	line, _ := json.Marshal(sampleEpisode(3))
	f.Write(line[:len(line)/2])
	f.Close()

	data, err := Read(dir)
	if err != nil {
		t.Fatalf("a torn last line is an error: %v", err)
	}
	if len(data.Episodes) != 3 || len(data.Warnings) != 1 || !strings.Contains(data.Warnings[0], "torn last line") || !strings.Contains(data.Warnings[0], ":4:") {
		t.Fatalf("got %d episodes, warnings %q; want 3 and one torn-line warning naming line 4", len(data.Episodes), data.Warnings)
	}

	w, resumed, err := Resume(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(resumed.Episodes) != 3 || !strings.Contains(strings.Join(resumed.Warnings, "\n"), "removed the torn last line") {
		t.Fatalf("Resume: %d episodes, warnings %q", len(resumed.Episodes), resumed.Warnings)
	}
	if err := w.Append(sampleEpisode(3)); err != nil {
		t.Fatal(err)
	}
	w.Close()
	data, err = Read(dir)
	if err != nil || len(data.Episodes) != 4 || len(data.Warnings) != 0 {
		t.Fatalf("after Resume and Append: %d episodes, warnings %q, err %v; want 4, none", len(data.Episodes), data.Warnings, err)
	}
}

// TestKillMidWrite cuts episodes.jsonl at every byte offset, as a kill -9 in
// the middle of a write could, and checks Read and Resume at each.
func TestKillMidWrite(t *testing.T) {
	src := t.TempDir()
	path, ends := writeRun(t, src, 2)
	full, _ := os.ReadFile(path)
	runJSON, _ := os.ReadFile(filepath.Join(src, RunFile))
	dir := t.TempDir()
	for cut := 0; cut <= len(full); cut++ {
		os.WriteFile(filepath.Join(dir, RunFile), runJSON, 0o644)
		os.WriteFile(filepath.Join(dir, EpisodesFile), full[:cut], 0o644)
		whole := 0 // lines complete up to (at least) their closing brace
		for _, end := range ends {
			if end-1 <= cut {
				whole++
			}
		}
		data, err := Read(dir)
		if err != nil {
			t.Fatalf("cut at %d: %v", cut, err)
		}
		if len(data.Episodes) != whole {
			t.Fatalf("cut at %d: %d episodes, want %d", cut, len(data.Episodes), whole)
		}
		if cut%37 != 0 && !nearLineEnd(cut, ends) {
			continue // Resume syncs to disk; sample it to keep the test quick
		}
		w, _, err := Resume(dir)
		if err != nil {
			t.Fatalf("cut at %d: Resume: %v", cut, err)
		}
		if err := w.Append(sampleEpisode(7)); err != nil {
			t.Fatal(err)
		}
		w.Close()
		data, err = Read(dir)
		if err != nil || len(data.Episodes) != whole+1 || len(data.Warnings) != 0 {
			t.Fatalf("cut at %d, resumed: %d episodes, warnings %q, err %v; want %d, none", cut, len(data.Episodes), data.Warnings, err, whole+1)
		}
	}
}

// nearLineEnd reports whether cut is within two bytes of a line's end.
func nearLineEnd(cut int, ends []int) bool {
	for _, end := range ends {
		if cut >= end-2 && cut <= end+1 {
			return true
		}
	}
	return false
}

func TestMalformedMiddleLine(t *testing.T) {
	dir := t.TempDir()
	path, ends := writeRun(t, dir, 3)
	full, _ := os.ReadFile(path)
	broken := append(append(append([]byte{}, full[:ends[0]]...), "{\"task\": oops\n"...), full[ends[0]:]...)
	os.WriteFile(path, broken, 0o644)

	data, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(data.Episodes) != 3 || len(data.Warnings) != 1 || !strings.Contains(data.Warnings[0], EpisodesFile+":2:") {
		t.Fatalf("%d episodes, warnings %q; want 3 and one naming line 2", len(data.Episodes), data.Warnings)
	}
	w, _, err := Resume(dir)
	if err != nil {
		t.Fatal(err)
	}
	w.Append(sampleEpisode(3))
	w.Close()
	after, _ := os.ReadFile(path)
	if !bytes.HasPrefix(after, broken) {
		t.Error("Resume changed a line in the middle of episodes.jsonl; only a torn tail may be cut")
	}
}

func TestMissingNewlineIsKept(t *testing.T) {
	dir := t.TempDir()
	path, _ := writeRun(t, dir, 2)
	full, _ := os.ReadFile(path)
	os.WriteFile(path, full[:len(full)-1], 0o644)
	w, data, err := Resume(dir)
	if err != nil || len(data.Episodes) != 2 || len(data.Warnings) != 0 {
		t.Fatalf("%d episodes, warnings %q, err %v", len(data.Episodes), data.Warnings, err)
	}
	w.Append(sampleEpisode(2))
	w.Close()
	if data, _ := Read(dir); len(data.Episodes) != 3 || len(data.Warnings) != 0 {
		t.Fatalf("%d episodes, warnings %q; want 3, none", len(data.Episodes), data.Warnings)
	}
}

func TestRepeatedEpisodeKeepsLast(t *testing.T) {
	dir := t.TempDir()
	w := mustCreate(t, dir)
	first, second := sampleEpisode(0), sampleEpisode(0)
	second.Passed = !first.Passed
	w.Append(first)
	w.Append(second)
	w.Close()
	data, err := Read(dir)
	if err != nil || len(data.Episodes) != 1 || data.Episodes[0].Passed != second.Passed || len(data.Warnings) != 1 {
		t.Fatalf("%+v, warnings %q, err %v", data.Episodes, data.Warnings, err)
	}
}

// TestRedoneInterruptedEpisodeIsQuiet: --resume redoes an interrupted
// episode; its second line is expected and replaces the first without a warning.
func TestRedoneInterruptedEpisodeIsQuiet(t *testing.T) {
	dir := t.TempDir()
	w := mustCreate(t, dir)
	first, second := sampleEpisode(0), sampleEpisode(0)
	first.ExitReason, second.ExitReason = ExitInterrupted, ExitDone
	w.Append(first)
	w.Append(second)
	w.Close()
	data, err := Read(dir)
	if err != nil || len(data.Episodes) != 1 || data.Episodes[0].ExitReason != ExitDone || len(data.Warnings) != 0 {
		t.Fatalf("%+v, warnings %q, err %v", data.Episodes, data.Warnings, err)
	}
}

func TestNewerFormatRefused(t *testing.T) {
	t.Run("run.json", func(t *testing.T) {
		dir := t.TempDir()
		mustCreate(t, dir).Close()
		os.WriteFile(filepath.Join(dir, RunFile), []byte(`{"format": 99, "id": "x"}`), 0o644)
		_, err := Read(dir)
		if err == nil || !strings.Contains(err.Error(), "format 99") || !strings.Contains(err.Error(), RunFile) || !strings.Contains(err.Error(), "upgrade") {
			t.Fatalf("err = %v", err)
		}
		if _, _, err := Resume(dir); err == nil {
			t.Fatal("Resume accepted a newer run.json")
		}
	})
	t.Run("episode", func(t *testing.T) {
		dir := t.TempDir()
		path, _ := writeRun(t, dir, 1)
		f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
		fmt.Fprintf(f, `{"format": %d, "task": "x"}`+"\n", FormatVersion+1)
		f.Close()
		_, err := Read(dir)
		if err == nil || !strings.Contains(err.Error(), EpisodesFile+":2") || !strings.Contains(err.Error(), fmt.Sprintf("format %d", FormatVersion+1)) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("trajectory", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "seed-1.jsonl")
		os.WriteFile(path, fmt.Appendf(nil, `{"format": %d, "kind": "end"}`+"\n", FormatVersion+1), 0o644)
		_, _, err := ReadTrajectory(path)
		if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("format %d", FormatVersion+1)) {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestReadErrorsNameThePath(t *testing.T) {
	base := t.TempDir()
	missing := filepath.Join(base, "nope")
	noRun := filepath.Join(base, "empty")
	os.Mkdir(noRun, 0o755)
	garbled := filepath.Join(base, "garbled")
	os.Mkdir(garbled, 0o755)
	os.WriteFile(filepath.Join(garbled, RunFile), []byte("{not json"), 0o644)
	unreadable := filepath.Join(base, "unreadable")
	os.MkdirAll(filepath.Join(unreadable, RunFile), 0o755) // a folder where the file should be
	noFormat := filepath.Join(base, "noformat")
	os.Mkdir(noFormat, 0o755)
	os.WriteFile(filepath.Join(noFormat, RunFile), []byte(`{"id": "x"}`), 0o644)
	file := filepath.Join(base, "file")
	os.WriteFile(file, nil, 0o644)

	for _, c := range []struct{ dir, names string }{
		{missing, missing},
		{noRun, filepath.Join(noRun, RunFile)},
		{garbled, filepath.Join(garbled, RunFile)},
		{unreadable, filepath.Join(unreadable, RunFile)},
		{noFormat, filepath.Join(noFormat, RunFile)},
		{file, file},
	} {
		_, err := Read(c.dir)
		if err == nil || !strings.Contains(err.Error(), c.names) {
			t.Errorf("Read(%s): err = %v; want an error naming %s", filepath.Base(c.dir), err, c.names)
		}
	}
}

func TestTrajectory(t *testing.T) {
	dir := t.TempDir()
	w := mustCreate(t, dir)
	defer w.Close()
	tr, err := w.Trajectory("leap_year", "agent", 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "trajectories", "leap_year", "agent", "seed-1-r2.jsonl"); tr.Path() != want {
		t.Fatalf("path %s, want %s", tr.Path(), want)
	}
	local := time.FixedZone("X", 3600)
	tr.Record(Event{Kind: EventRequest, Turn: 1, Messages: []Message{{Role: "user", Content: "fix it"}}, Time: time.Date(2000, 1, 1, 0, 0, 0, 0, local)})
	tr.Record(Event{Kind: EventResponse, Turn: 1, Reply: &Message{Role: "assistant", ToolCalls: []ToolCall{{Name: "run_tests", Arguments: "{}"}}}})
	tr.Record(Event{Kind: EventEnd, Exit: ExitDone, Seq: 42})
	if err := tr.Close(); err != nil {
		t.Fatal(err)
	}
	events, warnings, err := ReadTrajectory(tr.Path())
	if err != nil || len(warnings) != 0 || len(events) != 3 {
		t.Fatalf("%d events, warnings %q, err %v", len(events), warnings, err)
	}
	for i, ev := range events {
		if ev.Seq != i || ev.Format != FormatVersion || ev.Time.Location() != time.UTC || time.Since(ev.Time) > time.Minute {
			t.Errorf("event %d: seq %d, format %d, time %v", i, ev.Seq, ev.Format, ev.Time)
		}
	}
	if events[1].Reply.ToolCalls[0].Name != "run_tests" || events[2].Exit != ExitDone {
		t.Errorf("events read back wrong: %+v", events)
	}

	// Redoing the episode (a resumed run) starts the file afresh.
	again, err := w.Trajectory("leap_year", "agent", 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	again.Record(Event{Kind: EventEnd, Exit: ExitInterrupted})
	again.Close()
	events, _, _ = ReadTrajectory(tr.Path())
	if len(events) != 1 || events[0].Seq != 0 || events[0].Exit != ExitInterrupted {
		t.Fatalf("a redone trajectory holds %+v; want only its own event", events)
	}
}

func TestTrajectoryTornLastLine(t *testing.T) {
	dir := t.TempDir()
	w := mustCreate(t, dir)
	defer w.Close()
	tr, _ := w.Trajectory("slugify", "workflow", 3, 0)
	tr.Record(Event{Kind: EventTestRun, TestsPassed: 1, TestsTotal: 2})
	tr.Record(Event{Kind: EventWrite, Path: "slugify.py", Bytes: 365})
	tr.Close()
	raw, _ := os.ReadFile(tr.Path())
	os.WriteFile(tr.Path(), raw[:len(raw)-10], 0o644)
	events, warnings, err := ReadTrajectory(tr.Path())
	if err != nil || len(events) != 1 || len(warnings) != 1 || !strings.Contains(warnings[0], "seed-3.jsonl:2:") {
		t.Fatalf("%d events, warnings %q, err %v", len(events), warnings, err)
	}
	if _, _, err := ReadTrajectory(filepath.Join(dir, "none.jsonl")); err == nil || !strings.Contains(err.Error(), "none.jsonl") {
		t.Fatalf("missing trajectory: err = %v", err)
	}
}

func TestTrajectoryKeepsFirstError(t *testing.T) {
	dir := t.TempDir()
	w := mustCreate(t, dir)
	defer w.Close()
	tr, _ := w.Trajectory("leap_year", "workflow", 1, 0)
	tr.Record(Event{Kind: EventRequest})
	tr.f.Close() // the disk goes away under the recorder
	tr.Record(Event{Kind: EventResponse})
	tr.Record(Event{Kind: EventEnd})
	first := tr.Err()
	if first == nil || !strings.Contains(first.Error(), "event 1 (response)") {
		t.Fatalf("Err() = %v; want the first failed write (event 1)", first)
	}
	if err := tr.Close(); err != first {
		t.Fatalf("Close() = %v; want the first error %v", err, first)
	}
	tr.Record(Event{Kind: EventEnd}) // after Close: no panic, error kept
	if tr.Err() != first {
		t.Fatalf("Err changed after a later failure: %v", tr.Err())
	}
}

func TestTrajectoryRefusesBadNames(t *testing.T) {
	w := mustCreate(t, t.TempDir())
	defer w.Close()
	for _, c := range [][2]string{{"../x", "agent"}, {"", "agent"}, {"leap_year", ".."}, {"a/b", "agent"}} {
		if _, err := w.Trajectory(c[0], c[1], 1, 0); err == nil {
			t.Errorf("Trajectory(%q, %q) succeeded", c[0], c[1])
		}
	}
}

func TestAppendAfterClose(t *testing.T) {
	w := mustCreate(t, t.TempDir())
	w.Close()
	if err := w.Append(sampleEpisode(1)); err == nil || !strings.Contains(err.Error(), "closed") {
		t.Fatalf("Append after Close: err = %v", err)
	}
}

func TestLongLines(t *testing.T) {
	w := mustCreate(t, t.TempDir())
	defer w.Close()
	tr, _ := w.Trajectory("slugify", "agent", 1, 0)
	long := strings.Repeat("FAIL: test_x\n", 50_000) // 650 kB, longer than the read buffer
	tr.Record(Event{Kind: EventTestRun, Output: long})
	tr.Record(Event{Kind: EventEnd, Exit: ExitDone})
	tr.Close()
	events, warnings, err := ReadTrajectory(tr.Path())
	if err != nil || len(warnings) != 0 || len(events) != 2 || events[0].Output != long {
		t.Fatalf("%d events, warnings %q, err %v", len(events), warnings, err)
	}
}

// TestManyBatches reads a file longer than one decoding batch, with malformed
// lines on both sides of a batch boundary, and checks order and line numbers.
func TestManyBatches(t *testing.T) {
	dir := t.TempDir()
	mustCreate(t, dir).Close()
	var b bytes.Buffer
	const n = 2*batchLines + 100
	bad := map[int]bool{batchLines: true, batchLines + 1: true, n + 2: true}
	for line, seed := 1, 0; seed < n; line++ {
		if bad[line] {
			b.WriteString("{oops\n")
			continue
		}
		l, _ := jsonLine(Episode{Format: 1, Task: "t", Track: "agent", Seed: seed})
		b.Write(l)
		seed++
	}
	b.WriteString("{\"format\":1,\"task\":\"t\",\"tr") // torn tail after the last bad line
	os.WriteFile(filepath.Join(dir, EpisodesFile), b.Bytes(), 0o644)
	data, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(data.Episodes) != n {
		t.Fatalf("%d episodes, want %d", len(data.Episodes), n)
	}
	for i, ep := range data.Episodes {
		if ep.Seed != i {
			t.Fatalf("episode %d has seed %d: order lost", i, ep.Seed)
		}
	}
	want := []string{fmt.Sprintf(":%d: skipped a malformed", batchLines), fmt.Sprintf(":%d: skipped a malformed", batchLines+1), fmt.Sprintf(":%d: skipped a malformed", n+2), fmt.Sprintf(":%d: skipped a torn last line", n+4)}
	if len(data.Warnings) != len(want) {
		t.Fatalf("warnings %q", data.Warnings)
	}
	for i, w := range want {
		if !strings.Contains(data.Warnings[i], w) {
			t.Errorf("warning %d = %q, want it to contain %q", i, data.Warnings[i], w)
		}
	}
}

func TestTrajectoryAfterResumeWithoutFolder(t *testing.T) {
	dir := t.TempDir()
	mustCreate(t, dir).Close()
	os.Remove(filepath.Join(dir, TrajectoriesDir))
	w, _, err := Resume(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	tr, err := w.Trajectory("leap_year", "agent", 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	tr.Record(Event{Kind: EventEnd})
	if err := tr.Close(); err != nil {
		t.Fatal(err)
	}
}

// keysOf is the set of the keys (Episode.Key) of the episodes read.
func keysOf(d Data) map[string]bool {
	keys := make(map[string]bool, len(d.Episodes))
	for _, ep := range d.Episodes {
		keys[ep.Key()] = true
	}
	return keys
}
