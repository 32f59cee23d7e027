package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"bench/internal/testsupport"
	"bench/internal/testsupport/exefile"
	"bench/internal/testsupport/fixture"
	"bench/record"
)

// TestBuiltBenchWithAndWithoutItsHelper: bench built as make build builds
// it uses bench-sandbox beside it, and a bench with none beside it serves
// as its own helper; bench doctor names the helper, and an oracle run
// passes in the same sandbox either way.
func TestBuiltBenchWithAndWithoutItsHelper(t *testing.T) {
	fixture.FullOnly(t, "the sandbox package's TestHelperChoice, and its tests of each layer through either helper")
	t.Parallel()
	fixture.NeedPython(t)
	needSandbox(t, "fs")
	built := testsupport.NeedBench(t)
	alone := filepath.Join(t.TempDir(), "bench")
	if os.Link(built, alone) != nil { // a copy where a hard link cannot be
		exefile.Copy(t, built, alone)
	}
	for _, c := range []struct {
		exe, helper string
	}{
		{built, "helper: " + filepath.Join(filepath.Dir(built), "bench-sandbox")},
		{alone, "helper: bench itself"},
	} {
		// An empty BENCH_SANDBOX_HELPER, the last value, names no helper.
		noneNamed := []string{"BENCH_SANDBOX_HELPER="}
		doctor, out := startBenchEnvAt(t, c.exe, noneNamed, "doctor", "--tracks", "oracle")
		if err := doctor.Wait(); err != nil || !strings.Contains(out.String(), c.helper) {
			t.Errorf("%s doctor: %v; want %q in:\n%s", c.exe, err, c.helper, out)
		}
		dir := filepath.Join(t.TempDir(), "run")
		run, out := startBenchEnvAt(t, c.exe, noneNamed, "run", "--tracks", "oracle", "--tasks", "leap_year", "--out", dir)
		if err := run.Wait(); err != nil {
			t.Fatalf("%s run: %v\n%s", c.exe, err, out)
		}
		data, err := record.Read(dir)
		if err != nil {
			t.Fatal(err)
		}
		if len(data.Episodes) != 1 || !data.Episodes[0].Passed || data.Run.Sandbox == nil || data.Run.Sandbox.FS != "landlock" {
			t.Errorf("%s: the oracle run recorded %d episodes (the first passed: %v) in sandbox %+v", c.exe, len(data.Episodes), len(data.Episodes) > 0 && data.Episodes[0].Passed, data.Run.Sandbox)
		}
	}
}
