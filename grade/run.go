package grade

import (
	"context"
	"crypto/rand"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"bench/tasks"
	"bench/testrun"
	"bench/testrun/gojson"
)

// runnerScript is the grading runner: unittest with each test's outcome
// reported on a channel of its own, then a check that nothing patched
// unittest or the test methods.
//
//go:embed runner.py
var runnerScript []byte

// runSealed runs the task's tests in ws and judges them into g: through
// the grading runner, with the plan's controls, when the test command is
// `<python> -m unittest …`; else the command as it is, read from its
// output. The runner and its seal file live in root/runner, outside ws;
// the bytecode prefix is the sealed cache (or an empty root/pycache), never
// writable. A Go task runs with runGo.
func runSealed(ctx context.Context, t tasks.Task, ws, root string, g *Result) (testrun.Result, error) {
	opts := testrun.Options{Sandbox: testrun.DefaultSandbox()}
	if isGo(t) {
		return runGo(ctx, t, ws, opts, g)
	}
	argv := t.TestCmd
	if len(argv) < 3 || argv[1] != "-m" || argv[2] != "unittest" {
		res, err := testrun.RunWith(ctx, ws, argv, t.Timeout, opts)
		score(t, g, res)
		return res, err
	}
	p, err := planPython(ctx, t, ws)
	if err != nil {
		return testrun.Result{}, err
	}
	dir := filepath.Join(root, "runner")
	var py string // the interpreter itself, without a version manager's shim
	var site []string
	if bin, err := exec.LookPath(argv[0]); err == nil {
		py = testrun.Interpreter(bin)
		// The cache's first check in a process (some 30 ms) runs while
		// Python reports its site path; the call below waits for it.
		go bytecodeCache(ctx, py) //nolint:errcheck // its answer is kept for the call below
		site = testrun.SitePath(py)
	}
	nonce, err := prepare(t, ws, dir, site)
	if err != nil {
		return testrun.Result{}, err
	}
	opts.Writable, opts.Channel = []string{dir}, true
	// The bytecode prefix is never writable: code under test must not plant
	// bytecode for a module imported after it (a second test module). Without
	// the sealed cache, an empty folder: the standard library compiled from
	// source.
	prefix := filepath.Join(root, "pycache")
	if err := os.Mkdir(prefix, 0o700); err != nil {
		return testrun.Result{}, err
	}
	opts.ReadOnly = []string{prefix}
	if py != "" {
		if cache, err := bytecodeCache(ctx, py); err == nil {
			prefix, opts.ReadOnly = filepath.Join(cache, "pyc"), []string{cache}
		}
	}
	argv = append([]string{argv[0], "-B", "-S", "-s", "-X", "pycache_prefix=" + prefix,
		filepath.Join(dir, "bench_grade.py"), filepath.Join(dir, "seal.json")}, argv[3:]...)
	res, err := testrun.RunWith(ctx, ws, argv, p.timeout(t.Timeout), opts)
	r := readUnittest(res.Channel, nonce)
	judge(t, p, r, res, g, nil)
	fill(&res, p, r, composeUnittest(res.Output, p, r), ws)
	return res, err
}

// score reads a run that had no grading runner from its output: the
// parsed counts, every expected test that did not pass counted failed.
func score(t tasks.Task, g *Result, res testrun.Result) {
	g.TestsTotal = max(res.Total, len(t.Tests))
	g.TestsPassed = min(res.Passed, g.TestsTotal)
	g.Failed = res.Failed
	if res.LoadError || res.Total < len(t.Tests) {
		g.Failed = notPassed(t.Tests, res.Cases)
	}
	g.Passed = res.ExitCode == 0 && !res.TimedOut && !res.LoadError &&
		g.TestsTotal > 0 && g.TestsPassed == g.TestsTotal
}

// prepare writes the grading runner and its seal file into dir, with the
// path the interpreter's site module makes (site), and returns the run's
// nonce.
func prepare(t tasks.Task, ws, dir string, site []string) (string, error) {
	b := make([]byte, 16)
	rand.Read(b)
	nonce := hex.EncodeToString(b)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	var tests []string
	for _, f := range t.TestFiles {
		tests = append(tests, filepath.Join(ws, filepath.FromSlash(f)))
	}
	seal, _ := json.Marshal(map[string]any{"nonce": nonce, "tests": tests, "site": site})
	if err := os.WriteFile(filepath.Join(dir, "seal.json"), seal, 0o600); err != nil {
		return "", err
	}
	return nonce, os.WriteFile(filepath.Join(dir, "bench_grade.py"), runnerScript, 0o600)
}

// unittestRecord is one line the grading runner writes on the channel.
type unittestRecord struct {
	Test     string   `json:"t"`
	Outcome  string   `json:"o"`
	Text     string   `json:"x"`
	Fixture  int      `json:"h"`
	Done     bool     `json:"done"`
	Ran      int      `json:"ran"`
	Problems []string `json:"problems"`
}

// readUnittest reads the grading runner's channel: one line per test, by
// method name, with the nonce; a line without it, a second final line or
// a test reported twice is counted as forged or duplicated.
func readUnittest(channel, nonce string) *report {
	r := newReport()
	seen := map[string]bool{}
	for _, line := range strings.Split(channel, "\n") {
		if line == "" {
			continue
		}
		var rec unittestRecord
		body, ok := strings.CutPrefix(line, nonce+" ")
		if !ok || json.Unmarshal([]byte(body), &rec) != nil {
			r.forged++
			continue
		}
		switch {
		case rec.Done && r.done:
			r.forged++
		case rec.Done:
			r.done, r.problems = true, rec.Problems
		case strings.HasPrefix(rec.Test, testrun.FailedTestLoader+"."):
			r.loadError = true
			r.fixtures = append(r.fixtures, fmt.Sprintf("%s: %s (%s)\n%s", rec.Outcome, strings.TrimPrefix(rec.Test, testrun.FailedTestLoader+"."), rec.Test, rec.Text))
		case rec.Fixture == 1:
			r.fixtures = append(r.fixtures, fmt.Sprintf("%s: %s\n%s", rec.Outcome, rec.Test, rec.Text))
		case seen[rec.Test]:
			r.dups = append(r.dups, rec.Test)
		default:
			seen[rec.Test] = true
			r.record(rec.Test[strings.LastIndexByte(rec.Test, '.')+1:], rec.Test, rec.Outcome, rec.Text)
		}
	}
	return r
}

// rename replaces every sealed name of a task test in s with the test's
// own name.
func (p *plan) rename(s string) string {
	for sealed, name := range p.real {
		if sealed != name {
			s = strings.ReplaceAll(s, sealed, name)
		}
	}
	return s
}

// composeUnittest is what unittest -v would have printed for the task's
// tests alone, after the run's own output: a line per test and a block per
// failure, under the tests' own names, and the summary. Controls and their
// output are left out.
func composeUnittest(output string, p *plan, r *report) string {
	var b, blocks strings.Builder
	b.WriteString(output)
	if !strings.HasSuffix(output, "\n") && output != "" {
		b.WriteString("\n")
	}
	ran, failures, errors := 0, 0, 0
	line := strings.Repeat("=", 70) + "\n"
	for _, name := range r.order {
		real, ok := p.real[name]
		if !ok {
			continue
		}
		for i, o := range r.outcomes[name] {
			id := p.rename(r.ids[name][i])
			ran++
			fmt.Fprintf(&b, "%s (%s) ... %s\n", real, id, o)
			switch o {
			case testrun.Fail:
				failures++
			case testrun.Error:
				errors++
			default:
				continue
			}
			fmt.Fprintf(&blocks, "%s%s: %s (%s)\n%s\n%s\n", line, o, real, id, strings.Repeat("-", 70), strings.TrimRight(p.rename(r.texts[name][i]), "\n"))
		}
	}
	for _, f := range r.fixtures {
		errors++
		fmt.Fprintf(&blocks, "%s%s\n", line, strings.TrimRight(p.rename(f), "\n"))
	}
	if !r.done {
		b.WriteString("[bench: the grading runner did not report the end of the run]\n")
	}
	b.WriteString("\n" + blocks.String())
	fmt.Fprintf(&b, "%s\nRan %d tests in 0.000s\n\n", strings.Repeat("-", 70), ran)
	switch {
	case failures+errors == 0:
		b.WriteString("OK\n")
	default:
		var parts []string
		if failures > 0 {
			parts = append(parts, fmt.Sprintf("failures=%d", failures))
		}
		if errors > 0 {
			parts = append(parts, fmt.Sprintf("errors=%d", errors))
		}
		fmt.Fprintf(&b, "FAILED (%s)\n", strings.Join(parts, ", "))
	}
	return b.String()
}

// fill makes res describe the task's tests alone, under their own names:
// its output (composed), the cases and counts the report gives.
func fill(res *testrun.Result, p *plan, r *report, output, ws string) {
	res.Output = output
	res.Normalized = testrun.Normalize(output, ws)
	res.Cases, res.Passed, res.Total, res.Failed, res.LoadError = nil, 0, 0, nil, r.loadError
	for _, n := range p.tests {
		o := worst(r.outcomes[p.sealed[n]])
		if o == "" {
			o = testrun.Error
		}
		res.Cases = append(res.Cases, testrun.Case{Name: n, Outcome: o})
		res.Total++
		if o == testrun.OK || o == testrun.Skipped || o == testrun.ExpectedFailure {
			res.Passed++
		} else {
			res.Failed = append(res.Failed, n)
		}
	}
	res.Channel = ""
}

// runGo runs a Go task's tests with the plan's controls: the test files
// are deleted once the test binaries are built, and the results are read
// from the events of each binary against the plan.
func runGo(ctx context.Context, t tasks.Task, ws string, opts testrun.Options, g *Result) (testrun.Result, error) {
	p, err := planGo(t, ws)
	if err != nil {
		return testrun.Result{}, err
	}
	opts.Go = testrun.GoRunOf(testrun.GradeCache, t.Tests)
	opts.Go.DropTests = true
	res, err := testrun.RunWith(ctx, ws, t.TestCmd, p.timeout(t.Timeout), opts)
	all := gojson.Parse(res.Channel, nil)
	r := newReport()
	r.done, r.loadError = res.Ended, all.BuildFailed
	for _, name := range slices.Sorted(maps.Keys(all.Outcomes)) {
		r.record(name, name, testrun.GoOutcome(all.Outcomes[name]), "")
	}
	judge(t, p, r, res, g, func(name string) bool {
		return strings.HasPrefix(name, "Example") || strings.HasPrefix(name, "Fuzz")
	})
	fill(&res, p, r, gojson.Parse(p.goEvents(res.Channel), t.Tests).Text, ws)
	return res, err
}

// goEvents is the events of a Go run without those of the controls, and
// the sealed names of the task's tests replaced by their own.
func (p *plan) goEvents(events string) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(events, "\n") {
		var e gojson.Event
		if json.Unmarshal([]byte(line), &e) != nil {
			b.WriteString(line)
			continue
		}
		top, _, _ := strings.Cut(e.Test, "/")
		if _, ok := p.controls[top]; ok {
			continue
		}
		if real, ok := p.real[top]; ok && real != top {
			e.Test = real + strings.TrimPrefix(e.Test, top)
		}
		e.Output = p.rename(e.Output)
		out, _ := json.Marshal(e)
		b.Write(append(out, '\n'))
	}
	return b.String()
}
