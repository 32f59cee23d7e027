// Package taskcheck verifies tasks as bench tasks verify does: the oracle
// checks of package verify (each original fails, each partial fix fails as
// expected, each solution passes, the folders stay unchanged) and the check
// that the task's text is written, printed as one table and a verdict.
package taskcheck

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"bench/internal/cliexit"
	"bench/internal/table"
	"bench/tasks"
	"bench/verify"
)

// Verify checks each of selected in turn, stopping after the task under
// way when ctx is cancelled, and writes the table of every check to w,
// then the verdict: the error it returns names the tasks that failed
// (exit 1), or says the check was interrupted (exit 130).
func Verify(ctx context.Context, w io.Writer, selected []tasks.Task) error {
	var failed []string
	var rows [][]string
	for _, t := range selected {
		v := verify.Task(ctx, t)
		v.Checks = append(v.Checks, DesignCheck(t))
		for _, ch := range v.Checks {
			result := "ok"
			if !ch.OK {
				result = "FAIL"
			}
			rows = append(rows, []string{t.Name, ch.Name, result, ch.Detail})
		}
		if !v.OK() {
			failed = append(failed, describeFailure(v))
		}
		if ctx.Err() != nil {
			break
		}
	}
	if err := table.Write(w, table.Text, []string{"task", "check", "result", "detail"}, rows); err != nil {
		return err
	}
	switch {
	case ctx.Err() != nil:
		return cli.Exit("tasks verify: interrupted", cliexit.Interrupted)
	case len(failed) > 0:
		return cli.Exit(fmt.Sprintf("tasks verify: %d of %d tasks failed: %s", len(failed), len(selected), strings.Join(failed, "; ")), cliexit.Failure)
	case len(selected) == 1:
		_, err := fmt.Fprintf(w, "task %s verified\n", selected[0].Name)
		return err
	}
	_, err := fmt.Fprintf(w, "all %d tasks verified\n", len(selected))
	return err
}

// DesignCheck is the check that the task's text is written: no field
// still holds a placeholder of bench tasks new.
func DesignCheck(t tasks.Task) verify.Check {
	ph := t.Placeholders()
	if len(ph) == 0 {
		return verify.Check{Name: "text written", OK: true, Detail: "title and instruction hold no TODO"}
	}
	return verify.Check{Name: "text written", Detail: fmt.Sprintf("%s still %s TODO in task.toml: say what is broken", strings.Join(ph, " and "), map[bool]string{true: "begins with", false: "begin with"}[len(ph) == 1])}
}

// describeFailure names a failed task and its failed checks.
func describeFailure(v verify.Verification) string {
	var bad []string
	for _, ch := range v.Checks {
		if !ch.OK {
			bad = append(bad, ch.Name)
		}
	}
	return fmt.Sprintf("%s (%s)", v.Task, strings.Join(bad, ", "))
}
