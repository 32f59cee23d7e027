package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"bench/internal/testsupport"
	"bench/record"
)

// TestBuiltBenchWithAndWithoutItsHelper: bench built as make build builds
// it uses bench-sandbox beside it, and a bench with none beside it serves
// as its own helper; bench doctor names the helper, and an oracle run
// passes in the same sandbox either way.
func TestBuiltBenchWithAndWithoutItsHelper(t *testing.T) {
	paceFullOnly(t, "the sandbox package's TestHelperChoice, and its tests of each layer through either helper")
	t.Parallel()
	needPython(t)
	needSandbox(t, "fs")
	built := testsupport.NeedBench(t)
	alone := filepath.Join(t.TempDir(), "bench")
	if err := os.Link(built, alone); err != nil {
		data, err := os.ReadFile(built)
		if err != nil || os.WriteFile(alone, data, 0o755) != nil {
			t.Fatalf("copying bench: %v", err)
		}
	}
	for _, c := range []struct {
		exe, helper string
	}{
		{built, "helper: " + filepath.Join(filepath.Dir(built), "bench-sandbox")},
		{alone, "helper: bench itself"},
	} {
		doctor := benchCommand(c.exe, "doctor", "--tracks", "oracle")
		out, err := doctor.CombinedOutput()
		if err != nil || !strings.Contains(string(out), c.helper) {
			t.Errorf("%s doctor: %v; want %q in:\n%s", c.exe, err, c.helper, out)
		}
		dir := filepath.Join(t.TempDir(), "run")
		if out, err := benchCommand(c.exe, "run", "--tracks", "oracle", "--tasks", "leap_year", "--out", dir).CombinedOutput(); err != nil {
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

// benchCommand is the bench at exe run with args, in this test's
// environment less BENCH_SANDBOX_HELPER, which would name a helper.
func benchCommand(exe string, args ...string) *exec.Cmd {
	cmd := exec.Command(exe, args...)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "BENCH_SANDBOX_HELPER=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	return cmd
}
