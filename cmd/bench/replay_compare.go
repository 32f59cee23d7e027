package main

import (
	"fmt"
	"io"

	"bench/record"
	"bench/report"
)

// replayCompareLine says, for bench compare OLD NEW where one folder is a
// replay of the other (its run.json's replay_of names the other's
// identity), how many of the recorded episodes replayed identically:
// "K of N replayed identically". It says nothing for two other runs, and
// what it cannot read is left to the comparison, which read both.
func replayCompareLine(w io.Writer, oldDir, newDir string) {
	for _, pair := range [][2]string{{oldDir, newDir}, {newDir, oldDir}} {
		rec, rep := pair[0], pair[1]
		fr, err := record.OpenFolder(rep)
		if err != nil || fr.Run.ReplayOf == nil {
			continue
		}
		fo, err := record.OpenFolder(rec)
		if err != nil || fo.UID != fr.Run.ReplayOf.UID {
			continue
		}
		data, err := record.Read(rep)
		if err != nil {
			continue
		}
		s := report.SummarizeReplay(*fr.Run.ReplayOf, data.Episodes)
		fmt.Fprintf(w, "%s is a replay of %s: %d of %d replayed identically (%d diverged, %d of them stopped; %d recorded episodes not replayed)\n",
			rep, rec, s.Identical, s.Episodes, s.Diverged, s.Stopped, s.Skipped)
		return
	}
}
