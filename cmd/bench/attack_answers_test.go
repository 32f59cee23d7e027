package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"bench/internal/testsupport"
	"bench/internal/testsupport/exefile"
	"bench/internal/testsupport/fixture"
	"bench/model"
	"bench/model/modeltest"
	"bench/sandbox"
	"bench/tasks"
	"bench/testrun"
)

// The answer is the reference solution/ (and partial/) of every task. These
// tests install bench where deploy/README.md puts it, on PATH inside the
// readable system tree, and have model code search what it can read for
// the text of any solution.

// answerNeedles returns, for every task of the suite, the longest line
// (or, failing that, pair of lines) of its solution/ and partial/ files
// that none of its repo/ files holds: text only the answer has.
func answerNeedles(t *testing.T) []string {
	t.Helper()
	all, err := tasks.Load(tasks.Suite())
	if err != nil {
		t.Fatal(err)
	}
	var needles []string
	for _, task := range all {
		repo := folderText(t, task, "repo")
		best := ""
		for _, sub := range []string{"solution", "partial"} {
			lines := strings.Split(folderText(t, task, sub), "\n")
			for _, n := range []int{2, 3, 1} { // lines of each candidate: a line with its neighbour first, which nothing else has
				for i := 0; best == "" && i+n <= len(lines); i++ {
					cand := strings.Join(lines[i:i+n], "\n")
					if n == 1 {
						cand = strings.TrimSpace(cand)
					}
					if len(strings.TrimSpace(cand)) >= 24 && !strings.Contains(repo, cand) {
						best = cand
					}
				}
			}
		}
		if best == "" {
			t.Fatalf("task %s: no line of its answer is missing from repo/", task.Name)
		}
		needles = append(needles, best)
	}
	sort.Strings(needles)
	return needles
}

// folderText is every file of the task's folder sub joined ("" when absent).
func folderText(t *testing.T, task tasks.Task, sub string) string {
	t.Helper()
	var b strings.Builder
	fs.WalkDir(task.FS, sub, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			data, _ := fs.ReadFile(task.FS, p)
			b.Write(data)
			b.WriteByte('\n')
		}
		return nil
	})
	return b.String()
}

// installBench copies this test binary (which is bench when run with
// benchAsSubprocess set) into a fresh folder under /usr/local/lib, as an
// administrator installs bench, and returns the folder; it skips the test
// where that tree is not writable.
func installBench(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("/usr/local/lib", "bench-attack-")
	if err != nil {
		fixture.Lacks(t, fmt.Sprintf("cannot install bench under /usr/local/lib: %v", err))
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	os.Chmod(dir, 0o755)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if os.Link(self, filepath.Join(dir, "bench")) != nil { // a copy where a hard link cannot be
		exefile.Copy(t, self, filepath.Join(dir, "bench"))
	}
	return dir
}

// searchAnswers is Python run at import of leap.py: it reads every file
// directly in the flat folders and on PATH, every file under the deep
// folders and under any bench* folder found in a flat one (bench's own
// temporary folders), and, when proc is True, every process's exe,
// cmdline, environ and maps in /proc, and prints FOUND <path> for each file
// that holds a needle, then how many files it read. It reads each file in
// 1 MiB pieces into one buffer (no new buffer per piece: the search reads
// gigabytes), the last bytes of a piece, as many as the longest needle,
// kept before the next, so that a needle across two pieces is found
// (TestAnswerSearchFindsNeedlesAcrossPieces). Imported from a file, it
// searches once per folder: it leaves .searched beside the file, so that
// grading, whose output no test reads, does not search again (when the
// file is copied along) after the agent's run_tests.
const searchAnswers = `
import os as _os


def _search(flat, deep, needles, proc):
    found, read, size, seen = set(), 0, 0, set()
    needles = [n.encode() for n in needles]
    keep = max(len(n) for n in needles)
    buf = bytearray(keep + (1 << 20))
    view = memoryview(buf)

    def look(p):
        nonlocal read, size
        try:
            st = _os.stat(p)
            if (st.st_dev, st.st_ino) in seen or not (st.st_mode & 0o170000 == 0o100000 or p.startswith("/proc/")):
                return
            seen.add((st.st_dev, st.st_ino))
            with open(p, "rb", buffering=0) as f:
                read += 1
                held = 0
                while True:
                    n = f.readinto(view[held:])
                    if not n:
                        return
                    size += n
                    end = held + n
                    if any(buf.find(x, 0, end) >= 0 for x in needles):
                        found.add(p)
                        return
                    held = min(keep, end)
                    buf[:held] = buf[end - held:end]
        except OSError:
            return

    try:
        pids = _os.listdir("/proc") if proc else []
    except OSError:
        pids = ["self", "1"]
    for pid in pids:
        if pid.isdigit() or pid in ("self", "thread-self"):
            for name in ("exe", "cmdline", "environ", "maps"):
                look("/proc/%%s/%%s" %% (pid, name))
    for root in flat + _os.environ.get("PATH", "").split(":"):
        try:
            names = _os.listdir(root)
        except OSError:
            continue
        for name in names:
            p = _os.path.join(root, name)
            if name.startswith("bench") and _os.path.isdir(p):
                deep.append(p)
            look(p)
    walked = set()
    for root in deep:
        for top, dirs, files in _os.walk(root):
            try:
                st = _os.stat(top)
            except OSError:
                continue
            if top in ("/proc", "/sys", "/dev") or (st.st_dev, st.st_ino) in walked:
                dirs[:] = []
                continue
            walked.add((st.st_dev, st.st_ino))
            for name in files:
                look(_os.path.join(top, name))
    for p in sorted(found):
        print("FOUND", p, flush=True)
    print("SEARCHED %%d files, %%d MB" %% (read, size >> 20), flush=True)


_done = _os.path.join(_os.path.dirname(_os.path.abspath(__file__)), ".searched") if "__file__" in globals() else ""
if not (_done and _os.path.exists(_done)):
    _search(%s, %s, %s, %s)
    if _done:
        try:
            open(_done, "w").close()
        except OSError:
            pass
`

// searchScope is where the search reads: flat folders file by file (their
// bench* subfolders whole), deep folders whole, and /proc unless noProc.
type searchScope struct {
	flat, deep []string
	noProc     bool
}

// searchCode is searchAnswers for scope and needles (flat gets the
// folders on PATH too).
func searchCode(scope searchScope, needles []string) string {
	proc := "True"
	if scope.noProc {
		proc = "False"
	}
	return fmt.Sprintf(searchAnswers, pyList(scope.flat), pyList(scope.deep), pyList(needles), proc)
}

// quickScope is every folder on PATH, the temporary folder and the bench
// folders in it, and the user's bench caches, whole.
func quickScope() searchScope {
	s := searchScope{flat: []string{os.TempDir()}}
	if c, err := os.UserCacheDir(); err == nil {
		s.deep = append(s.deep, filepath.Join(c, "bench"))
	}
	return s
}

// answerSearchModel has the agent add the search to leap.py and run the
// tests, and then read the installed bench with read_file by an absolute
// and a relative path.
func answerSearchModel(t *testing.T, install string, scope searchScope) modeltest.Reply {
	scope.flat = append(slices.Clip(scope.flat), install)
	code := testsupport.TaskFile(t, leapTask(t), "repo") + searchCode(scope, answerNeedles(t))
	exe := filepath.Join(install, "bench")
	return scriptedModel(map[int]script{1: {calls: []model.ToolCall{
		writeFile("leap.py", code), runTests(),
		readFile(exe), readFile(strings.Repeat("../", 12) + strings.TrimPrefix(exe, "/")),
	}}})
}

var foundLine = regexp.MustCompile(`(?m)^FOUND (.*)$`)

// answerSearch runs the search through bench installed on PATH, with the
// given extra bench run arguments, and returns the tool results and the
// paths where run_tests and grading found an answer.
func answerSearch(t *testing.T, task string, scope searchScope, args ...string) ([]string, []string) {
	t.Helper()
	install := installBench(t)
	srv := modeltest.NewOllama(t, answerSearchModel(t, install, scope))
	dir := filepath.Join(t.TempDir(), "run")
	env := []string{"PATH=" + install + string(os.PathListSeparator) + os.Getenv("PATH")}
	all := append([]string{"run", "--host", srv.URL, "--tasks", task, "--tracks", "agent", "--out", dir}, args...)
	cmd, out := startBenchEnvAt(t, filepath.Join(install, "bench"), env, all...)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("bench %s: %v\n%s", strings.Join(all, " "), err, out)
	}
	res := toolResults(srv)[1]
	if len(res) != 4 {
		t.Fatalf("%d tool results, want 4: %q\n%s", len(res), res, out)
	}
	var found []string
	for _, m := range foundLine.FindAllStringSubmatch(res[1], -1) {
		found = append(found, m[1])
	}
	if !strings.Contains(res[1], "SEARCHED ") {
		t.Fatalf("the search did not run:\n%s", res[1])
	}
	return res, found
}

// TestAttackNoAnswerReadable: neither model code, run by run_tests, nor
// the agent's read_file can read any task's answer: not in the bench
// executable on PATH, the caches, the temporary folders or /proc.
func TestAttackNoAnswerReadable(t *testing.T) {
	fixture.FullOnly(t, "the sandbox package's TestHiddenPathUnreadable; this test and its control read every cache and PATH folder twice")
	t.Parallel()
	fixture.NeedPython(t)
	needSandbox(t, "fs")
	res, found := answerSearch(t, "leap_search", quickScope(), "--tasks-dir", slowLeapTasks(t))
	if len(found) > 0 {
		t.Errorf("model code read an answer in %q", found)
	}
	t.Logf("run_tests: %s", searchedLine(res[1]))
	for i, r := range res[2:] {
		if !strings.HasPrefix(r, "error:") {
			t.Errorf("read_file %d of the installed bench: %.200q", i, r)
		}
	}
}

// wholeScope is every folder a test run might read: every folder down to
// four levels below / (the sandbox may grant a folder inside one it does
// not, such as /usr's entries but not /usr when it hides a file there, and
// from inside such a folder cannot be listed), and the folders the sandbox
// grants python3.
func wholeScope(t *testing.T) searchScope {
	t.Helper()
	var s searchScope
	var walk func(dir string, depth int)
	walk = func(dir string, depth int) {
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			p := filepath.Join(dir, e.Name())
			if !e.IsDir() || p == "/proc" || p == "/sys" || p == "/dev" {
				continue
			}
			if strings.HasPrefix(p, "/usr/local/lib/bench-attack-") {
				continue // another test's bench (or one a crashed run left): a copy docs/SANDBOX.md says is not hidden; this run's own is searched apart
			}
			s.deep = append(s.deep, p)
			if depth < 4 {
				walk(p, depth+1)
			}
		}
	}
	walk("/", 1)
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Fatal(err)
	}
	s.deep = append(s.deep, sandbox.Toolchain(testrun.Interpreter(py))...)
	return s
}

// TestAttackNoAnswerReadableAnywhere is TestAttackNoAnswerReadable over
// every readable file (some gigabytes: not in -short).
func TestAttackNoAnswerReadableAnywhere(t *testing.T) {
	// Not parallel: the other answer tests install their own bench under
	// /usr/local/lib meanwhile (wholeScope leaves those out).
	if testing.Short() {
		t.Skip("reads every readable file")
	}
	fixture.NeedPython(t)
	needSandbox(t, "fs")
	// The search's code lists every folder four levels down: on a machine
	// whose /tmp holds many, more than a reply's default cap.
	res, found := answerSearch(t, "leap_search", wholeScope(t), "--tasks-dir", slowLeapTasks(t), "--max-reply-bytes", "16777216")
	if len(found) > 0 {
		t.Errorf("model code read an answer in %q", found)
	}
	t.Logf("run_tests: %s", searchedLine(res[1]))
}

// TestAttackAnswersReadableUnsandboxed is the control: without the
// sandbox the same search finds the answers in the installed bench.
func TestAttackAnswersReadableUnsandboxed(t *testing.T) {
	fixture.FullOnly(t, "the control of TestAttackNoAnswerReadable, which runs in full mode")
	t.Parallel()
	fixture.NeedPython(t)
	_, found := answerSearch(t, "leap_search", quickScope(), "--tasks-dir", slowLeapTasks(t), "--sandbox", "off")
	installed := false
	for _, p := range found {
		installed = installed || strings.HasPrefix(p, "/usr/local/lib/bench-attack-") || path.Base(p) == "exe"
	}
	if !installed {
		t.Errorf("unsandboxed, the search did not find the answers in the installed bench (found %q): it cannot see them", found)
	}
}

// slowLeapTasks returns a --tasks-dir folder holding leap_search, a copy
// of leap_year whose tests may run for ten minutes (a search reads much,
// and slowly on a loaded machine).
func slowLeapTasks(t *testing.T) string {
	t.Helper()
	task := leapTask(t)
	dir := filepath.Join(t.TempDir(), "leap_search")
	for _, sub := range []string{"repo", "solution"} {
		if err := task.CopyDir(sub, filepath.Join(dir, sub)); err != nil {
			t.Fatal(err)
		}
	}
	manifest, err := fs.ReadFile(task.FS, "task.toml")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(strings.Replace(string(manifest), `name = "leap_year"`, `name = "leap_search"`, 1), `timeout = "30s"`, `timeout = "600s"`, 1)
	if err := os.WriteFile(filepath.Join(dir, "task.toml"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return filepath.Dir(dir)
}

// startBenchEnvAt is startBenchEnv running the bench executable exe.
func startBenchEnvAt(t *testing.T, exe string, env []string, args ...string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	out := &bytes.Buffer{}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(append(os.Environ(), benchAsSubprocess+"=1"), env...)
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	return cmd, out
}

// searchedLine is the search's last line, how many files it read.
func searchedLine(out string) string {
	return strings.SplitN(out[strings.Index(out, "SEARCHED"):], "\n", 2)[0]
}
