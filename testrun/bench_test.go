package testrun

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"bench/sandbox"
)

// BenchmarkSandboxCost runs a two-test unittest module unsandboxed and
// sandboxed; the difference of the two ms/run figures is the sandbox's
// cost (target: at most 30 ms).
func BenchmarkSandboxCost(b *testing.B) {
	exe, err := exec.Command("python3", "-c", "import sys; print(sys.executable)").Output()
	if err != nil {
		b.Skip("python3 is not on PATH")
	}
	dir := b.TempDir()
	files := map[string]string{
		"calc.py":      "def add(a, b):\n    return a + b\n",
		"test_calc.py": "import unittest\nfrom calc import add\n\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2, 2), 4)\n\n    def test_zero(self):\n        self.assertEqual(add(0, 0), 0)\n",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	argv := []string{strings.TrimSpace(string(exe)), "-m", "unittest", "-v", "test_calc"}
	for _, mode := range []sandbox.Mode{sandbox.Off, sandbox.Auto} {
		b.Run(string(mode), func(b *testing.B) {
			opts := Options{Sandbox: sandbox.Config{Mode: mode}}
			var total time.Duration
			for b.Loop() {
				res, err := RunWith(context.Background(), dir, argv, time.Minute, opts)
				if err != nil || !res.AllPassed() {
					b.Fatalf("%v\n%s", err, res.Output)
				}
				total += res.Duration
			}
			b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms/run")
		})
	}
}
