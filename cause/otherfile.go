package cause

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"bench/tasks"
)

// needsOtherFile: the fix needed a file of the repository that is neither
// the task's source nor a test file, and that the episode never wrote.
// The evidence, strongest first: a failing test's failure is raised in
// that file (its innermost traceback or panic frame, a compile error);
// the failing test's module imports it but not the source; a passing
// episode of the task (a Witness) wrote it.
func (d *deriver) needsOtherFile() []Cause {
	others := d.otherFiles()
	if len(others) == 0 {
		return nil
	}
	run := d.final
	if run == nil {
		run = d.base
	}
	file, ev, tests := d.raisedInOther(run, others)
	if file == "" {
		file, ev, tests = d.testedOther(run, others)
	}
	witness, wfile := d.witnessOf(others, file)
	switch {
	case file == "" && witness == "":
		return nil
	case file == "":
		file, ev = wfile, witness
	case witness != "":
		ev += "; " + witness
	}
	d.claim(tests)
	return []Cause{{Name: NeedsOtherFile, Evidence: ev, Tests: tests, File: file}}
}

// otherFiles are the task's files that are neither its source nor its
// tests, and that the episode did not write.
func (d *deriver) otherFiles() map[string]bool {
	t := d.in.Task
	out := map[string]bool{}
	for p := range t.Files {
		if p != path.Clean(t.Source) && !slices.Contains(t.TestFiles, p) && !d.rp.wrote(p) && !strings.HasPrefix(path.Base(p), ".") {
			out[p] = true
		}
	}
	return out
}

// raisedInOther finds the failing tests whose failure in run is raised in
// one of the other files: the first such file, the evidence, the tests.
func (d *deriver) raisedInOther(run *testRun, others map[string]bool) (string, string, []string) {
	file, ev := "", ""
	var tests []string
	for _, t := range d.unclaimed() {
		st, f := run.lookup(t)
		if (st != failed && st != notRun) || f == nil {
			continue
		}
		for _, fr := range d.placesOf(f) {
			if !others[fr.file] || (file != "" && fr.file != file) {
				continue
			}
			if file == "" {
				file = fr.file
				ev = fmt.Sprintf("%s is raised in %s, a file the episode never changed: %s", t, where(fr), quote(f))
				if f.kind == "build" {
					ev = fmt.Sprintf("the package does not build because of %s, a file the episode never changed: %s", fr.file, quote(f))
				}
			}
			tests = append(tests, t)
			break
		}
	}
	return file, ev, tests
}

// placesOf are the frames of a failure that say where it comes from: a
// compile error's every position, else the innermost frame in the
// workspace.
func (d *deriver) placesOf(f *failure) []frame {
	if f.kind == "build" {
		return f.frames
	}
	return []frame{d.innermost(f)}
}

// where names a frame: "money.py:5 (to_cents)".
func where(fr frame) string {
	s := fmt.Sprintf("%s:%d", fr.file, fr.line)
	if fr.fn != "" && fr.fn != "<module>" {
		s += " (" + fr.fn + ")"
	}
	return s
}

// testedOther finds the failing Python tests whose test module imports
// modules of the repository but not the task's source, one of them an
// other file: that file, the evidence, the tests.
func (d *deriver) testedOther(run *testRun, others map[string]bool) (string, string, []string) {
	t := d.in.Task
	if t.Framework == tasks.FrameworkGo || run == nil {
		return "", "", nil
	}
	source := pyModule(path.Clean(t.Source))
	file, ev := "", ""
	var tests []string
	for _, name := range d.unclaimed() {
		o := run.tests[name]
		if o == nil || o.module == "" {
			continue
		}
		testFile := strings.ReplaceAll(o.module, ".", "/") + ".py"
		imported := d.repoModules(t.Files[testFile])
		if len(imported) == 0 || slices.Contains(imported, source) {
			continue
		}
		for _, m := range imported {
			p := strings.ReplaceAll(m, ".", "/") + ".py"
			if !others[p] || (file != "" && p != file) {
				continue
			}
			if file == "" {
				file = p
				ev = fmt.Sprintf("%s (%s) tests %s, not %s, and the episode never changed %s", name, testFile, p, path.Clean(t.Source), p)
			}
			tests = append(tests, name)
			break
		}
	}
	return file, ev, tests
}

// repoModules returns the modules of the repository a Python file imports.
func (d *deriver) repoModules(src string) []string {
	var out []string
	for _, m := range pyImports(src) {
		if _, ok := d.in.Task.Files[strings.ReplaceAll(m, ".", "/")+".py"]; ok {
			out = append(out, m)
		}
	}
	return out
}

// witnessOf finds a witness that wrote one of the other files (want, when
// given): the evidence and the file.
func (d *deriver) witnessOf(others map[string]bool, want string) (string, string) {
	for _, w := range d.in.Witnesses {
		for _, p := range w.Wrote {
			p = path.Clean(p)
			if others[p] && (want == "" || p == want) {
				return fmt.Sprintf("the passing %s episode %s wrote %s", w.Track, w.Episode, p), p
			}
		}
	}
	return "", ""
}
