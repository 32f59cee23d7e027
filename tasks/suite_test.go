package tasks

import (
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"testing"
)

// TestSuiteDesign checks the suite against issue 12: at least 16 tasks, 4 in
// Go, 3 controls, each question answered "no" by at least two tasks, and a
// partial/ for every task that is not a control.
func TestSuiteDesign(t *testing.T) {
	all, err := Load(Suite())
	if err != nil {
		t.Fatal(err)
	}
	var goTasks, controls, partials int
	var no [3]int
	for _, tk := range all {
		if tk.Framework == FrameworkGo {
			goTasks++
		}
		if tk.Control() {
			controls++
		} else if tk.PartialExpect == "" {
			t.Errorf("%s (%s) is not a control but has no partial/", tk.Name, tk.Answers)
		}
		if tk.PartialExpect != "" {
			partials++
		}
		for i, yes := range tk.Answers.List() {
			if !yes {
				no[i]++
			}
		}
	}
	if len(all) < 16 || goTasks < 4 || controls < 3 || partials < 8 {
		t.Errorf("%d tasks (want 16+), %d in Go (4+), %d controls (3+), %d with partial/ (8+)", len(all), goTasks, controls, partials)
	}
	for i, n := range no {
		if n < 2 {
			t.Errorf("question %d is answered no by %d tasks, want at least 2", i+1, n)
		}
	}
	course, err := Load(Embedded())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range course {
		if !slices.ContainsFunc(all, func(s Task) bool { return s.Name == c.Name }) {
			t.Errorf("course task %s is missing from the suite", c.Name)
		}
	}
}

// TestGoTasksHiddenFromBench checks that no Go task folder on disk holds a
// go.mod or a .go file under its real name: bench's own "go vet ./..." would
// compile the broken code, and go:embed would leave out a folder with go.mod.
func TestGoTasksHiddenFromBench(t *testing.T) {
	err := fs.WalkDir(os.DirFS("."), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.Contains(p, "/") {
			return err
		}
		if goEligible(d.Name()) && !strings.HasPrefix(d.Name(), "_") {
			t.Errorf("%s: store it as %s", p, path.Join(path.Dir(p), "_"+d.Name()))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
