package cause

import (
	"regexp"
	"strconv"
	"strings"

	"bench/tasks"
	"bench/testrun"
)

// testRun is one test run read back from its normalised output: each
// test's outcome and failure, and what kept tests from running.
type testRun struct {
	known  bool   // an output was there to read
	output string // the normalised output
	tests  map[string]*outcome
	// load is what kept tests from running: a test module that did not
	// import, unittest crashing before any test, a Go package that did
	// not build, a panic that ended the test binary. nil when none did.
	load *failure
}

// outcome is one test of a run.
type outcome struct {
	failed bool
	fail   *failure // its failure, when the output shows it
	module string   // unittest: the test's module ("test_money"); "" for Go
}

// failure is one failure as the output shows it.
type failure struct {
	kind    string  // the exception's type ("AssertionError"), or "panic", "build", "fail" for Go
	text    string  // its first line as shown: "AssertionError: 434 != 435"
	message string  // every line of the message, for comparisons
	frames  []frame // the traceback's frames, outermost first (Go: the error positions)
}

// frame is one place of a traceback, a panic or a compile error.
type frame struct {
	file string // relative to the workspace when the output put it there
	line int
	fn   string
	code string // the source line Python prints under the frame, trimmed
}

// innermost is the failure's innermost frame, or the zero frame.
func (f *failure) innermost() frame {
	if f == nil || len(f.frames) == 0 {
		return frame{}
	}
	return f.frames[len(f.frames)-1]
}

// site names where the failure was raised, for comparing two failures:
// the innermost frame's file, function and source line (its number when
// the output shows no line; Python line numbers shift with every edit).
func (f *failure) site() string {
	fr := f.innermost()
	if fr.code != "" {
		return fr.file + "|" + fr.fn + "|" + fr.code
	}
	return fr.file + "|" + fr.fn + "|" + strconv.Itoa(fr.line)
}

// status of a test in one run.
type status int

const (
	unknown status = iota // the run is unknown, or says nothing of the test
	passed
	failed
	notRun // the test did not run: the run's load failure kept it from it
)

// lookup returns the status of test name in r and its failure.
func (r *testRun) lookup(name string) (status, *failure) {
	if r == nil || !r.known {
		return unknown, nil
	}
	if o, ok := r.tests[name]; ok {
		if !o.failed {
			return passed, nil
		}
		if o.fail == nil && r.load != nil {
			return failed, r.load
		}
		return failed, o.fail
	}
	if r.load != nil {
		return notRun, r.load
	}
	return unknown, nil
}

// shows reports whether the run's output shows the failure's first line.
func (r *testRun) shows(f *failure) bool {
	return r != nil && r.known && f != nil && f.text != "" && strings.Contains(r.output, f.text)
}

// readRun reads the output of a test run of a task of framework fw.
func readRun(output, fw string) *testRun {
	r := &testRun{known: true, output: output, tests: map[string]*outcome{}}
	if fw == tasks.FrameworkGo {
		readGo(r)
	} else {
		readUnittest(r)
	}
	return r
}

// unittest output: the per-test lines (read by testrun.Parse), then a
// block per failure, "====" / "ERROR: name (qualified)" / "----" / the
// traceback.
var (
	blockHead  = regexp.MustCompile(`^(ERROR|FAIL|UNEXPECTED SUCCESS): (\w+) \(([\w.]+)\)`)
	frameLine  = regexp.MustCompile(`^\s*File "([^"]+)", line (\d+)(?:, in (.+))?$`)
	excName    = regexp.MustCompile(`^[A-Za-z_][\w.]*$`)
	caretsOnly = regexp.MustCompile(`^[\s~^]+$`)
)

// readUnittest fills r from python3 -m unittest -v output.
func readUnittest(r *testRun) {
	p := testrun.Parse(r.output)
	for _, c := range p.Cases {
		method, qualified := splitCase(c.Name)
		if strings.HasPrefix(qualified, testrun.FailedTestLoader) {
			continue
		}
		o := r.tests[method]
		if o == nil {
			o = &outcome{module: firstPart(qualified)}
			r.tests[method] = o
		}
		o.failed = o.failed || c.Outcome == testrun.Fail || c.Outcome == testrun.Error || c.Outcome == testrun.UnexpectedSuccess
	}
	lines := strings.Split(r.output, "\n")
	for i := 0; i < len(lines); i++ {
		m := blockHead.FindStringSubmatch(lines[i])
		if m == nil || i == 0 || !strings.HasPrefix(lines[i-1], "=====") {
			continue
		}
		end := i + 1
		for end < len(lines) && !strings.HasPrefix(lines[end], "=====") && !isRule(lines, end) {
			end++
		}
		body := lines[i+1 : end]
		if len(body) > 0 && strings.HasPrefix(body[0], "-----") {
			body = body[1:]
		}
		f := readTraceback(body)
		if strings.HasPrefix(m[3], testrun.FailedTestLoader) {
			r.load = f
		} else if o := r.tests[m[2]]; o != nil && o.fail == nil {
			o.fail = f
		}
		i = end - 1
	}
	if p.LoadError && r.load == nil && len(r.tests) == 0 {
		r.load = readTraceback(lines) // unittest crashed before any test
	}
}

// isRule reports whether lines[i] is the dashed line that ends the last
// failure block (the one before "Ran N tests").
func isRule(lines []string, i int) bool {
	if !strings.HasPrefix(lines[i], "-----") {
		return false
	}
	for _, l := range lines[i+1:] {
		if strings.TrimSpace(l) != "" {
			return strings.HasPrefix(l, "Ran ")
		}
	}
	return true
}

// readTraceback reads a Python traceback: its frames and the exception
// line that follows the last of them (a load error's body starts with an
// exception line of its own, before the traceback).
func readTraceback(lines []string) *failure {
	f := &failure{}
	after := 0 // where the exception line may start: past the last frame
	for i := 0; i < len(lines); i++ {
		m := frameLine.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[2])
		fr := frame{file: relPath(m[1]), line: n, fn: m[3]}
		after = i + 1
		if i+1 < len(lines) && indented(lines[i+1]) && !frameLine.MatchString(lines[i+1]) {
			fr.code = strings.TrimSpace(lines[i+1])
			after = i + 2
			for after < len(lines) && caretsOnly.MatchString(lines[after]) && strings.TrimSpace(lines[after]) != "" {
				after++
			}
		}
		f.frames = append(f.frames, fr)
	}
	for i := after; i < len(lines); i++ {
		l := lines[i]
		if strings.TrimSpace(l) == "" || indented(l) || skipLine(l) {
			continue
		}
		f.text = l
		f.message = strings.TrimSpace(strings.Join(lines[i:], "\n"))
		if name, _, ok := strings.Cut(l, ":"); ok && excName.MatchString(name) {
			f.kind = name
		} else if excName.MatchString(l) {
			f.kind = l
		}
		break
	}
	return f
}

// skipLine reports the lines of a traceback that are neither frames nor
// the exception.
func skipLine(l string) bool {
	return strings.HasPrefix(l, "Traceback (most recent call last)") ||
		strings.HasPrefix(l, "During handling of the above exception") ||
		strings.HasPrefix(l, "The above exception was the direct cause")
}

func indented(l string) bool { return strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t") }

// splitCase splits "test_x (mod.Class.test_x)" into its method and qualified name.
func splitCase(name string) (method, qualified string) {
	method, rest, _ := strings.Cut(name, " ")
	return method, strings.Trim(rest, "()")
}

func firstPart(qualified string) string {
	first, _, _ := strings.Cut(qualified, ".")
	return first
}

// relPath turns a path of the normalised output ("./money.py", the
// workspace being ".") into one relative to the workspace; any other path
// (the standard library's) is left as it is.
func relPath(p string) string {
	if rest, ok := strings.CutPrefix(p, "./"); ok {
		return rest
	}
	return p
}

// go test output, the text inside its JSON events.
var (
	goRun      = regexp.MustCompile(`^=== (?:RUN|CONT)\s+(\S+)`)
	goResult   = regexp.MustCompile(`^\s*--- (PASS|FAIL|SKIP): (\S+)`)
	goMessage  = regexp.MustCompile(`^\s+([\w./-]+\.go):(\d+): (.*)$`)
	goBuildErr = regexp.MustCompile(`^([\w./-]+\.go):(\d+):(\d+): (.*)$`)
	goTrace    = regexp.MustCompile(`^\t(\S+\.go):(\d+)`)
)

// readGo fills r from the text of go test -json output: a message line
// "    x_test.go:12: want 3" belongs to the test running, "--- FAIL: TestX"
// ends it, a compile error makes the build fail and a panic ends the
// binary (the tests after it never run).
func readGo(r *testRun) {
	lines := strings.Split(r.output, "\n")
	current := ""
	for i, l := range lines {
		if m := goRun.FindStringSubmatch(l); m != nil {
			current = topLevel(m[1])
		} else if m := goResult.FindStringSubmatch(l); m != nil {
			r.goResult(m[1], m[2], l)
		} else if strings.HasPrefix(l, "panic: ") {
			r.goPanic(current, lines[i:])
			return
		} else if m := goMessage.FindStringSubmatch(l); m != nil && current != "" {
			r.goMessage(current, m)
		} else if m := goBuildErr.FindStringSubmatch(l); m != nil {
			r.goBuildError(m)
		}
	}
}

// goResult notes a "--- PASS/FAIL/SKIP: TestX" line of a top-level test.
func (r *testRun) goResult(verdict, name, line string) {
	if strings.Contains(name, "/") {
		return // a subtest: its parent's outcome covers it
	}
	o := r.goTest(name)
	o.failed = verdict == "FAIL"
	if o.failed && o.fail == nil {
		text := strings.TrimSpace(line)
		o.fail = &failure{kind: "fail", text: text, message: text}
	}
}

// goMessage notes the first message line of a failing test, m being a
// goMessage match: where it was written and what it says.
func (r *testRun) goMessage(test string, m []string) {
	o := r.goTest(test)
	if o.fail != nil {
		return
	}
	n, _ := strconv.Atoi(m[2])
	file := relPath(m[1])
	o.fail = &failure{kind: "fail", text: file + ":" + m[2] + ": " + m[3], message: m[3], frames: []frame{{file: file, line: n}}}
}

// goPanic notes a panic: it fails the test running and ends the binary.
func (r *testRun) goPanic(test string, lines []string) {
	p := readPanic(lines)
	r.load = p
	if test != "" {
		o := r.goTest(test)
		o.failed, o.fail = true, p
	}
}

// goBuildError notes one compile error, m being a goBuildErr match: the
// first makes the build failure, each adds its place.
func (r *testRun) goBuildError(m []string) {
	n, _ := strconv.Atoi(m[2])
	text := relPath(m[0])
	if r.load == nil {
		r.load = &failure{kind: "build", text: text}
	}
	r.load.frames = append(r.load.frames, frame{file: relPath(m[1]), line: n})
	r.load.message += text + "\n"
}

// goTest returns the outcome of a Go test, made when new.
func (r *testRun) goTest(name string) *outcome {
	o := r.tests[name]
	if o == nil {
		o = &outcome{}
		r.tests[name] = o
	}
	return o
}

// readPanic reads a panic and the goroutine trace after it: the frames of
// the workspace's files, innermost last, each with the function named on
// the line above it.
func readPanic(lines []string) *failure {
	text, _, _ := strings.Cut(lines[0], " [recovered")
	f := &failure{kind: "panic", text: text, message: text}
	var frames []frame
	for i := 1; i < len(lines); i++ {
		m := goTrace.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		file := relPath(m[1])
		if strings.HasPrefix(file, "/") {
			continue // the runtime's and the testing package's own frames
		}
		n, _ := strconv.Atoi(m[2])
		fn, _, _ := strings.Cut(strings.TrimSpace(lines[i-1]), "(0x")
		frames = append(frames, frame{file: file, line: n, fn: strings.TrimSuffix(fn, "(...)")})
	}
	for i := len(frames) - 1; i >= 0; i-- { // the trace lists the innermost first
		f.frames = append(f.frames, frames[i])
	}
	return f
}

// topLevel is the top-level test of a test or subtest name.
func topLevel(name string) string {
	top, _, _ := strings.Cut(name, "/")
	return top
}
