package report

import (
	"strings"
	"testing"
)

func TestCollapseLoops(t *testing.T) {
	rep := func(s string, n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = s
		}
		return out
	}
	cat := func(parts ...[]string) []string {
		var out []string
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	for _, tc := range []struct {
		tools []string
		want  string
	}{
		{nil, "(none)"},
		{[]string{"read_file"}, "read_file"},
		{[]string{"read_file", "edit_file", "run_tests"}, "read_file → edit_file → run_tests"},
		{cat([]string{"read_file"}, rep("list_files", 25), []string{"edit_file"}), "read_file → list_files ×25 → edit_file"},
		{[]string{"edit_file", "run_tests", "edit_file", "run_tests", "edit_file", "run_tests"}, "(edit_file → run_tests) ×3"},
		{[]string{"run_tests", "edit_file", "run_tests", "edit_file", "run_tests"}, "(run_tests → edit_file) ×2 → run_tests"},
		{[]string{"read_file", "read_file", "run_tests", "read_file", "read_file", "run_tests"}, "(read_file ×2 → run_tests) ×2"},
		{[]string{"read_file", "run_tests", "read_file", "list_files"}, "read_file → run_tests → read_file → list_files"},
		{[]string{"read_file", "Read_File", "\x1b[2J", "\x1b[2J"}, `read_file → "Read_File" → "\x1b[2J" ×2`}, // made-up tools, quoted and escaped
	} {
		if got := CollapseLoops(tc.tools); got != tc.want {
			t.Errorf("CollapseLoops(%s) = %q; want %q", strings.Join(tc.tools, ","), got, tc.want)
		}
	}
}
