package sandbox

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"bench/internal/testsupport/fixture"
)

// need skips the test, with the reason, when this kernel lacks a layer.
func need(t *testing.T, fs, net, pid bool) {
	t.Helper()
	c := detect()
	if fs && c.abi < 1 {
		fixture.Lacks(t, fmt.Sprintf("this kernel has no Landlock: %v", c.abiErr))
	}
	if (net || pid) && !c.userns {
		fixture.Lacks(t, fmt.Sprintf("this kernel does not allow user namespaces: %v", c.usernsEr))
	}
}

// sandboxed runs argv in dir inside the sandbox and returns its output.
func sandboxed(t *testing.T, dir string, argv ...string) (string, Layers, error) {
	t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "PYTHONDONTWRITEBYTECODE=1"}
	l, err := Apply(cmd, Config{Mode: On}, Spec{Dir: dir, ReadOnly: Toolchain(argv[0])})
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.CombinedOutput()
	return string(out), l, err
}

func TestParseMode(t *testing.T) {
	for in, want := range map[string]Mode{"": Auto, "auto": Auto, "ON": On, " off ": Off} {
		if got, err := ParseMode(in); err != nil || got != want {
			t.Errorf("ParseMode(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := ParseMode("yes"); err == nil || !strings.Contains(err.Error(), "expected auto, on or off") {
		t.Errorf("ParseMode(yes): %v", err)
	}
}

func TestWritesOnlyInTheWorkspace(t *testing.T) { eachHelper(t, writesOnlyInTheWorkspace) }

func writesOnlyInTheWorkspace(t *testing.T) {
	need(t, true, false, false)
	py := fixture.Python(t)
	dir, outside := t.TempDir(), t.TempDir()
	victim := filepath.Join(outside, "escaped.txt")
	prog := "import sys\nopen('inside.txt', 'w').write('ok')\ntry:\n    open(sys.argv[1], 'w').write('x')\n    print('WROTE')\nexcept OSError as e:\n    print('DENIED', e.errno)\n"
	out, l, err := sandboxed(t, dir, py, "-c", prog, victim)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if l.FS != Landlock {
		t.Errorf("layers %s", l)
	}
	if _, err := os.Stat(victim); err == nil || strings.Contains(out, "WROTE") {
		t.Errorf("the run wrote outside its workspace:\n%s", out)
	}
	if !strings.Contains(out, "DENIED 13") {
		t.Errorf("output %q", out)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "inside.txt")); string(data) != "ok" {
		t.Error("the run could not write in its workspace")
	}
}

func TestOnRefusesWithoutLandlock(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	withHelper(t, helperExe{path: self}) // no bench-sandbox
	ready.Store(false)
	defer ready.Store(true)
	l, err := Plan(Config{Mode: On})
	if !errors.Is(err, ErrUnavailable) || l.FS != None {
		t.Errorf("Plan(on) without the helper = %s, %v", l, err)
	}
	if l, err := Plan(Config{Mode: Auto}); err != nil || l.FS != None {
		t.Errorf("Plan(auto) without the helper = %s, %v", l, err)
	}
	if l, _ := Plan(Config{Mode: Off}); l.FS != None || l.Net != None || l.PID != Pdeathsig {
		t.Errorf("Plan(off) = %s", l)
	}
}

func TestProbeOneLinePerLayer(t *testing.T) {
	checks := Probe()
	if len(checks) != 3 {
		t.Fatalf("%d checks", len(checks))
	}
	for i, layer := range []string{"fs", "net", "pid"} {
		c := checks[i]
		if c.Layer != layer || c.Detail == "" || strings.ContainsAny(c.Detail+c.Fix, "\r\n") || (!c.OK && c.Fix == "") || (c.OK && c.Fix != "") {
			t.Errorf("check %d: %+v", i, c)
		}
		t.Log(c)
	}
}

func TestToolchainFindsThePrefixWithoutRunningIt(t *testing.T) {
	root := t.TempDir()
	bin := filepath.Join(root, "versions", "3.11.7", "bin", "python3")
	shim := filepath.Join(root, "shims", "python3")
	for _, p := range []string{bin, shim} {
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("#!/bin/false\n"), 0o755) // never run
	}
	link := filepath.Join(t.TempDir(), "bin", "python3")
	os.MkdirAll(filepath.Dir(link), 0o755)
	if err := os.Symlink(bin, link); err != nil {
		fixture.Lacks(t, fmt.Sprint("no symlinks: ", err))
	}
	if got := Toolchain(link); !slices.Contains(got, filepath.Join(root, "versions", "3.11.7")) {
		t.Errorf("the interpreter's prefix is missing: %v", got)
	}
	if got := Toolchain(shim); !slices.Contains(got, root) {
		t.Errorf("a pyenv shim does not open the pyenv root: %v", got)
	}
}

// TestNoUnixSocketOutside: a test cannot connect to a unix socket outside
// its workspace (a Docker or D-Bus socket), through connect or a datagram
// socketpair's sendto; a stream socketpair (asyncio's self-pipe) still
// works.
func TestNoUnixSocketOutside(t *testing.T) { eachHelper(t, noUnixSocketOutside) }

func noUnixSocketOutside(t *testing.T) {
	need(t, true, false, false)
	py := fixture.Python(t)
	sock := filepath.Join(t.TempDir(), "bus.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		fixture.Lacks(t, fmt.Sprint("no unix listener: ", err))
	}
	defer ln.Close()
	got := make(chan bool, 1)
	go func() {
		c, err := ln.Accept()
		if err == nil {
			c.Close()
		}
		got <- err == nil
	}()
	prog := `import socket, sys
def attempt(name, f):
    try:
        f()
        print(name, "OK")
    except OSError as e:
        print(name, "DENIED", e.errno)
attempt("connect", lambda: socket.socket(socket.AF_UNIX).connect(sys.argv[1]))
attempt("sendto", lambda: socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)[0].sendto(b"x", sys.argv[1]))
attempt("pair", lambda: socket.socketpair())
`
	out, _, err := sandboxed(t, t.TempDir(), py, "-c", prog, sock)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{"connect DENIED 13", "sendto DENIED 13", "pair OK"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	ln.Close()
	if <-got {
		t.Error("the unix socket outside got a connection")
	}
}

// TestWorkspaceRightsInTheSandbox: what tests commonly do in their
// workspace still works: moving and linking files between its folders,
// writing /dev/null, reading /dev/urandom.
func TestWorkspaceRightsInTheSandbox(t *testing.T) {
	need(t, true, false, false)
	py := fixture.Python(t)
	prog := `import os
os.makedirs("a"); os.makedirs("b")
open("a/f", "w").write("x")
os.rename("a/f", "b/f")
os.link("b/f", "a/g")
open("/dev/null", "w").write("x")
assert len(open("/dev/urandom", "rb").read(8)) == 8
print("ALL OK")
`
	out, _, err := sandboxed(t, t.TempDir(), py, "-c", prog)
	if err != nil || !strings.Contains(out, "ALL OK") {
		t.Errorf("%v\n%s", err, out)
	}
}

// TestCarveLeavesOutHiddenPaths: a read-only folder that holds a hidden
// path is granted entry by entry without it, and without a link into it.
func TestCarveLeavesOutHiddenPaths(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"a/b", "a/c", "d"} {
		os.MkdirAll(filepath.Join(root, d), 0o755)
	}
	for _, f := range []string{"a/b/answer", "a/b/other", "a/x", "d/y"} {
		os.WriteFile(filepath.Join(root, f), []byte("x"), 0o644)
	}
	os.Symlink(filepath.Join(root, "a/b/answer"), filepath.Join(root, "a/link"))
	got := carveDir(root, []string{filepath.Join(root, "a/b/answer")})
	var rel []string
	for _, p := range got {
		r, _ := filepath.Rel(root, p)
		rel = append(rel, r)
	}
	slices.Sort(rel)
	if want := []string{"a/b/other", "a/c", "a/x", "d"}; !slices.Equal(rel, want) {
		t.Errorf("carved %q, want %q", rel, want)
	}
	if got := carveDir(root, []string{"/elsewhere"}); !slices.Equal(got, []string{root}) {
		t.Errorf("a folder without hidden paths: %q", got)
	}
}

// TestHiddenPathUnreadable: a hidden file inside a read-only folder cannot
// be read, while its neighbours can.
func TestHiddenPathUnreadable(t *testing.T) {
	need(t, true, false, false)
	py := fixture.Python(t)
	ro := t.TempDir()
	secret, plain := filepath.Join(ro, "sub", "answer.txt"), filepath.Join(ro, "sub", "plain.txt")
	os.MkdirAll(filepath.Dir(secret), 0o755)
	os.WriteFile(secret, []byte("answer"), 0o644)
	os.WriteFile(plain, []byte("plain"), 0o644)
	Hide(secret)
	dir := t.TempDir()
	prog := "import sys\nfor p in sys.argv[1:]:\n    try:\n        print(open(p).read())\n    except OSError as e:\n        print('DENIED', e.errno)\n"
	cmd := exec.Command(py, "-c", prog, plain, secret)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir}
	if _, err := Apply(cmd, Config{Mode: On}, Spec{Dir: dir, ReadOnly: append(Toolchain(py), ro)}); err != nil {
		t.Fatal(err)
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if string(out) != "plain\nDENIED 13\n" {
		t.Errorf("output %q, want the plain file and a denial for the hidden one", out)
	}
}
