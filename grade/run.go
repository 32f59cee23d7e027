package grade

import (
	"context"
	"crypto/rand"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"bench/tasks"
	"bench/testrun"
)

// runnerScript is the grading runner: unittest, then a check that nothing
// patched unittest or the test methods, then a verdict line with the nonce.
//
//go:embed runner.py
var runnerScript []byte

// verdictTag starts the grading runner's verdict line.
const verdictTag = "BENCH-VERDICT "

// verdict is what the grading runner reported, when it did.
type verdict struct {
	nonce     string
	unwrapped bool     // the command ran without the grading runner: nothing to check
	found     bool     // a line with the right nonce
	forged    int      // lines with another nonce
	Ran       int      `json:"ran"`
	OK        bool     `json:"ok"`
	Problems  []string `json:"problems"`
}

// runSealed runs the task's tests in ws through the grading runner when
// the test command is `<python> -m unittest …`, else the command as it
// is. The runner, its seal file and a bytecode prefix live in root/runner,
// outside ws.
func runSealed(ctx context.Context, t tasks.Task, ws, root string) (testrun.Result, verdict, error) {
	opts := testrun.Options{Sandbox: testrun.DefaultSandbox()}
	if isGo(t) {
		res, err := testrun.RunTaskWith(ctx, t, ws, opts, testrun.GradeCache)
		return res, verdict{unwrapped: true}, err
	}
	argv := t.TestCmd
	v := verdict{unwrapped: true} // a command we do not wrap has no verdict to check
	if len(argv) >= 3 && argv[1] == "-m" && argv[2] == "unittest" {
		dir := filepath.Join(root, "runner")
		var err error
		if v, err = prepare(t, ws, dir); err != nil {
			return testrun.Result{}, v, err
		}
		opts.Writable = []string{dir}
		argv = append([]string{argv[0], "-B", "-s", "-X", "pycache_prefix=" + filepath.Join(dir, "pycache"),
			filepath.Join(dir, "bench_grade.py"), filepath.Join(dir, "seal.json")}, argv[3:]...)
	}
	res, err := testrun.RunWith(ctx, ws, argv, t.Timeout, opts)
	v.read(&res, ws)
	return res, v, err
}

// prepare writes the grading runner and its seal file into dir.
func prepare(t tasks.Task, ws, dir string) (verdict, error) {
	b := make([]byte, 16)
	rand.Read(b)
	v := verdict{nonce: hex.EncodeToString(b)}
	if err := os.MkdirAll(filepath.Join(dir, "pycache"), 0o700); err != nil {
		return v, err
	}
	var tests []string
	for _, f := range t.TestFiles {
		tests = append(tests, filepath.Join(ws, filepath.FromSlash(f)))
	}
	seal, _ := json.Marshal(map[string]any{"nonce": v.nonce, "tests": tests})
	if err := os.WriteFile(filepath.Join(dir, "seal.json"), seal, 0o600); err != nil {
		return v, err
	}
	return v, os.WriteFile(filepath.Join(dir, "bench_grade.py"), runnerScript, 0o600)
}

// read takes the verdict lines out of res's output (normalised again
// against ws) and reads the one with v's nonce.
func (v *verdict) read(res *testrun.Result, ws string) {
	if v.nonce == "" {
		return
	}
	var kept []string
	for _, line := range strings.SplitAfter(res.Output, "\n") {
		rest, ok := strings.CutPrefix(line, verdictTag)
		if !ok {
			kept = append(kept, line)
			continue
		}
		nonce, body, _ := strings.Cut(strings.TrimSpace(rest), " ")
		if nonce != v.nonce || v.found || json.Unmarshal([]byte(body), v) != nil {
			v.forged++
			continue
		}
		v.found = true
	}
	res.Output = strings.TrimRight(strings.Join(kept, ""), "\n") + "\n"
	res.Normalized = testrun.Normalize(res.Output, ws)
}

// check reports whether the verdict can be trusted and agrees with the
// parsed output, flagging g as tampered where not.
func (v verdict) check(res testrun.Result, g *Result) bool {
	switch {
	case v.unwrapped:
		return true
	case v.forged > 0:
		g.flag("the test output held %d forged verdict line(s)", v.forged)
	case !v.found && res.ExitCode == 0 && !res.TimedOut:
		g.flag("the test run exited 0 without the grading runner's verdict")
	case !v.found:
		return false // a crash or a timeout: failed, not tampered
	case len(v.Problems) > 0:
		g.flag("the test run tampered with the harness: %s", strings.Join(v.Problems, "; "))
	case v.Ran != res.Total:
		g.flag("the output shows %d tests but the grading runner ran %d", res.Total, v.Ran)
	case !v.OK:
		return false
	default:
		return true
	}
	return false
}
