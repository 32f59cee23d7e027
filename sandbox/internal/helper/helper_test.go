package helper

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

func TestArgsParseRoundTrip(t *testing.T) {
	ro, rw := []string{"/usr", "-odd path", "ro"}, []string{"/tmp/ws", "--"}
	argv := []string{"python3", "-m", "unittest", "--", "ro"}
	args := Args(ro, rw, true, "/usr/bin/python3", argv)
	if args[0] != Marker {
		t.Fatalf("args %q do not start with the marker", args)
	}
	s, err := parse(args[1:])
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.ro, ro) || !slices.Equal(s.rw, rw) || !s.loopback || s.bin != "/usr/bin/python3" || !slices.Equal(s.argv, argv) {
		t.Errorf("parsed %+v", s)
	}
	for _, bad := range [][]string{{}, {"ro"}, {"--", "/bin/true"}, {"what"}} {
		if _, err := parse(bad); err == nil {
			t.Errorf("parse(%q) succeeded", bad)
		}
	}
}

// TestHandledByABI: each ABI handles what it knows, and a rule never
// grants more than is handled (ABI 1 cannot grant moving files between
// folders, so the workspace gets no refer right there).
func TestHandledByABI(t *testing.T) {
	for abi, want := range map[int]rulesetAttr{
		1:  {handledFS: 1<<13 - 1},
		2:  {handledFS: 1<<14 - 1},
		4:  {handledFS: 1<<15 - 1, handledNet: 3},
		7:  {handledFS: 1<<16 - 1, handledNet: 3, scoped: 3},
		12: {handledFS: 1<<17 - 1, handledNet: 3, scoped: 3},
	} {
		if got := handled(abi); got != want {
			t.Errorf("ABI %d handles %+v, want %+v", abi, got, want)
		}
	}
	for _, r := range rules(spec{ro: []string{"/usr"}, rw: []string{"/w"}}) {
		if r.rights&(fsIoctlDev|fsResolveUnix) != 0 {
			t.Errorf("a rule grants device ioctls or unix sockets made outside: %b", r.rights)
		}
	}
	if handled(1).handledFS&fsRefer != 0 {
		t.Error("ABI 1 handles refer")
	}
}

func TestABIVersionSaysWhyNot(t *testing.T) {
	v, err := ABIVersion()
	if (v > 0) == (err != nil) {
		t.Fatalf("ABIVersion() = %d, %v: want a version or a reason, not both or neither", v, err)
	}
	if ABI() != v {
		t.Errorf("ABI() = %d, ABIVersion() = %d", ABI(), v)
	}
}

func TestEnterParseRoundTrip(t *testing.T) {
	args := Args([]string{"/usr"}, []string{"/tmp/ws"}, true, "/bin/true", []string{"true", "ns"})
	ns := Namespaces{Flags: syscall.CLONE_NEWUSER | syscall.CLONE_NEWPID, UID: 1000, GID: 0}
	in := Enter(ns, args)
	if in[0] != Marker || in[1] != nsWord {
		t.Fatalf("%q does not start with the marker and the ns word", in)
	}
	got, rest, err := parseEnter(in[2:])
	if err != nil || got != ns || !slices.Equal(rest, args[1:]) {
		t.Errorf("parseEnter(%q) = %+v, %q, %v", in[2:], got, rest, err)
	}
	for _, bad := range [][]string{{}, {"1", "2"}, {"1", "-2", "3"}, {"1", "2", "x"}, {"99999999999999999999", "0", "0"}} {
		if _, _, err := parseEnter(bad); err == nil {
			t.Errorf("parseEnter(%q) succeeded", bad)
		}
	}
	for _, v := range []uint64{0, 7, 10, 1<<63 - 1} {
		if back, ok := atoi(itoa(v)); !ok || back != v {
			t.Errorf("atoi(itoa(%d)) = %d, %v", v, back, ok)
		}
	}
}

// TestIdentityIsEverySourceFile: the identity a separately built helper
// answers with holds every Go file of this package but its tests, whole.
func TestIdentityIsEverySourceFile(t *testing.T) {
	id := Identity()
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files here: %v", err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			if bytes.Contains(id, []byte(f+"\x00")) {
				t.Errorf("the identity holds the test file %s", f)
			}
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		entry := append([]byte(f+"\x00"+itoa(uint64(len(data)))+"\x00"), data...)
		if !bytes.Contains(id, entry) {
			t.Errorf("the identity does not hold %s as it is", f)
		}
	}
}
