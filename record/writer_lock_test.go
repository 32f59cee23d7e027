package record

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOneWriterPerFolder: while a writer holds a run folder, Create and
// Resume of it are refused with who holds it; Holder says the same
// without taking the lock; once the writer closes, the folder opens again.
func TestOneWriterPerFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	w, err := Create(dir, sampleRun())
	if err != nil {
		t.Fatal(err)
	}
	host, _ := os.Hostname()
	for name, try := range map[string]func() error{
		"resume": func() error { _, _, err := Resume(dir); return err },
		"create": func() error { _, err := Create(dir, sampleRun()); return err },
		"holder": func() error { return Holder(dir) },
	} {
		err := try()
		var locked *LockedError
		if !errors.As(err, &locked) {
			t.Fatalf("%s of a held folder: %v, want a LockedError", name, err)
		}
		for _, want := range []string{fmt.Sprintf("pid %d", os.Getpid()), "host " + host, "since 20"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %q lacks %q", name, err, want)
			}
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := Holder(dir); err != nil {
		t.Fatalf("Holder after Close: %v", err)
	}
	w, _, err = Resume(dir)
	if err != nil {
		t.Fatalf("resume after the writer closed: %v", err)
	}
	w.Close()
	if err := Holder(t.TempDir()); err != nil {
		t.Errorf("Holder of a folder without a lock file: %v", err)
	}
}
