package cause

import (
	"slices"
	"sort"

	"bench/record"
)

// Cause is one reason an episode failed, with one line of evidence: the
// type episodes.jsonl records (record.Cause).
type Cause = record.Cause

// Derive returns the causes of a failed episode, most specific first (the
// order of record.CauseVocabulary, except that a cut reply the track wrote
// comes first: it explains what follows from it). It reads only its input:
// no model is called and no file is read.
//
// A passed episode has no cause, and neither has one that says nothing
// about the model: interrupted, or ended by an error (the
// infrastructure's, bench's, or a refused request). Derive may return
// none when the trajectory holds no evidence of any rule (an agent that
// never ran the tests, wrote, and stopped, with neither grading output
// nor a Baseline given).
func Derive(in Input) []Cause {
	if !explainable(in.Episode) {
		return nil
	}
	d := newDeriver(in)
	var out []Cause
	for _, rule := range rules {
		out = append(out, rule(d)...)
	}
	Sort(out)
	return out
}

// Sort puts causes in Derive's order: the order of record.CauseVocabulary,
// except that a cut_reply naming the file its reply was written to comes
// first. Causes of one name keep their order.
func Sort(cs []Cause) {
	sort.SliceStable(cs, func(i, j int) bool { return order(cs[i]) < order(cs[j]) })
}

// explainable reports whether an episode failed in a way its causes can
// explain: it did not pass, and neither an interrupt nor an error ended it.
func explainable(ep record.Episode) bool {
	return !ep.Passed && ep.ExitReason != record.ExitInterrupted && ep.ExitReason != record.ExitError
}

// order is where a cause goes in Derive's answer.
func order(c Cause) int {
	if c.Name == CutReply && c.File != "" {
		return -1 // the cut reply was written: it explains what follows
	}
	return c.Name.Rank()
}

// rules run in this order: a rule that explains a failing test claims
// it, and the rules after it leave a claimed test alone (a test that fails
// with a NameError because the fallback lost an import is lost_content's,
// not broke_tests').
var rules = []func(*deriver) []Cause{
	(*deriver).lostContent,
	(*deriver).cutReply,
	(*deriver).malformedReply,
	(*deriver).needsOtherFile,
	(*deriver).noChange,
	(*deriver).compareRuns,
	(*deriver).toolErrors,
	(*deriver).timeout,
	(*deriver).budget,
}

// deriver holds what the rules share about one episode.
type deriver struct {
	in      Input
	rp      *replay
	base    *testRun // the tests on the original files; nil when unknown
	final   *testRun // the tests after the last write (grading's when given); nil when unknown
	failing []string // the tests that failed at grading, sorted
	claimed map[string]bool
	agent   bool // the track offered tools
	same    bool // the writes left every file as it was
}

// newDeriver reads the input's runs and writes.
func newDeriver(in Input) *deriver {
	d := &deriver{in: in, claimed: map[string]bool{}}
	d.rp = replayWrites(in.Events, in.Task.Files)
	d.same = d.rp.unchanged(in.Task.Files)
	fw := in.Task.Framework
	if out, ok := Baseline(in.Events); ok {
		d.base = readRun(out, fw)
	} else if in.Baseline != "" {
		d.base = readRun(in.Baseline, fw)
	}
	if in.Grading != nil {
		d.final = readRun(in.Grading.Output, fw)
	} else if out, ok := d.lastRun(); ok {
		d.final = readRun(out, fw)
	}
	for _, ev := range in.Events {
		if ev.Kind == record.EventRequest && len(ev.Tools) > 0 {
			d.agent = true
		}
	}
	d.failing = slices.Sorted(slices.Values(in.Episode.FailedTests))
	if len(d.failing) == 0 && d.final != nil {
		for name, o := range d.final.tests {
			if o.failed {
				d.failing = append(d.failing, name)
			}
		}
		slices.Sort(d.failing)
	}
	return d
}

// lastRun is the output of the last test run after the last write (of
// the last run at all, when nothing was written).
func (d *deriver) lastRun() (string, bool) {
	for i := len(d.in.Events) - 1; i > d.rp.lastAt; i-- {
		if ev := d.in.Events[i]; ev.Kind == record.EventTestRun && ev.Error == "" {
			return ev.Output, true
		}
	}
	return "", false
}

// claim marks tests as explained.
func (d *deriver) claim(tests []string) {
	for _, t := range tests {
		d.claimed[t] = true
	}
}

// unclaimed returns the failing tests no rule has explained yet.
func (d *deriver) unclaimed() []string {
	var out []string
	for _, t := range d.failing {
		if !d.claimed[t] {
			out = append(out, t)
		}
	}
	return out
}

// finalFailure is test's failure at the end, when the output shows it.
func (d *deriver) finalFailure(test string) *failure {
	st, f := d.final.lookup(test)
	if st == failed || st == notRun {
		return f
	}
	return nil
}
