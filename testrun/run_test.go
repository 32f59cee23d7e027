package testrun

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"bench/internal/testsupport/fixture"
)

// writeFiles writes name → content into a fresh workspace and returns it.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestRunUnittest(t *testing.T) {
	fixture.NeedPython(t)
	dir := writeFiles(t, map[string]string{
		"calc.py":      "def add(a, b):\n    return a - b\n",
		"test_calc.py": "import unittest\nfrom calc import add\n\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2, 2), 4)\n\n    def test_zero(self):\n        self.assertEqual(add(0, 0), 0)\n",
	})
	res, err := RunWith(context.Background(), dir, []string{"python3", "-m", "unittest", "-v", "test_calc"}, 20*time.Second, Options{Sandbox: DefaultSandbox()})
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 1 || res.Total != 2 || res.Passed != 1 || strings.Join(res.Failed, ",") != "test_add" || res.AllPassed() {
		t.Errorf("unexpected result %+v", res)
	}
	if !strings.Contains(res.Output, dir) {
		t.Errorf("raw output lacks the workspace path:\n%s", res.Output)
	}
	if strings.Contains(res.Normalized, dir) || !strings.Contains(res.Normalized, `File "./test_calc.py", line 6`) || !strings.Contains(res.Normalized, "Ran 2 tests in Xs") {
		t.Errorf("normalised output:\n%s", res.Normalized)
	}
	if _, err := os.Stat(filepath.Join(dir, "__pycache__")); err == nil {
		t.Error("the run left __pycache__ in the workspace")
	}
}

// TestRunEnvironmentScrubbed proves that nothing of the parent's
// environment but PATH reaches the test process, and that what tools keep
// for the user goes into the run's private temporary folder.
func TestRunEnvironmentScrubbed(t *testing.T) {
	fixture.NeedPython(t)
	t.Setenv("OPENAI_API_KEY", "sk-fake-key-for-the-test")
	t.Setenv("BENCH_FAKE_TOKEN", "fake-token")
	dir := t.TempDir()
	res, err := RunWith(context.Background(), dir, []string{fixture.Python(t), "-c", "import os\nfor k in sorted(os.environ): print(k + '=' + os.environ[k])"}, 20*time.Second, Options{Sandbox: DefaultSandbox()})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSpace(res.Output), "\n")
	want := Environ(dir)
	var tmp string
	for _, kv := range got {
		if v, ok := strings.CutPrefix(kv, "TMPDIR="); ok {
			tmp = v
		}
	}
	if tmp == "" || strings.HasPrefix(tmp, dir) {
		t.Errorf("TMPDIR = %q; want a private folder outside the workspace", tmp)
	} else if _, err := os.Stat(tmp); err == nil {
		t.Errorf("the private temporary folder %s outlived the run", tmp)
	}
	// The tools' configuration and caches go there too, not under HOME.
	want = append(want, "TMPDIR="+tmp, "XDG_CONFIG_HOME="+filepath.Join(tmp, "config"), "XDG_CACHE_HOME="+filepath.Join(tmp, "cache"))
	sort.Strings(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("environment:\n%s\nwant exactly:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if strings.Contains(res.Output, "fake") {
		t.Error("a parent secret leaked into the test process")
	}
	if !strings.Contains(res.Output, "HOME="+dir+"\n") {
		t.Error("HOME is not the workspace")
	}
}

// TestRunIgnoresUserSite: HOME is the workspace, so a usercustomize.py in
// its user site-packages (which a model can write) must not run before the
// tests.
func TestRunIgnoresUserSite(t *testing.T) {
	fixture.NeedPython(t)
	dir := t.TempDir()
	probe, err := RunWith(context.Background(), dir, []string{fixture.Python(t), "-c", "import site; print(site.getusersitepackages())"}, 20*time.Second, Options{Sandbox: DefaultSandbox()})
	if err != nil {
		t.Fatal(err)
	}
	site := strings.TrimSpace(probe.Output)
	if !strings.HasPrefix(site, dir) {
		t.Fatalf("user site %q is not under the workspace", site)
	}
	if err := os.MkdirAll(site, 0o755); err != nil {
		t.Fatal(err)
	}
	hook := "import sys\nprint('HOOKED')\nsys.stdout.flush()\n"
	if err := os.WriteFile(filepath.Join(site, "usercustomize.py"), []byte(hook), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := RunWith(context.Background(), dir, []string{fixture.Python(t), "-c", "print('ran')"}, 20*time.Second, Options{Sandbox: DefaultSandbox()})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(res.Output, "HOOKED") {
		t.Errorf("usercustomize.py in the workspace's user site ran:\n%s", res.Output)
	}
}

// alive reports whether pid exists and is not a zombie.
func alive(pid int) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	fields := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+1:]))
	return len(fields) > 0 && fields[0] != "Z" && fields[0] != "X"
}

// forkSleeper is a Python program that starts a grandchild sleeping 60s,
// writes its pid to sleeper.pid, then does what tail says.
const forkSleeper = `import os, subprocess
p = subprocess.Popen(["sleep", "60"])
open("sleeper.tmp", "w").write(str(p.pid))
os.rename("sleeper.tmp", "sleeper.pid")
print("started", flush=True)
`

func sleeperPid(t *testing.T, dir string) int {
	t.Helper()
	if _, err := os.ReadFile(filepath.Join(dir, "sleeper.pid")); err != nil {
		t.Fatal("the test never started its sleeper:", err)
	}
	return findSleeper(dir)
}

// findSleeper returns the host pid of a live "sleep" whose HOME is dir,
// or 0. The pid the sleeper wrote is the one in its PID namespace, so the
// host's /proc is searched instead.
func findSleeper(dir string) int {
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		comm, _ := os.ReadFile("/proc/" + e.Name() + "/comm")
		env, _ := os.ReadFile("/proc/" + e.Name() + "/environ")
		if strings.TrimSpace(string(comm)) == "sleep" && strings.Contains("\x00"+string(env), "\x00HOME="+dir+"\x00") && alive(pid) {
			return pid
		}
	}
	return 0
}

// cancelWhenStarted cancels once the test process has started its sleeper
// (or after ten seconds, so a broken test cannot hang).
func cancelWhenStarted(dir string, cancel context.CancelFunc) {
	defer cancel()
	for range 500 {
		if _, err := os.Stat(filepath.Join(dir, "sleeper.pid")); err == nil {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitDead waits a little for the kernel to reap pid.
func waitDead(pid int) bool {
	for range 50 {
		if !alive(pid) {
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return false
}

func TestRunTimeoutKillsGrandchild(t *testing.T) {
	fixture.NeedPython(t)
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		fixture.Lacks(t, "needs /proc")
	}
	dir := t.TempDir()
	start := time.Now()
	res, err := RunWith(context.Background(), dir, []string{fixture.Python(t), "-c", forkSleeper + "import time\ntime.sleep(60)\n"}, 1500*time.Millisecond, Options{Sandbox: DefaultSandbox()})
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 8*time.Second {
		t.Errorf("Run took %s after a 1.5 s timeout", took)
	}
	if !res.TimedOut || res.AllPassed() || !strings.Contains(res.Output, "timeout") {
		t.Errorf("TimedOut = %v, output %q", res.TimedOut, res.Output)
	}
	if pid := sleeperPid(t, dir); !waitDead(pid) {
		t.Errorf("the sleeper grandchild %d outlived the timeout", pid)
	}
}

// TestRunExitLeavesNoOrphan: a test process that exits normally while its
// grandchild still holds the output pipe neither hangs Run nor survives it.
func TestRunExitLeavesNoOrphan(t *testing.T) {
	fixture.NeedPython(t)
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		fixture.Lacks(t, "needs /proc")
	}
	dir := t.TempDir()
	res, err := RunWith(context.Background(), dir, []string{fixture.Python(t), "-c", forkSleeper + "import time\nprint('exiting at %.6f' % time.time(), flush=True)\n"}, 30*time.Second, Options{Sandbox: DefaultSandbox()})
	returned := time.Now()
	if err != nil {
		t.Fatal(err)
	}
	if res.TimedOut || res.ExitCode != 0 || !strings.Contains(res.Output, "started") {
		t.Errorf("result %+v", res)
	}
	// Measured from the moment the test process exits, so that the
	// interpreter's start-up on a loaded machine does not count.
	var exitAt float64
	if i := strings.Index(res.Output, "exiting at "); i < 0 {
		t.Fatalf("no exit time in %q", res.Output)
	} else if _, err := fmt.Sscanf(res.Output[i:], "exiting at %f", &exitAt); err != nil {
		t.Fatal(err)
	}
	if waited := returned.Sub(time.Unix(0, int64(exitAt*1e9))); waited > waitDelay*3/4 {
		t.Errorf("Run returned %s after the test process exited: it waited for the orphan holding the pipe", waited)
	}
	if pid := sleeperPid(t, dir); !waitDead(pid) {
		t.Errorf("the sleeper grandchild %d outlived the test run", pid)
	}
}

func TestRunContextCancelled(t *testing.T) {
	fixture.NeedPython(t)
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	go cancelWhenStarted(dir, cancel)
	start := time.Now()
	res, err := RunWith(ctx, dir, []string{fixture.Python(t), "-c", forkSleeper + "import time\ntime.sleep(60)\n"}, time.Minute, Options{Sandbox: DefaultSandbox()})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if res.TimedOut {
		t.Error("a cancellation was reported as a timeout")
	}
	if took := time.Since(start); took > 15*time.Second {
		t.Errorf("Run took %s after cancel", took)
	}
	if _, err := os.Stat("/proc/self/stat"); err == nil {
		if pid := sleeperPid(t, dir); !waitDead(pid) {
			t.Errorf("the sleeper %d outlived the cancellation", pid)
		}
	}
}

func TestRunOutputCapped(t *testing.T) {
	fixture.NeedPython(t)
	dir := t.TempDir()
	res, err := RunWith(context.Background(), dir, []string{"python3", "-c", "import sys\nfor i in range(4000): print('line %05d ' % i + 'x' * 40)\nprint('THE END')"}, 20*time.Second, Options{Sandbox: DefaultSandbox()})
	if err != nil {
		t.Fatal(err)
	}
	const total = 4000*52 + len("THE END\n")
	if res.CutBytes != total-MaxOutput {
		t.Errorf("CutBytes = %d, want %d", res.CutBytes, total-MaxOutput)
	}
	if !strings.Contains(res.Output, "[bench: "+strconv.Itoa(res.CutBytes)+" bytes of output cut here") {
		t.Errorf("no marker naming the cut in the output")
	}
	if !strings.HasPrefix(res.Output, "line 00000 ") || !strings.HasSuffix(res.Output, "THE END\n") {
		t.Error("the cap must keep the start and the end of the output")
	}
	if len(res.Output) > MaxOutput+200 {
		t.Errorf("output is %d bytes, cap is %d", len(res.Output), MaxOutput)
	}
}

func TestRunMissingInterpreter(t *testing.T) {
	_, err := RunWith(context.Background(), t.TempDir(), []string{"python3-bench-missing", "-m", "unittest"}, time.Second, Options{Sandbox: DefaultSandbox()})
	if err == nil {
		t.Fatal("a missing interpreter did not fail")
	}
	if want := "python3-bench-missing is needed on PATH to run the tasks' tests"; !strings.Contains(err.Error(), want) || strings.Count(err.Error(), "\n") > 0 {
		t.Errorf("err = %q, want one sentence containing %q", err, want)
	}
}

func TestRunEmptyCommand(t *testing.T) {
	if _, err := RunWith(context.Background(), t.TempDir(), nil, time.Second, Options{Sandbox: DefaultSandbox()}); !errors.Is(err, ErrNoCommand) {
		t.Errorf("err = %v", err)
	}
}

func TestCapBufferSmallWrites(t *testing.T) {
	b := newCapBuffer(10)
	for _, c := range "abcdefghijklmnopqrstuvwxyz" {
		b.Write([]byte(string(c)))
	}
	out, cut := b.String()
	if cut != 16 || !strings.HasPrefix(out, "abcde\n[bench: 16 bytes") || !strings.HasSuffix(out, "]\nvwxyz") {
		t.Errorf("got %q, cut %d", out, cut)
	}
	b = newCapBuffer(10)
	b.Write([]byte("0123456789"))
	if out, cut := b.String(); out != "0123456789" || cut != 0 {
		t.Errorf("at the cap: %q, %d", out, cut)
	}
}

// TestKillAll: a process quitting on a second Ctrl-C kills the test runs
// under way, grandchildren included.
func TestKillAll(t *testing.T) {
	fixture.NeedPython(t)
	dir := t.TempDir()
	done := make(chan Result)
	go func() {
		res, _ := RunWith(context.Background(), dir, []string{"python3", "-c", forkSleeper + "import time\ntime.sleep(60)\n"}, time.Minute, Options{Sandbox: DefaultSandbox()})
		done <- res
	}()
	ctx, stop := context.WithCancel(context.Background())
	cancelWhenStarted(dir, stop)
	<-ctx.Done()
	if findSleeper(dir) == 0 {
		t.Fatal("the live sleeper cannot be found in /proc: the checks for survivors would prove nothing")
	}
	KillAll()
	select {
	case res := <-done:
		if res.ExitCode == 0 {
			t.Errorf("the killed run exited 0: %q", res.Output)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after KillAll")
	}
	if pid := sleeperPid(t, dir); !waitDead(pid) {
		t.Errorf("the sleeper grandchild %d outlived KillAll", pid)
	}
}

// TestTimeoutBeforeStartIsATimeout: a timeout that passes before the test
// process could start is a timeout, not a broken test command.
func TestTimeoutBeforeStartIsATimeout(t *testing.T) {
	res, err := RunWith(context.Background(), t.TempDir(), []string{"sh", "-c", "exit 0"}, time.Nanosecond, Options{})
	if err != nil || !res.TimedOut {
		t.Fatalf("timed out %v, err %v; want a timeout and no error", res.TimedOut, err)
	}
}

// TestKillAllRemovesScratch: KillAll removes the scratch folders still in
// use (read-only parts included), not those forgotten.
func TestKillAllRemovesScratch(t *testing.T) {
	inUse, kept := t.TempDir(), t.TempDir()
	sub := filepath.Join(inUse, "ro")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(sub, "f"), []byte("x"), 0o644)
	os.Chmod(sub, 0o500)
	defer Scratch(inUse)()
	Scratch(kept)()
	KillAll()
	if _, err := os.Stat(inUse); err == nil {
		t.Error("KillAll left a scratch folder in use")
	}
	if _, err := os.Stat(kept); err != nil {
		t.Errorf("KillAll removed a folder no longer in use: %v", err)
	}
}
