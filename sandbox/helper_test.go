package sandbox

import (
	"os"
	"path/filepath"
	"testing"

	"bench/internal/testsupport/exefile"
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
	exefile.Write(t, stale, []byte("#!/bin/sh\necho 'helper.go 1'\n"))
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
			exefile.Copy(t, c.beside, filepath.Join(dir, "bench-sandbox"))
		}
		if got := chooseHelper(c.env, self); got != c.want {
			t.Errorf("%s: chooseHelper(%q) = %+v, want %+v", c.name, c.env, got, c.want)
		}
	}
}
