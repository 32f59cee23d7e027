package transcript

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"

	"bench/internal/table"
)

// WriteList writes the entries as a table (task, track, seed, repeat,
// status as the report counts it, tests, exit, trajectory), headed by
// what they are.
func WriteList(w io.Writer, title string, entries []Entry, format string) error {
	bw := bufio.NewWriter(w)
	s, err := newStyle(bw, format)
	if err != nil {
		return err
	}
	s.title(title)
	if format == table.Markdown {
		bw.WriteString("\n")
	}
	withModel := slices.ContainsFunc(entries, func(e Entry) bool { return e.Model != "" })
	withVariant := slices.ContainsFunc(entries, func(e Entry) bool { return e.Variant != "" })
	rows := make([][]string, len(entries))
	for i, e := range entries {
		status, tests, exit := "unfinished", "-", "unfinished"
		if ep := e.Episode; ep != nil {
			status, tests, exit = e.Verdict.Status.String(), fmt.Sprintf("%d/%d", ep.TestsPassed, ep.TestsTotal), string(ep.ExitReason)
		}
		traj := "yes"
		if e.Trajectory == "" {
			traj = "missing"
		}
		rows[i] = []string{e.Task, e.Track, strconv.Itoa(e.Seed), strconv.Itoa(e.Repeat), status, tests, exit, traj}
		if withVariant {
			rows[i] = slices.Insert(rows[i], 2, e.Variant)
		}
		if withModel {
			rows[i] = slices.Insert(rows[i], 2, e.Model)
		}
	}
	if err := s.flush(); err != nil {
		return err
	}
	header := []string{"task", "track", "seed", "repeat", "status", "tests", "exit", "trajectory"}
	if withVariant {
		header = slices.Insert(header, 2, "variant")
	}
	if withModel {
		header = slices.Insert(header, 2, "model")
	}
	return table.Write(w, format, header, rows)
}
