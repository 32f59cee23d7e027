package report

import (
	"os/exec"
	"strings"
	"testing"
)

// reportMayImport are the packages of this module the report and its views
// may depend on: the results format, the track facts, the lesson's
// questions, the internal helpers and themselves.
var reportMayImport = []string{"bench/record", "bench/trackfacts", "bench/lesson", "bench/internal/", "bench/report"}

// executionModules are modules only the code that runs episodes needs: the
// sandbox, the model clients, the token counter, the task loader, the CLI.
var executionModules = []string{
	"github.com/landlock-lsm/", "github.com/ollama/", "github.com/openai/", "github.com/pkoukk/",
	"github.com/urfave/", "github.com/otiai10/", "github.com/chromedp/", "github.com/BurntSushi/", "kernel.org/",
}

// TestReportImportsNoExecutionPackage: the report and every view under it
// build from the results format alone (go list -deps), so that reading a
// run never pulls in the runner, the model clients, the sandbox or grading.
func TestReportImportsNoExecutionPackage(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", "bench/report/...").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		switch {
		case strings.HasPrefix(pkg, "bench/") || pkg == "bench":
			if !hasAnyPrefix(pkg, reportMayImport) {
				t.Errorf("the report depends on %s, which executes episodes or is none of its business", pkg)
			}
		case hasAnyPrefix(pkg, executionModules):
			t.Errorf("the report depends on %s, a module of the code that runs episodes", pkg)
		}
	}
}

// hasAnyPrefix reports whether s starts with one of prefixes.
func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}
