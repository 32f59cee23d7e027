package loop

import (
	"errors"
	"os"
	"path/filepath"
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
