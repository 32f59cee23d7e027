package testrun

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"bench/internal/testsupport/fixture"
	"bench/sandbox"
)

// needLayers skips, with the reason, when this kernel cannot give a run
// the named layers ("fs", "net", "pid").
func needLayers(t *testing.T, names ...string) sandbox.Layers {
	t.Helper()
	l, _ := sandbox.Plan(sandbox.Config{Mode: sandbox.Auto})
	missing := strings.Join(l.Missing(), ",")
	for _, n := range names {
		if strings.Contains(missing, n) {
			fixture.Lacks(t, fmt.Sprintf("this kernel cannot sandbox %s here (%s); bench doctor says why", n, l))
		}
	}
	return l
}

// on is the option set that refuses to run unsandboxed.
var on = Options{Sandbox: sandbox.Config{Mode: sandbox.On}}

func TestSandboxedRunWritesOnlyInTheWorkspace(t *testing.T) {
	fixture.NeedPython(t)
	needLayers(t, "fs")
	dir, results := t.TempDir(), t.TempDir()
	forged := filepath.Join(results, "episodes.jsonl")
	home := filepath.Join(os.Getenv("HOME"), "bench-sandbox-escape-"+strconv.Itoa(os.Getpid()))
	prog := `import sys, os, tempfile
for p in sys.argv[1:]:
    try:
        open(p, "w").write("forged")
        print("WROTE", p)
    except OSError as e:
        print("DENIED", e.errno)
with tempfile.NamedTemporaryFile(dir=None) as f:
    print("TMP OK", f.name.startswith(os.environ["TMPDIR"]))
open("inside.txt", "w").write("ok")
`
	res, err := RunWith(context.Background(), dir, []string{"python3", "-c", prog, forged, home}, 30*time.Second, on)
	defer os.Remove(home)
	if err != nil {
		t.Fatal(err)
	}
	if res.Sandbox.FS != sandbox.Landlock {
		t.Errorf("sandbox %s", res.Sandbox)
	}
	for _, p := range []string{forged, home} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("the test run wrote %s outside its workspace", p)
		}
	}
	if strings.Count(res.Output, "DENIED 13") != 2 || !strings.Contains(res.Output, "TMP OK True") {
		t.Errorf("output:\n%s", res.Output)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "inside.txt")); string(data) != "ok" {
		t.Errorf("the run could not write its own workspace:\n%s", res.Output)
	}
}

func TestSandboxedRunCannotReachALoopbackListener(t *testing.T) {
	fixture.NeedPython(t)
	needLayers(t, "net")
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		fixture.Lacks(t, fmt.Sprint("no loopback listener: ", err))
	}
	defer ln.Close()
	accepted := make(chan bool, 1)
	go func() {
		c, err := ln.Accept()
		if err == nil {
			c.Close()
		}
		accepted <- err == nil
	}()
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	prog := "import socket, sys\ntry:\n    socket.create_connection(('127.0.0.1', int(sys.argv[1])), timeout=3)\n    print('CONNECTED')\nexcept OSError as e:\n    print('REFUSED', e)\n"
	res, err := RunWith(context.Background(), t.TempDir(), []string{"python3", "-c", prog, port}, 30*time.Second, on)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(res.Output, "CONNECTED") || !strings.Contains(res.Output, "REFUSED") {
		t.Errorf("output:\n%s", res.Output)
	}
	ln.Close()
	if <-accepted {
		t.Error("the listener accepted a connection from the test run")
	}
}

// setsidSleeper starts a grandchild in a session of its own (out of the
// run's process group) and exits at once.
const setsidSleeper = `import os, subprocess
p = subprocess.Popen(["sleep", "60"], start_new_session=True)
open("sleeper.pid", "w").write(str(p.pid))
print("started", flush=True)
`

func TestSandboxedRunLeavesNoSetsidChild(t *testing.T) {
	fixture.NeedPython(t)
	if _, err := os.Stat("/proc/self/environ"); err != nil {
		fixture.Lacks(t, "needs /proc")
	}
	needLayers(t, "pid")
	// Unsandboxed first: the check must see the survivor, or it proves nothing.
	dir := t.TempDir()
	off := Options{Sandbox: sandbox.Config{Mode: sandbox.Off}}
	if _, err := RunWith(context.Background(), dir, []string{"python3", "-c", setsidSleeper}, 30*time.Second, off); err != nil {
		t.Fatal(err)
	}
	if pid := findSleeper(dir); pid == 0 {
		t.Fatal("the unsandboxed setsid sleeper was not found: the check proves nothing")
	} else {
		syscallKill(pid)
	}

	dir = t.TempDir()
	res, err := RunWith(context.Background(), dir, []string{"python3", "-c", setsidSleeper}, 30*time.Second, on)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Output, "started") || res.Sandbox.PID != sandbox.PIDNS {
		t.Fatalf("sandbox %s, output:\n%s", res.Sandbox, res.Output)
	}
	if pid := findSleeper(dir); pid != 0 && !waitDead(pid) {
		syscallKill(pid)
		t.Errorf("the setsid grandchild %d outlived the sandboxed run", pid)
	}
}

// TestKill9LeavesNoTestProcess: kill -9 of the process running the tests
// (bench) takes the whole test run with it.
func TestKill9LeavesNoTestProcess(t *testing.T) {
	fixture.NeedPython(t)
	if _, err := os.Stat("/proc/self/environ"); err != nil {
		fixture.Lacks(t, "needs /proc")
	}
	needLayers(t, "pid")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	parent := exec.Command(self, "-test.run=^$")
	parent.Env = append(os.Environ(), parentEnv+"="+dir)
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	cancelWhenStarted(dir, stop)
	<-ctx.Done()
	pid := findSleeper(dir)
	if pid == 0 {
		parent.Process.Kill()
		t.Fatal("the sleeper of the fake parent cannot be found: the check would prove nothing")
	}
	parent.Process.Kill()
	parent.Wait()
	if !waitDead(pid) {
		syscallKill(pid)
		t.Errorf("the test's grandchild %d outlived kill -9 of its parent", pid)
	}
}
