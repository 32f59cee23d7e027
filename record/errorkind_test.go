package record

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestErrorKindsAndExitReasonsAreSpelledApart checks that no error kind is
// spelled as an exit reason: "timeout" was both, the episode's limit and
// a model call's, until format 2.
func TestErrorKindsAndExitReasonsAreSpelledApart(t *testing.T) {
	exits := map[string]bool{}
	for _, e := range append(slices.Clone(ExitReasons), ExitDiverged) {
		exits[string(e)] = true
	}
	for _, k := range []ErrorKind{ErrorUnreachable, ErrorCallTimeout, ErrorServer, ErrorBadReply, ErrorRefused, ErrorFault,
		ErrorReplyTooLarge, ErrorRequestTooLarge, ErrorModel, ErrorHarness} {
		if exits[string(k)] {
			t.Errorf("error kind %q is spelled as an exit reason", k)
		}
	}
}

// TestFormatOneCallTimeoutReadsAsOne checks that a line of format 1, which
// spelled a model call's timeout "timeout", is read as ErrorCallTimeout
// (lost) by both readers, plain line or not, while a line of the current
// format that says "timeout" is an error kind this bench does not know
// (standing, as every unknown kind).
func TestFormatOneCallTimeoutReadsAsOne(t *testing.T) {
	timedOut := func(seed, format int, escaped bool) string {
		line := episodeLine(t, seed, func(e *Episode) {
			e.Format, e.Passed, e.ExitReason, e.ErrorKind = format, false, ExitError, "timeout"
		})
		if escaped { // a line the plain parser leaves to encoding/json
			line = strings.Replace(line, `"error_kind":"timeout"`, `"error_kind":"time\u006fut"`, 1)
		}
		return line
	}
	dir := writeLines(t, timedOut(1, 1, false), timedOut(2, 0, true), timedOut(3, FormatVersion, false))
	data, scanned, _, _ := readBothWays(t, dir)
	if len(data.Episodes) != 3 || len(scanned) != 3 {
		t.Fatalf("read %d episodes, scanned %d; want 3", len(data.Episodes), len(scanned))
	}
	for i, want := range []struct {
		kind   ErrorKind
		status Status
	}{{ErrorCallTimeout, StatusLost}, {ErrorCallTimeout, StatusLost}, {"timeout", StatusFailed}} {
		ep, l := data.Episodes[i], scanned[i]
		got := fmt.Sprintf("%s %s / %s %s", ep.ErrorKind, ep.Verdict().Status, l.ErrorKind, l.Verdict.Status)
		if w := fmt.Sprintf("%s %s / %s %s", want.kind, want.status, want.kind, want.status); got != w {
			t.Errorf("line %d (format %d): read as %s, want %s", i+1, ep.Format, got, w)
		}
	}
}
