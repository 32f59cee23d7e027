package output

import (
	"fmt"
	"io"
	"strings"

	"bench/internal/words"
	"bench/record"
	"bench/report"
	"bench/report/paired"
)

// CompareOptions are bench compare's settings: the test's level and
// effect, the gate (nil: no gate) and the format.
type CompareOptions struct {
	report.CompareOptions
	Gate   *paired.GateOptions
	Format string
}

// Incomparable is the error of two runs that cannot be compared (nothing
// in common, or settings compare refuses): a mistake in what was asked.
type Incomparable struct{ Err error }

func (e *Incomparable) Error() string { return e.Err.Error() }
func (e *Incomparable) Unwrap() error { return e.Err }

// Compare is bench compare: it compares the runs of the folders oldDir
// and newDir and writes the comparison to w in o.Format (CompareWriter),
// and to warn what was not compared, whether one run replays the other,
// and each reason of a regression the gate finds. It returns the gate's
// decision (nil without a gate); runs that cannot be compared are an
// *Incomparable.
func Compare(w, warn io.Writer, oldDir, newDir string, o CompareOptions) (*paired.Decision, error) {
	write, err := CompareWriter(o.Format)
	if err != nil {
		return nil, err
	}
	old, err := Read([]string{oldDir})
	if err != nil {
		return nil, err
	}
	new, err := Read([]string{newDir})
	if err != nil {
		return nil, err
	}
	cmp, err := report.CompareWith(old, new, o.CompareOptions)
	if err != nil {
		return nil, &Incomparable{fmt.Errorf("compare: %w", err)}
	}
	if len(cmp.Deltas) == 0 {
		return nil, &Incomparable{fmt.Errorf("no task and track appears in both %s and %s: nothing to compare (bench report lists what each holds)", oldDir, newDir)}
	}
	onlyOld, onlyNew := report.Unmatched(old, new)
	if len(onlyOld) > 0 {
		fmt.Fprintf(warn, "not compared, only in %s: %s\n", oldDir, strings.Join(onlyOld, ", "))
	}
	if len(onlyNew) > 0 {
		fmt.Fprintf(warn, "not compared, only in %s: %s\n", newDir, strings.Join(onlyNew, ", "))
	}
	replayLine(warn, oldDir, newDir)
	var decision *paired.Decision
	if o.Gate != nil {
		d := cmp.ApplyGate(*o.Gate)
		decision = &d
	}
	if err := write(w, cmp); err != nil {
		return nil, err
	}
	if decision != nil && decision.Regression {
		for _, r := range decision.Reasons {
			fmt.Fprintln(warn, "regression:", r.Text)
		}
	}
	return decision, nil
}

// Regressed is the sentence of a regression the gate found.
func Regressed(oldDir, newDir string, d paired.Decision) string {
	return fmt.Sprintf("compare: %s regressed against %s (%s)", newDir, oldDir, words.Plural(len(d.Reasons), "reason"))
}

// replayLine says, when one folder is a replay of the other (its
// run.json's replay_of names the other's identity), how many of the
// recorded episodes replayed identically. It says nothing for two other
// runs, and what it cannot read is left to the comparison, which read both.
func replayLine(w io.Writer, oldDir, newDir string) {
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
