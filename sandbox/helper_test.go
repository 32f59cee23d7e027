package sandbox

import (
	"os"
	"path/filepath"
	"testing"
)

// TestHelperChoice: a separately built helper is used when
// BENCH_SANDBOX_HELPER names it or it lies beside the executable, and only
// when it is the same helper; else the executable serves itself.
func TestHelperChoice(t *testing.T) {
	built := builtHelper(t)
	dir := t.TempDir()
	self := filepath.Join(dir, "bench") // need not exist: only its folder is read
	stale := filepath.Join(t.TempDir(), "bench-sandbox")
	// A helper of another version answers with another identity.
	if err := os.WriteFile(stale, []byte("#!/bin/sh\necho 'helper.go 1'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, env string
		beside    string // copied beside self
		want      HelperExe
	}{
		{"nothing", "", "", HelperExe{Path: self}},
		{"named", built, "", HelperExe{Path: built, Separate: true}},
		{"beside", "", built, HelperExe{Path: filepath.Join(dir, "bench-sandbox"), Separate: true}},
		{"named stale, beside", stale, built, HelperExe{Path: filepath.Join(dir, "bench-sandbox"), Separate: true}},
		{"named stale", stale, "", HelperExe{Path: self}},
		{"stale beside", "", stale, HelperExe{Path: self}},
		{"named relative", "bench-sandbox", "", HelperExe{Path: self}},
		{"named missing", filepath.Join(dir, "nothing"), "", HelperExe{Path: self}},
		{"named a folder", dir, "", HelperExe{Path: self}},
	} {
		os.Remove(filepath.Join(dir, "bench-sandbox"))
		if c.beside != "" {
			copyExecutable(t, c.beside, filepath.Join(dir, "bench-sandbox"))
		}
		if got := chooseHelper(c.env, self); got != c.want {
			t.Errorf("%s: chooseHelper(%q) = %+v, want %+v", c.name, c.env, got, c.want)
		}
	}
}

// copyExecutable copies the executable from to to.
func copyExecutable(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o755); err != nil {
		t.Fatal(err)
	}
}
