package sandbox

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"bench/internal/testsupport"
	"bench/internal/testsupport/fixture"
)

// The helper enters the namespaces itself (stage 1 starts stage 2 in
// them), so that the caller, however large, starts it with vfork: these
// tests check that the command still gets everything the one-stage
// start gave it.

// marked is cmd's environment tag, by which the processes of one test
// are found in /proc.
func marked(t *testing.T, cmd *exec.Cmd, dir string) string {
	tag := fmt.Sprintf("BENCH_STAGE_TEST=%s-%d-%d", t.Name(), os.Getpid(), time.Now().UnixNano())
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, tag}
	return tag
}

// withStages makes every spawn of the test use n stages (twoStages).
func withStages(t *testing.T, n int32) {
	forcedStages.Store(n)
	t.Cleanup(func() { forcedStages.Store(0) })
}

// applyOn sandboxes cmd in mode On in dir, with the read-only folders ro.
func applyOn(t *testing.T, cmd *exec.Cmd, dir string, ro ...string) {
	t.Helper()
	cmd.Dir = dir
	if _, err := Apply(cmd, Config{Mode: On}, Spec{Dir: dir, ReadOnly: ro}); err != nil {
		t.Fatal(err)
	}
}

// TestHelperEntersTheNamespacesItself: the caller starts the helper with
// no clone flags and no id mappings (os/exec can then vfork), and the
// command runs as PID 1 of its own PID namespace, in a network namespace
// with only loopback, in new user, mount, IPC and UTS namespaces, as the
// caller's uid and gid.
func TestHelperEntersTheNamespacesItself(t *testing.T) {
	eachHelper(t, func(t *testing.T) { checkNamespaces(t, 2) })
}

// TestHelperClonedIntoTheNamespaces: a small caller (one stage) starts
// the helper in the same namespaces itself.
func TestHelperClonedIntoTheNamespaces(t *testing.T) {
	eachHelper(t, func(t *testing.T) { checkNamespaces(t, 1) })
}

// TestStagesFor: a caller that is its own helper takes two stages only
// when it holds enough memory for the fork to cost more than a second
// start, and never under -race; a separately built helper always takes
// two.
func TestStagesFor(t *testing.T) {
	for _, c := range []struct {
		mem            uint64
		race, separate bool
		want           int
	}{
		{1 << 20, false, false, 1}, {twoStagesFrom - 1, false, false, 1}, {twoStagesFrom, false, false, 2},
		{1 << 30, false, false, 2}, {1 << 30, true, false, 1},
		{1 << 20, false, true, 2}, {1 << 30, true, true, 2},
	} {
		if got := stagesFor(c.mem, c.race, c.separate); got != c.want {
			t.Errorf("stagesFor(%d, race %v, separate %v) = %d, want %d", c.mem, c.race, c.separate, got, c.want)
		}
	}
	if goMemory() == 0 {
		t.Error("goMemory() = 0")
	}
}

// checkNamespaces runs a command sandboxed with n stages and checks the
// namespaces it is in.
func checkNamespaces(t *testing.T, n int32) {
	need(t, true, true, true)
	withStages(t, n)
	py := fixture.Python(t)
	prog := `import os, socket
print("pid", os.getpid())
print("ifaces", ",".join(sorted(n for _, n in socket.if_nameindex())))
print("ids", os.getuid(), os.getgid())
for ns in ["user", "net", "pid", "mnt", "ipc", "uts"]:
    print("ns", ns, os.readlink("/proc/self/ns/" + ns))
`
	dir := t.TempDir()
	cmd := exec.Command(py, "-c", prog)
	marked(t, cmd, dir)
	applyOn(t, cmd, dir, Toolchain(py)...)
	a := cmd.SysProcAttr
	if n == 2 && (a.Cloneflags != 0 || a.UidMappings != nil || a.GidMappings != nil || a.Pdeathsig != syscall.SIGKILL) {
		t.Errorf("the helper is started with clone flags %#x, uid map %v, gid map %v, pdeathsig %v: os/exec cannot vfork it", a.Cloneflags, a.UidMappings, a.GidMappings, a.Pdeathsig)
	}
	if n == 1 && (a.Cloneflags != nsFlags || len(a.UidMappings) != 1 || a.Pdeathsig != syscall.SIGKILL) {
		t.Errorf("one stage: the helper is started with clone flags %#x, uid map %v, pdeathsig %v; want the namespaces", a.Cloneflags, a.UidMappings, a.Pdeathsig)
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	got := string(out)
	for _, want := range []string{"pid 1\n", "ifaces lo\n", fmt.Sprintf("ids %d %d\n", os.Getuid(), os.Getgid())} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in:\n%s", want, got)
		}
	}
	for _, ns := range []string{"user", "net", "pid", "mnt", "ipc", "uts"} {
		mine, err := os.Readlink("/proc/self/ns/" + ns)
		if err != nil {
			fixture.Lacks(t, fmt.Sprint("no /proc/self/ns: ", err))
		}
		if !strings.Contains(got, "ns "+ns+" "+ns+":[") || strings.Contains(got, "ns "+ns+" "+mine+"\n") {
			t.Errorf("the command is not in a %s namespace of its own (ours is %s):\n%s", ns, mine, got)
		}
	}
}

// TestHelperPassesExtraFiles: the caller's extra files reach the command
// at the same numbers, a gap (a nil entry) stays closed.
func TestHelperPassesExtraFiles(t *testing.T) { eachHelper(t, helperPassesExtraFiles) }

func helperPassesExtraFiles(t *testing.T) {
	need(t, true, true, true)
	withStages(t, 2)
	py := fixture.Python(t)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	prog := `import os
try:
    os.fstat(3)
    print("3 open")
except OSError:
    print("3 closed")
os.write(4, b"through 4")
`
	dir := t.TempDir()
	cmd := exec.Command(py, "-c", prog)
	marked(t, cmd, dir)
	applyOn(t, cmd, dir, Toolchain(py)...)
	cmd.ExtraFiles = []*os.File{nil, w}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	w.Close()
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	got := make([]byte, 64)
	n, _ := r.Read(got)
	if string(got[:n]) != "through 4" || out.String() != "3 closed\n" {
		t.Errorf("fd 4 carried %q, output %q; want \"through 4\" and \"3 closed\\n\"", got[:n], out.String())
	}
}

// TestHelperRelaysTheExitCode: the command's exit code is the caller's.
func TestHelperRelaysTheExitCode(t *testing.T) { eachHelper(t, helperRelaysTheExitCode) }

func helperRelaysTheExitCode(t *testing.T) {
	need(t, true, true, true)
	withStages(t, 2)
	for _, code := range []int{0, 1, 7, 125, 255} {
		dir := t.TempDir()
		cmd := exec.Command("/bin/sh", "-c", "exit "+strconv.Itoa(code))
		marked(t, cmd, dir)
		applyOn(t, cmd, dir)
		out, _ := cmd.CombinedOutput()
		if got := cmd.ProcessState.ExitCode(); got != code {
			t.Errorf("exit %d seen as %d (%s)\n%s", code, got, cmd.ProcessState, out)
		}
	}
}

// TestHelperRelaysDeathBySignal: a command that a fault kills (SIGSEGV),
// or that is killed from outside (SIGKILL), is seen by the caller as
// killed by that signal, not as an exit.
func TestHelperRelaysDeathBySignal(t *testing.T) { eachHelper(t, helperRelaysDeathBySignal) }

func helperRelaysDeathBySignal(t *testing.T) {
	need(t, true, true, true)
	withStages(t, 2)
	py := fixture.Python(t)
	dir := t.TempDir()
	cmd := exec.Command(py, "-c", "import ctypes\nctypes.string_at(0)\n")
	marked(t, cmd, dir)
	applyOn(t, cmd, dir, Toolchain(py)...)
	out, _ := cmd.CombinedOutput()
	wantSignal(t, cmd, syscall.SIGSEGV, out)

	dir = t.TempDir()
	cmd = exec.Command("/bin/sleep", "60")
	tag := marked(t, cmd, dir)
	applyOn(t, cmd, dir)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sleeper := 0
	for i := 0; i < 500 && sleeper == 0; i++ {
		time.Sleep(20 * time.Millisecond)
		for _, pid := range tagged(tag) {
			if comm(pid) == "sleep" {
				sleeper = pid
			}
		}
	}
	if sleeper == 0 {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatal("the sleeping command was not found: the check would prove nothing")
	}
	syscall.Kill(sleeper, syscall.SIGKILL)
	done := make(chan struct{})
	go func() {
		cmd.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Fatal("the helper outlived its command by 10 s")
	}
	wantSignal(t, cmd, syscall.SIGKILL, nil)
}

// wantSignal fails t unless cmd ended killed by sig.
func wantSignal(t *testing.T, cmd *exec.Cmd, sig syscall.Signal, out []byte) {
	t.Helper()
	ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() || ws.Signal() != sig {
		t.Errorf("the command ended with %s, want killed by %v\n%s", cmd.ProcessState, sig, out)
	}
}

// TestKillingTheGroupKillsTheCommand: killing the caller's process group
// (what testrun does at a timeout) leaves nothing of the run alive, not
// even a grandchild that left the group with setsid.
func TestKillingTheGroupKillsTheCommand(t *testing.T) { eachHelper(t, killingTheGroupKillsTheCommand) }

func killingTheGroupKillsTheCommand(t *testing.T) {
	need(t, true, true, true)
	withStages(t, 2)
	py := fixture.Python(t)
	prog := `import subprocess, time
subprocess.Popen(["sleep", "60"], start_new_session=True)
open("started", "w").write("yes")
time.sleep(60)
`
	dir := t.TempDir()
	cmd := exec.Command(py, "-c", prog)
	tag := marked(t, cmd, dir)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	applyOn(t, cmd, dir, Toolchain(py)...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 500; i++ {
		if _, err := os.Stat(filepath.Join(dir, "started")); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	pids := waitFor(tag, 2)
	if len(pids) < 2 {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("found %v, not the command and its grandchild: the check would prove nothing", pids)
	}
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	cmd.Wait()
	for _, pid := range pids {
		if !gone(pid) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Errorf("process %d (%s) outlived the kill of the caller's process group", pid, comm(pid))
		}
	}
}

// tagged returns the live processes whose environment holds tag.
func tagged(tag string) []int {
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		env, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if bytes.Contains(append([]byte{0}, env...), []byte("\x00"+tag+"\x00")) && alive(pid) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// waitFor waits up to 10 s for n processes tagged tag and returns them.
func waitFor(tag string, n int) []int {
	var pids []int
	for i := 0; i < 500 && len(pids) < n; i++ {
		time.Sleep(20 * time.Millisecond)
		pids = tagged(tag)
	}
	return pids
}

// comm is pid's command name.
func comm(pid int) string {
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm")
	return strings.TrimSpace(string(b))
}

// gone reports whether pid is dead (or a zombie) within a second.
func gone(pid int) bool {
	for i := 0; i < 50; i++ {
		if !alive(pid) {
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return false
}

// alive reports whether pid exists and is not a zombie.
func alive(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if errors.Is(err, os.ErrNotExist) {
		return false
	}
	i := bytes.LastIndexByte(stat, ')')
	return i < 0 || i+2 >= len(stat) || stat[i+2] != 'Z'
}

// eachHelper runs test once with this test binary as the helper and once
// with bench-sandbox, the helper built on its own.
func eachHelper(t *testing.T, test func(t *testing.T)) {
	t.Run("self", func(t *testing.T) {
		self, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		withHelper(t, helperExe{path: self})
		test(t)
	})
	t.Run("bench-sandbox", func(t *testing.T) {
		withHelper(t, helperExe{path: builtHelper(t), separate: true})
		test(t)
	})
}

// withHelper makes exe the helper for the rest of the test.
func withHelper(t *testing.T, exe helperExe) {
	old := helperChoice
	helperChoice = func() helperExe { return exe }
	t.Cleanup(func() { helperChoice = old })
}

// builtHelper is bench-sandbox built from this module (testsupport.NeedHelper).
func builtHelper(t *testing.T) string {
	t.Helper()
	fixture.NeedGo(t)
	return testsupport.NeedHelper(t)
}
