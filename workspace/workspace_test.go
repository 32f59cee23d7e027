package workspace

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"bench/internal/testsupport/fixture"
)

// open returns a workspace on a fresh temp dir holding a.py.
func open(t *testing.T) (*Root, string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.py"), []byte("x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ws, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	return ws, dir
}

func TestOpenMissingDir(t *testing.T) {
	_, err := Open(filepath.Join(t.TempDir(), "nope"))
	if err == nil || !strings.Contains(err.Error(), "workspace") {
		t.Errorf("Open(missing) = %v; want an error naming the workspace", err)
	}
}

func TestCleanRefusesBadPaths(t *testing.T) {
	for _, tc := range []struct {
		path, want string
		is         error
	}{
		{"", "empty", ErrBadPath},
		{"  ", "empty", ErrBadPath},
		{"a\x00b.py", "NUL byte", ErrBadPath},
		{"/etc/passwd", "is absolute", ErrEscape},
		{"..", `climbs out with ".."`, ErrEscape},
		{"../x", `climbs out with ".."`, ErrEscape},
		{"pkg/../../x", `climbs out with ".."`, ErrEscape},
		{strings.Repeat("d/", 3000) + "x.py", "too long", ErrBadPath},
		{strings.Repeat("x", 300) + ".py", "too long", ErrBadPath},
	} {
		_, err := Clean(tc.path)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, tc.is) || !Refused(err) {
			t.Errorf("Clean(%.40q) = %v; want %v saying %q", tc.path, err, tc.is, tc.want)
		}
		if err != nil && len(err.Error()) > 400 {
			t.Errorf("Clean(%.40q) error is %d bytes long", tc.path, len(err.Error()))
		}
	}
	for in, want := range map[string]string{".": ".", "./": ".", "pkg/../a.py": "a.py", "sub//b.py": "sub/b.py"} {
		if got, err := Clean(in); err != nil || got != want {
			t.Errorf("Clean(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

func TestReadFile(t *testing.T) {
	ws, _ := open(t)
	if b, err := ws.ReadFile("a.py"); err != nil || string(b) != "x = 1\n" {
		t.Errorf("ReadFile(a.py) = %q, %v", b, err)
	}
	if _, err := ws.ReadFile("missing.py"); err == nil || err.Error() != "no such file: missing.py" || Refused(err) {
		t.Errorf("ReadFile(missing) = %v", err)
	}
	if _, err := ws.ReadFile("."); !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("ReadFile(.) = %v; want a refusal naming a directory", err)
	}
	if _, err := ws.ReadFile("a.py/x.py"); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("ReadFile(a.py/x.py) = %v", err)
	}
}

// TestReadFileFIFOFailsAtOnce: a FIFO that model code made in the workspace
// is refused without waiting for a writer that never comes.
func TestReadFileFIFOFailsAtOnce(t *testing.T) {
	ws, dir := open(t)
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644); err != nil {
		fixture.Lacks(t, fmt.Sprintf("mkfifo: %v", err))
	}
	done := make(chan error, 1)
	go func() {
		_, err := ws.ReadFile("pipe")
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "pipe is not a regular file") {
			t.Errorf("ReadFile(fifo) = %v; want a not-a-regular-file refusal", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ReadFile on a FIFO blocked") // the goroutine stays blocked; the test binary ends anyway
	}
	if err := ws.WriteFile("pipe", []byte("x")); !errors.Is(err, ErrNotRegular) {
		t.Errorf("WriteFile(fifo) = %v; want a refusal", err)
	}
}

func TestReadFileSizeCap(t *testing.T) {
	ws, dir := open(t)
	if err := os.WriteFile(filepath.Join(dir, "big.txt"), make([]byte, MaxFileBytes+1), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "max.txt"), make([]byte, MaxFileBytes), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ws.ReadFile("big.txt"); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "big.txt is larger than") {
		t.Errorf("ReadFile(big) = %v", err)
	}
	if b, err := ws.ReadFile("max.txt"); err != nil || len(b) != MaxFileBytes {
		t.Errorf("ReadFile(max) = %d bytes, %v", len(b), err)
	}
}

func TestWriteFile(t *testing.T) {
	ws, dir := open(t)
	if err := ws.WriteFile("sub/deep/b.py", []byte("y = 2\n")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "sub", "deep", "b.py")); string(b) != "y = 2\n" {
		t.Errorf("b.py = %q", b)
	}
	if err := os.Chmod(filepath.Join(dir, "a.py"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := ws.WriteFile("a.py", []byte("x = 2\n")); err != nil {
		t.Fatal(err)
	}
	info, _ := os.Stat(filepath.Join(dir, "a.py"))
	if b, _ := os.ReadFile(filepath.Join(dir, "a.py")); string(b) != "x = 2\n" || info.Mode().Perm() != 0o755 {
		t.Errorf("a.py = %q, mode %v; want the new content and the old mode", b, info.Mode())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("workspace holds %v; want a.py and sub (no temp files)", entries)
	}
	if err := ws.WriteFile("sub", []byte("x")); !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "sub is a directory") {
		t.Errorf("WriteFile(dir) = %v", err)
	}
	if err := ws.WriteFile("a.py/x.py", []byte("x")); !Refused(err) || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("WriteFile(a.py/x.py) = %v", err)
	}
}

func TestWriteFileSizeCap(t *testing.T) {
	ws, dir := open(t)
	err := ws.WriteFile("a.py", make([]byte, MaxFileBytes+1))
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "the most a file may hold") {
		t.Errorf("WriteFile(big) = %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.py")); string(b) != "x = 1\n" {
		t.Errorf("a.py changed: %q", b)
	}
}

// TestWriteFileRefusesAHardLink: a hard link to a file outside the
// workspace is not written, and the outside file keeps its content.
func TestWriteFileRefusesAHardLink(t *testing.T) {
	ws, dir := open(t)
	victim := filepath.Join(t.TempDir(), "victim.txt")
	if err := os.WriteFile(victim, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(victim, filepath.Join(dir, "linked.py")); err != nil {
		t.Skipf("link: %v", err)
	}
	err := ws.WriteFile("linked.py", []byte("gone"))
	if !errors.Is(err, ErrLinked) || !strings.Contains(err.Error(), "linked.py has 2 hard links") {
		t.Errorf("WriteFile(hard link) = %v", err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep" {
		t.Errorf("the outside file changed: %q", b)
	}
}

func TestSymlinks(t *testing.T) {
	ws, dir := open(t)
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.txt")
	if err := os.WriteFile(secret, []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	mustSymlink(t, outside, filepath.Join(dir, "out"))
	mustSymlink(t, filepath.Join(outside, "new.py"), filepath.Join(dir, "dangling.py"))
	mustSymlink(t, secret, filepath.Join(dir, "secret.py"))
	if err := os.Mkdir(filepath.Join(dir, "pkg"), 0o755); err != nil {
		t.Fatal(err)
	}
	mustSymlink(t, "pkg", filepath.Join(dir, "alias"))
	mustSymlink(t, "a.py", filepath.Join(dir, "b.py"))

	for _, p := range []string{"out/secret.txt", "secret.py"} {
		if b, err := ws.ReadFile(p); !errors.Is(err, ErrEscape) || !strings.Contains(err.Error(), "symbolic link") {
			t.Errorf("ReadFile(%s) = %q, %v; want an escape through a symbolic link", p, b, err)
		}
	}
	for _, p := range []string{"out/new.py", "out/x/y.py", "dangling.py", "secret.py", "b.py"} {
		err := ws.WriteFile(p, []byte("gone"))
		if !Refused(err) || !strings.Contains(err.Error(), "symbolic link") {
			t.Errorf("WriteFile(%s) = %v; want a refusal naming the symbolic link", p, err)
		}
	}
	if b, _ := os.ReadFile(secret); string(b) != "secret" {
		t.Errorf("the outside file changed: %q", b)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 1 {
		t.Errorf("files outside: %v", entries)
	}
	// A link that stays inside is followed for folders and for reading.
	if err := ws.WriteFile("alias/m.py", []byte("m = 1\n")); err != nil {
		t.Errorf("WriteFile(alias/m.py) = %v", err)
	}
	if b, err := ws.ReadFile("b.py"); err != nil || string(b) != "x = 1\n" {
		t.Errorf("ReadFile(b.py) = %q, %v", b, err)
	}
}

func TestListFiles(t *testing.T) {
	ws, dir := open(t)
	for _, p := range []string{"pkg/m.py", "pkg/__pycache__/m.cpython-311.pyc", "pkg/sub/n.py"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mustSymlink(t, t.TempDir(), filepath.Join(dir, "out"))
	got, err := ws.List(t.Context(), ".")
	if want := "a.py out pkg/m.py pkg/sub/n.py"; err != nil || strings.Join(got, " ") != want {
		t.Errorf("List(.) = %v, %v; want %s", got, err, want)
	}
	if got, err := ws.List(t.Context(), "pkg"); err != nil || strings.Join(got, " ") != "pkg/m.py pkg/sub/n.py" {
		t.Errorf("List(pkg) = %v, %v", got, err)
	}
	if _, err := ws.List(t.Context(), "out"); !errors.Is(err, ErrEscape) {
		t.Errorf("List(out) = %v; want an escape", err)
	}
	if _, err := ws.List(t.Context(), "nope"); err == nil || err.Error() != "no such directory: nope" {
		t.Errorf("List(nope) = %v", err)
	}
}

func TestListFilesStopsAtTheCap(t *testing.T) {
	ws, dir := open(t)
	for i := range MaxListEntries + 5 {
		// Hard links to a.py: as many files for List, without making 5,000
		// inodes (seconds on a loaded disk).
		if err := os.Link(filepath.Join(dir, "a.py"), filepath.Join(dir, fmt.Sprintf("f%05d", i))); err != nil {
			t.Fatal(err)
		}
	}
	got, err := ws.List(t.Context(), ".")
	if !errors.Is(err, ErrTooMany) || len(got) != MaxListEntries {
		t.Errorf("List = %d names, %v; want %d and ErrTooMany", len(got), err, MaxListEntries)
	}
}

func TestListFilesHonoursTheContext(t *testing.T) {
	ws, _ := open(t)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := ws.List(ctx, "."); !errors.Is(err, context.Canceled) {
		t.Errorf("List(cancelled) = %v", err)
	}
}

func mustSymlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}
