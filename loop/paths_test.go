package loop

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestConfine(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	mustMkdir(t, filepath.Join(root, "pkg"))
	mustSymlink(t, outside, filepath.Join(root, "out"))                         // a directory link leading outside
	mustSymlink(t, filepath.Join(outside, "x.py"), filepath.Join(root, "x.py")) // a dangling link leading outside
	mustSymlink(t, filepath.Join(root, "pkg"), filepath.Join(root, "alias"))    // a link that stays inside

	for _, tc := range []struct {
		path string
		ok   bool
	}{
		{".", true},
		{"pkg/mod.py", true},
		{"pkg/new/deep/file.py", true},
		{"pkg/../mod.py", true},
		{"alias/mod.py", true},
		{"", false},
		{"/etc/passwd", false},
		{"..", false},
		{"../x", false},
		{"pkg/../../x", false},
		{"out", false},
		{"out/new/file.py", false},
		{"x.py", false},
	} {
		got, err := Confine(root, tc.path)
		if tc.ok && (err != nil || got != filepath.Join(root, tc.path)) {
			t.Errorf("Confine(%q) = %q, %v; want the joined path", tc.path, got, err)
		}
		if !tc.ok && err == nil {
			t.Errorf("Confine(%q) = %q; want an error", tc.path, got)
		}
		if !tc.ok && tc.path != "" && !errors.Is(err, ErrEscape) {
			t.Errorf("Confine(%q) error %v is not ErrEscape", tc.path, err)
		}
	}
}

func mustMkdir(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
}

func mustSymlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// TestConfineOddPaths: a NUL byte, a path through a file and an over-long
// path are refused with an error that names the path the model gave, not
// the workspace's absolute path (the error is shown to the model, and an
// absolute temp path would make every prompt differ).
func TestConfineOddPaths(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.py"), []byte("x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, want string }{
		{"a\x00b.py", "NUL byte"},
		{"a.py\x00/../../etc/passwd", ""},
		{"a.py/x.py", "not a directory"},
		{strings.Repeat("d/", 3000) + "x.py", "too long"},
		{strings.Repeat("x", 300) + ".py", "too long"},
	} {
		_, err := Confine(root, tc.path)
		if err == nil {
			t.Errorf("Confine(%.40q) = nil error", tc.path)
			continue
		}
		if strings.Contains(err.Error(), root) {
			t.Errorf("Confine(%.40q) error shows the workspace path: %v", tc.path, err)
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Confine(%.40q) error %q does not say %q", tc.path, err, tc.want)
		}
		if len(err.Error()) > 400 {
			t.Errorf("Confine(%.40q) error is %d bytes long", tc.path, len(err.Error()))
		}
	}
	if got, err := Confine(root, "./"); err != nil || got != root {
		t.Errorf(`Confine("./") = %q, %v; want the root`, got, err)
	}
}
