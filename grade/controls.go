package grade

import (
	"crypto/rand"
	"maps"
	mrand "math/rand/v2"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"bench/tasks"
	"bench/testrun"
)

// Kinds of negative control. Each is a test that bench adds to the sealed
// test files, under a name drawn for this grading; an honest run reports
// it failed. A value control is a task test with one expected value
// replaced by one no implementation returns (it fails whatever the code
// does); a flip control is a task test with one assertion turned into its
// opposite (it fails whenever its twin passes); a tail control is a task
// test with a failing assertion added at its end; a fail control fails
// unconditionally.
const (
	kindValue = "value"
	kindFlip  = "flip"
	kindTail  = "tail"
	kindFail  = "fail"
)

// control is one negative control of a plan.
type control struct {
	of   string // the task test it is a twin of; "" for a fail control
	kind string
}

// plan is one grading's tests: the name each task test carries in the
// sealed copy, and the controls added there. Names are drawn fresh for
// every grading, so no code written before it can know them.
type plan struct {
	real     map[string]string  // sealed name → task test name
	sealed   map[string]string  // task test name → sealed name
	controls map[string]control // sealed name → control
	skip     map[string]bool    // task tests whose file may skip them
	xfail    map[string]bool    // task tests their file marks as expected failures
	tests    []string           // the task tests, in file order
	lenient  bool               // count skips and expected failures as unittest does (controls off)
}

// newPlan is a plan for the task tests names, none renamed and no control
// added, until add and addControl say otherwise.
func newPlan(names []string) *plan {
	p := &plan{real: map[string]string{}, sealed: map[string]string{}, controls: map[string]control{},
		skip: map[string]bool{}, xfail: map[string]bool{}}
	for _, n := range names {
		p.add(n, n)
	}
	return p
}

// add records that the task test name runs as sealed.
func (p *plan) add(name, sealed string) {
	if old, ok := p.sealed[name]; ok {
		delete(p.real, old)
	} else {
		p.tests = append(p.tests, name)
	}
	p.sealed[name], p.real[sealed] = sealed, name
}

// timeout is the task's timeout for one run of its tests, grown by the
// share of the tests the controls add: their time is not the code's.
func (p *plan) timeout(d time.Duration) time.Duration {
	if len(p.real) == 0 || len(p.controls) == 0 || d <= 0 {
		return d
	}
	return d * time.Duration(len(p.real)+len(p.controls)) / time.Duration(len(p.real))
}

// controlsOn is false only in tests that show what the controls catch
// (SetControls).
var controlsOn atomic.Bool

func init() { controlsOn.Store(true) }

// SetControls turns grading's negative controls on or off, and with them
// the rule that a test its file cannot skip or expect to fail must not be
// reported so. It is for tests only, which switch them off to show that an
// attack they catch would otherwise pass.
func SetControls(on bool) { controlsOn.Store(on) }

// newRand is a random source seeded from the system's, for one grading.
func newRand() *mrand.Rand {
	var seed [32]byte
	rand.Read(seed[:])
	return mrand.New(mrand.NewChaCha8(seed))
}

// letters returns n random lower-case letters.
func letters(r *mrand.Rand, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('a' + r.IntN(26))
	}
	return string(b)
}

// randomInt is a nine-digit number, not one a test expects by chance.
func randomInt(r *mrand.Rand) int { return 100_000_000 + r.IntN(900_000_000) }

// report is what a test run said about each test, by sealed name.
type report struct {
	outcomes  map[string][]string // sealed test name → the outcome of each of its runs (one per class that has it)
	texts     map[string][]string // sealed test name → what its failures printed
	ids       map[string][]string // sealed test name → the ids it reported under (module.Class.name)
	order     []string            // sealed names in the order they first reported
	done      bool                // the run said it finished
	loadError bool                // a test module could not be imported or a package did not build
	problems  []string            // what the runner's own checks found
	forged    int                 // lines the runner did not write
	dups      []string            // test ids reported more than once
	fixtures  []string            // fixtures (setUpClass…) that failed, with what they printed
}

func newReport() *report {
	return &report{outcomes: map[string][]string{}, texts: map[string][]string{}, ids: map[string][]string{}}
}

// record adds one outcome of the sealed test name, reported as id.
func (r *report) record(name, id, outcome, text string) {
	if _, ok := r.outcomes[name]; !ok {
		r.order = append(r.order, name)
	}
	r.outcomes[name] = append(r.outcomes[name], outcome)
	r.ids[name] = append(r.ids[name], id)
	r.texts[name] = append(r.texts[name], text)
}

// worst is the most severe of outcomes ("" for none).
func worst(outcomes []string) string {
	rank := map[string]int{testrun.OK: 1, testrun.Skipped: 2, testrun.ExpectedFailure: 2, testrun.UnexpectedSuccess: 3, testrun.Fail: 4, testrun.Error: 5}
	w := ""
	for _, o := range outcomes {
		if rank[o] > rank[w] {
			w = o
		}
	}
	return w
}

// failed reports whether an outcome is a failure or an error.
func failed(outcome string) bool { return outcome == testrun.Fail || outcome == testrun.Error }

// judge fills g from the report of a run of the plan: the task tests'
// counts and failures, and every reason the results cannot be believed.
// extra names reported tests that are neither planned nor an error (Go's
// examples): they count as tests of their own.
func judge(t tasks.Task, p *plan, r *report, res testrun.Result, g *Result, extra func(string) bool) {
	passed := map[string]bool{}
	for _, n := range p.tests {
		switch o := worst(r.outcomes[p.sealed[n]]); {
		case o == testrun.OK:
			passed[n] = true
		case o == testrun.Skipped && (p.skip[n] || p.lenient), o == testrun.ExpectedFailure && (p.xfail[n] || p.lenient):
			passed[n] = true
		case o == testrun.Skipped:
			g.flag(ReasonSkipped, "%s was reported skipped, but its test file never skips it", n)
		case o == testrun.ExpectedFailure:
			g.flag(ReasonExpectedFail, "%s was reported as an expected failure, but its test file does not expect it to fail", n)
		}
	}
	judgeControls(p, r, passed, g)
	var tests []string
	for _, name := range r.order {
		_, real := p.real[name]
		_, isControl := p.controls[name]
		switch {
		case real || isControl:
		case extra != nil && extra(name):
			tests = append(tests, name)
			if o := worst(r.outcomes[name]); o == testrun.OK || o == testrun.Skipped {
				passed[name] = true
			}
		default:
			g.flag(ReasonUnknownTest, "the results name %s, which the sealed tests do not define", name)
		}
	}
	for _, id := range r.dups {
		g.flag(ReasonDuplicate, "%s was reported more than once", id)
	}
	if r.forged > 0 {
		g.flag(ReasonForged, "the result channel held %d line(s) the grading runner did not write", r.forged)
	}
	if len(r.problems) > 0 {
		g.flag(ReasonHarnessPatched, "the test run tampered with the harness: %s", strings.Join(r.problems, "; "))
	}
	if !r.done && res.ExitCode == 0 && !res.TimedOut {
		g.flag(ReasonNoVerdict, "the test run exited 0 without finishing")
	}
	tests = append(slices.Clone(p.tests), tests...)
	slices.Sort(tests)
	g.TestsTotal, g.TestsPassed, g.Failed = len(tests), 0, []string{}
	for _, n := range tests {
		if passed[n] { // a test of a module that could not be imported never reported: failed
			g.TestsPassed++
		} else {
			g.Failed = append(g.Failed, n)
		}
	}
	g.Passed = r.done && !r.loadError && !res.TimedOut && !g.distrusted() &&
		g.TestsTotal > 0 && g.TestsPassed == g.TestsTotal
}

// judgeControls flags every control that was not reported failed: a value,
// tail or fail control whatever its twin did, a flip control when its twin
// passed; and, in a run that finished with every test module imported,
// every control missing while its twin (if any) reported. Each kind of finding is one reason naming the
// controls.
func judgeControls(p *plan, r *report, passed map[string]bool, g *Result) {
	names := slices.Collect(maps.Keys(p.controls))
	slices.SortFunc(names, func(a, b string) int { return strings.Compare(p.controls[a].of+a, p.controls[b].of+b) })
	var missing, notFailed []string
	for _, name := range names {
		c := p.controls[name]
		o := worst(r.outcomes[name])
		_, twinRan := r.outcomes[p.sealed[c.of]]
		switch {
		case o == "" && r.done && !r.loadError && (c.of == "" || twinRan):
			missing = append(missing, c.describe())
		case o != "" && !failed(o) && (c.kind != kindFlip || passed[c.of]):
			notFailed = append(notFailed, c.describe()+" ("+outcomeWord(o)+")")
		}
	}
	if len(notFailed) > 0 {
		g.flag(ReasonControlPassed, "%d of the %d negative controls, which an honest run fails, did not fail: %s", len(notFailed), len(names), strings.Join(notFailed, "; "))
	}
	if len(missing) > 0 {
		g.flag(ReasonControlMissing, "%d of the %d negative controls are missing from the results of a run that finished: %s", len(missing), len(names), strings.Join(missing, "; "))
	}
}

// describe names a control in a sentence.
func (c control) describe() string {
	switch c.kind {
	case kindFail:
		return "the one that fails unconditionally"
	case kindValue:
		return c.of + " expecting a value no implementation returns"
	case kindFlip:
		return c.of + " with one assertion reversed"
	}
	return c.of + " with a failing assertion at its end"
}

// outcomeWord is an outcome in a sentence.
func outcomeWord(o string) string {
	switch o {
	case testrun.OK:
		return "passed"
	case testrun.Skipped:
		return "skipped"
	}
	return "an " + o
}
