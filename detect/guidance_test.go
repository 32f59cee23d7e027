package detect

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestGuidance(t *testing.T) {
	if n := utf8.RuneCountInString(Guidance); n < 2400 || n > 2800 {
		t.Errorf("the guidance has %d characters; it should stay about 2,600 like the lesson's", n)
	}
	// The five duties the guidance must carry, and the agent track's tools.
	for _, w := range []string{"read_file", "list_files", "edit_file", "write_file", "run_tests",
		"Understand before you change", "Change files through the tools", "Stay inside the task",
		"Check your work before you stop", "Respect the repository"} {
		if !strings.Contains(Guidance, w) {
			t.Errorf("the guidance does not mention %q", w)
		}
	}
}
