package suggest

import "testing"

func TestNearest(t *testing.T) {
	tracks := []string{"workflow", "workflow-retry", "agent", "oracle"}
	flags := []string{"task", "tasks", "track", "tracks", "seed", "seeds", "format", "out"}
	commands := []string{"run", "report", "compare", "check", "show", "predict", "replay", "doctor", "detect", "tasks", "version"}
	for _, tc := range []struct {
		word  string
		cands []string
		want  string
	}{
		{"agnet", tracks, "agent"},
		{"workflw", tracks, "workflow"},
		{"Oracle", tracks, "oracle"},
		{"workflow-re", tracks, "workflow-retry"},
		{"nope", tracks, ""},
		{"nope", []string{"model", "note", "host"}, "note"},
		{"nope", []string{"model", "host", "mode"}, ""},
		{"trakcs", flags, "tracks"},
		{"fromat", flags, "format"},
		{"tsk", flags, "task"},
		{"zzzzzz", flags, ""},
		{"", flags, ""},
		{"rpt", commands, "report"}, // an abbreviation: the first letter, then letters in order
		{"cmp", commands, "compare"},
		{"shw", commands, "show"},
		{"rtp", commands, ""}, // out of order
		{"xrpt", commands, ""},
	} {
		if got := Nearest(tc.word, tc.cands); got != tc.want {
			t.Errorf("Nearest(%q) = %q, want %q", tc.word, got, tc.want)
		}
	}
}

func TestDidYouMean(t *testing.T) {
	if got := DidYouMean("trakcs", []string{"tasks", "tracks"}, "--"); got != " (did you mean --tracks?)" {
		t.Errorf("got %q", got)
	}
	if got := DidYouMean("xyzzy", []string{"tasks", "tracks"}, "--"); got != "" {
		t.Errorf("got %q", got)
	}
}
