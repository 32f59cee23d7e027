package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/otiai10/copy"

	"bench/internal/testsupport"
	"bench/model/modeltest"
)

// TestBadInputOneSentence feeds every command bad input: each must fail
// with one sentence that says what is wrong, and never the full help or a
// bare Go error chain.
func TestBadInputOneSentence(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	file := filepath.Join(tmp, "a-file")
	binary := filepath.Join(tmp, "binary.dat")
	if err := os.WriteFile(file, []byte("text\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(binary, []byte{0, 1, 0xff, 0xfe}, 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(tmp, "missing")
	dirSVG := filepath.Join(tmp, "plot.svg")
	if err := os.Mkdir(dirSVG, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
		code int // 2: the command line is wrong; 1: the work failed
	}{
		{[]string{"no-such-command"}, `unknown command "no-such-command"`, 2},
		{[]string{"help", "nope"}, `unknown command "nope"`, 2},
		{[]string{"--nope"}, "unknown flag --nope; bench --help lists the flags", 2},
		{[]string{"run", "--nope"}, "unknown flag --nope; bench run --help lists the flags", 2},
		{[]string{"tasks", "verify", "--nope"}, "bench tasks verify --help", 2},
		{[]string{"run", "--parallel", "x"}, `invalid value "x" for --parallel`, 2},
		{[]string{"run", "--tracks", "oracle", "--parallel", "2", "--parallel", "3"}, "--parallel is given twice", 2},
		{[]string{"run", "--tracks", "oracle", "--seeds", "1,,2"}, "an empty seed between commas", 2},
		{[]string{"run", "--tracks", "oracle", "--seeds", "1,2,"}, "an empty seed between commas", 2},
		{[]string{"run", "--tracks", "oracle", "--seeds", "1,-1"}, "-1 is negative", 2},
		{[]string{"run", "--tracks", "oracle", "--format", "xml"}, `unknown --format "xml"`, 2},
		{[]string{"run", "--tracks", "oracle", "--tasks-dir", missing}, "--tasks-dir " + missing + " does not exist", 1},
		{[]string{"tasks", "--tasks-dir", missing}, "--tasks-dir " + missing + " does not exist", 1},
		{[]string{"run", "--tracks", "oracle", "--out", file}, "--out " + file + " is a file", 1},
		{[]string{"run", "--tracks", "oracle", "--out", filepath.Dir(file)}, "already holds other files", 1},
		{[]string{"report", "--format", "json", "--format", "csv", tmp}, "--format is given twice", 2},
		{[]string{"report", tmp, "--plot", filepath.Join(missing, "x.svg")}, "the folder " + missing + " does not exist", 1},
		{[]string{"report", tmp, "--plot", dirSVG}, "--plot " + dirSVG + " is a folder", 1},
		{[]string{"report", tmp, "--plot", "plot.png"}, "give a name ending in .svg", 2},
		{[]string{"predict", "--out", filepath.Join(missing, "p.json"), "--answer", "leap_year=yyy", "--tasks", "leap_year"}, "the folder " + missing + " does not exist", 1},
		{[]string{"predict", "--out", tmp, "--force", "--answer", "leap_year=yyy", "--tasks", "leap_year"}, "--out " + tmp + " is a folder", 1},
		{[]string{"check", tmp}, "check needs --predictions FILE", 2},
		{[]string{"tokens", missing}, missing + " does not exist", 1},
		{[]string{"tokens", tmp}, tmp + " is a folder", 1},
		{[]string{"tokens", binary}, binary + " is not text", 1},
		{[]string{"detect", "--dir", tmp, "--mode", "sometimes"}, `unknown --mode "sometimes"`, 2},
		{[]string{"detect", "--check", "--expected", missing}, "--expected " + missing + " does not exist", 1},
		{[]string{"tasks", "--format", "xml"}, `unknown --format "xml": want text, markdown, csv, json`, 2},
		{[]string{"detect", "--format", "xml"}, `unknown --format "xml": want text, markdown, csv, json`, 2},
		{[]string{"show", showRun, "--task", "nope"}, "no episode in " + showRun + " matches the flags", 1},
		{[]string{"doctor", "extra"}, "doctor takes no arguments", 2},
		{[]string{"version", "extra"}, "version takes no arguments", 2},
	} {
		stdout, stderr, err := runCLI(t, tc.args...)
		if err == nil {
			t.Errorf("bench %s succeeded; want %q", strings.Join(tc.args, " "), tc.want)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, tc.want) {
			t.Errorf("bench %s: %q, want %q", strings.Join(tc.args, " "), msg, tc.want)
		}
		if strings.Contains(msg, "\n") || strings.Contains(stdout+stderr, "USAGE:") || strings.Contains(msg, "no such file or directory") {
			t.Errorf("bench %s: not one plain sentence:\nerr %q\nstdout %s\nstderr %s", strings.Join(tc.args, " "), msg, stdout, stderr)
		}
		if code := exitCode(err, &strings.Builder{}); code != tc.code {
			t.Errorf("bench %s: exit code %d, want %d", strings.Join(tc.args, " "), code, tc.code)
		}
	}
}

// TestBadInputLosesNothing checks that a refused predict does not touch the
// file it would have replaced.
func TestBadInputLosesNothing(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "predictions.json")
	if err := os.WriteFile(out, []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runCLI(t, "predict", "--out", out, "--answer", "leap_year=yyy", "--tasks", "leap_year"); err == nil {
		t.Fatal("predict replaced an existing file without --force")
	}
	if b, _ := os.ReadFile(out); string(b) != "mine\n" {
		t.Fatalf("the existing file was changed: %q", b)
	}
}

// TestReportWarnsOnMergedConfigurations merges two runs that differ in
// posture: the report still prints, with a footnote naming the difference.
func TestReportWarnsOnMergedConfigurations(t *testing.T) {
	t.Parallel()
	a, b := scratchRun(t), scratchRun(t)
	setRunField(t, b, "posture", "on")
	stdout, stderr, err := runCLI(t, "report", a, b)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "the merged runs differ in posture") || !strings.Contains(stdout, "Results per task and track") {
		t.Fatalf("stderr %q\nstdout %s", stderr, stdout)
	}
	if stdout, _, _ := runCLI(t, "report", a, a); strings.Contains(stdout, "differ") {
		t.Fatalf("a footnote for runs that agree: %s", stdout)
	}
}

// setRunField rewrites one field of dir/run.json.
func setRunField(t *testing.T, dir, field string, value any) {
	t.Helper()
	path := filepath.Join(dir, "run.json")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	m[field] = value
	if b, err = json.Marshal(m); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestFlagsAfterArguments puts flags after the positional arguments, as the
// help examples do, on the commands that take arguments.
func TestFlagsAfterArguments(t *testing.T) {
	t.Parallel()
	text := filepath.Join(t.TempDir(), "text.txt")
	if err := os.WriteFile(text, []byte("hello world\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err := runCLI(t, "tokens", text, "--encoding", "o200k_base")
	if err != nil || strings.TrimSpace(out) != "3" {
		t.Fatalf("tokens FILE --encoding: %q, %v", out, err)
	}
	_, _, err = runCLI(t, "tokens", text, "--encoding", "nope")
	if err == nil || !strings.Contains(err.Error(), `unknown token encoding "nope"`) {
		t.Fatalf("tokens FILE --encoding nope: %v", err)
	}
	_, _, err = runCLI(t, "check", showRun, "--predictions", filepath.Join(t.TempDir(), "none.json"))
	if err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Fatalf("check DIR --predictions: %v, want the missing file named", err)
	}
	_, _, err = runCLI(t, "tasks", "verify", "leap_year", "--tasks-dir", filepath.Join(t.TempDir(), "none"))
	if err == nil || !strings.Contains(err.Error(), "--tasks-dir") {
		t.Fatalf("tasks verify TASK --tasks-dir: %v, want the flag applied", err)
	}
}

// TestRunStdoutToFile runs a real bench process with stdout redirected to a
// file, as `bench run ... > report.txt` does: the file holds only the
// report, and the progress is on stderr.
func TestRunStdoutToFile(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	report, err := os.Create(filepath.Join(tmp, "report.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer report.Close()
	var stderr strings.Builder
	cmd := exec.Command(os.Args[0], "run", "--tracks", "oracle", "--tasks", "leap_year", "--out", filepath.Join(tmp, "run"))
	cmd.Env = append(os.Environ(), benchAsSubprocess+"=1")
	cmd.Stdout, cmd.Stderr = report, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("bench run: %v\n%s", err, stderr.String())
	}
	b, err := os.ReadFile(report.Name())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(b), "run run: no model") {
		t.Errorf("report.txt does not start with the report:\n%s", b)
	}
	if strings.Contains(string(b), "[1/1]") || strings.Contains(string(b), "bench run:") {
		t.Errorf("report.txt holds progress:\n%s", b)
	}
	if !strings.Contains(stderr.String(), "[1/1] leap_year oracle seed-1: passed") {
		t.Errorf("no progress on stderr:\n%s", stderr.String())
	}
}

// TestResumeOnAMovedServer resumes a run whose server has gone: without
// --host the help says how to point at the new address and nothing
// changes; with --host the run is resumed there.
func TestResumeOnAMovedServer(t *testing.T) {
	t.Parallel()
	old := modeltest.NewOllama(t, modeltest.Always(modeltest.Func(testsupport.NewSolver(t).Reply)))
	dir := filepath.Join(t.TempDir(), "run")
	if _, stderr, err := runCLI(t, "run", "--host", old.URL, "--tracks", "workflow", "--tasks", "leap_year", "--out", dir); err != nil {
		t.Fatalf("bench run: %v\n%s", err, stderr)
	}
	old.Close()
	before, _ := os.ReadFile(filepath.Join(dir, "episodes.jsonl"))
	_, stderr, err := runCLI(t, "run", "--resume", dir)
	if err == nil || !strings.Contains(stderr, "if the server has moved, add --host URL") || strings.Contains(stderr, "--tracks oracle") {
		t.Fatalf("resume against a gone server: %v\n%s", err, stderr)
	}
	if after, _ := os.ReadFile(filepath.Join(dir, "episodes.jsonl")); string(after) != string(before) {
		t.Fatal("a failed resume changed episodes.jsonl")
	}
	moved := modeltest.NewOllama(t, modeltest.Always(modeltest.Func(testsupport.NewSolver(t).Reply)))
	if _, stderr, err := runCLI(t, "run", "--resume", dir, "--host", moved.URL); err != nil || !strings.Contains(stderr, "1 already finished") {
		t.Fatalf("resume with --host: %v\n%s", err, stderr)
	}
}

// TestCompareNothingInCommon compares two runs that share no task and
// track: that is a failure, not an empty table.
func TestCompareNothingInCommon(t *testing.T) {
	t.Parallel()
	stdout, _, err := runCLI(t, "compare", showRun, sharedOracleRun(t))
	if err == nil || !strings.Contains(err.Error(), "nothing to compare") || stdout != "" {
		t.Fatalf("compare without common cells: %v\n%s", err, stdout)
	}
}

// TestParentOfRunsNamesThem points report, show and check at a folder that
// holds run folders: the error names them.
func TestParentOfRunsNamesThem(t *testing.T) {
	t.Parallel()
	parent := t.TempDir()
	if err := copy.Copy(showRun, filepath.Join(parent, "lesson")); err != nil {
		t.Fatal(err)
	}
	preds := filepath.Join(t.TempDir(), "p.json")
	if _, _, err := runCLI(t, "predict", "--out", preds, "--tasks", "leap_year", "--answer", "leap_year=yyy"); err != nil {
		t.Fatal(err)
	}
	want := parent + " is not a run folder, but it holds 1 run folder: " + filepath.Join(parent, "lesson")
	for _, args := range [][]string{{"report", parent}, {"show", parent}, {"check", "--predictions", preds, parent}} {
		if _, _, err := runCLI(t, args...); err == nil || err.Error() != want {
			t.Errorf("bench %s: %v, want %q", strings.Join(args, " "), err, want)
		}
	}
}

// TestFormatJSONIsJSON checks that --format json and --json agree where
// both exist.
func TestFormatJSONIsJSON(t *testing.T) {
	t.Parallel()
	for _, cmd := range [][]string{{"tasks"}, {"detect", "--dir", t.TempDir()}} {
		a, _, errA := runCLI(t, append(cmd, "--json")...)
		b, _, errB := runCLI(t, append(cmd, "--format", "json")...)
		if errA != nil || errB != nil || a != b || !json.Valid([]byte(a)) {
			t.Errorf("bench %s: --json and --format json differ (%v, %v):\n%s\n%s", cmd[0], errA, errB, a, b)
		}
	}
}
