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
		want      helperExe
	}{
		{"nothing", "", "", helperExe{path: self}},
		{"named", built, "", helperExe{path: built, separate: true}},
		{"beside", "", built, helperExe{path: filepath.Join(dir, "bench-sandbox"), separate: true}},
		{"named stale, beside", stale, built, helperExe{path: filepath.Join(dir, "bench-sandbox"), separate: true}},
		{"named stale", stale, "", helperExe{path: self}},
		{"stale beside", "", stale, helperExe{path: self}},
		{"named relative", "bench-sandbox", "", helperExe{path: self}},
		{"named missing", filepath.Join(dir, "nothing"), "", helperExe{path: self}},
		{"named a folder", dir, "", helperExe{path: self}},
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
