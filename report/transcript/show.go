package transcript

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"bench/internal/inert"
	"bench/internal/suggest"
	"bench/internal/table"
	"bench/internal/words"
	"bench/record"
	"bench/trackfacts"
)

// Request is what `bench show` asks of a run folder: the episode Filter
// picks (a listing when it picks none or several), or, with Diff, the two
// twins of it whose repeats Diff names.
type Request struct {
	Filter Filter
	Format string // text, markdown or json (json only without Diff)
	Full   bool   // long texts whole
	Diff   *[2]int
	// Explain finds why a failed episode failed (package cause); nil
	// leaves the causes out.
	Explain func(record.Data, record.Episode) (causes []record.Cause, how record.CausesHow, why string)
}

// Show writes to w what req asks of the run folder data, and every warning
// (a skipped line of a file) to warn. A filter that picks no episode lists
// them all and is an error that names the nearest flag value the run has.
func Show(w, warn io.Writer, data record.Data, req Request) error {
	writeWarnings(warn, data.Warnings)
	entries, err := Entries(data)
	if err != nil {
		return fmt.Errorf("listing the trajectories of %s: %w", data.Dir, err)
	}
	Sort(entries)
	if req.Diff != nil {
		return showDiff(w, warn, data, entries, req)
	}
	picked := req.Filter.Select(entries)
	if len(picked) != 1 {
		if req.Format == table.JSON {
			return writeListJSON(w, data.Dir, entries, picked)
		}
		err := listToPick(w, data.Dir, entries, picked, req.Format, "bench show "+data.Dir)
		if err != nil && len(picked) == 0 {
			err = fmt.Errorf("%w%s", err, nearestFlag(req.Filter, entries))
		}
		return err
	}
	t, err := Load(data, picked[0])
	if err != nil {
		return err
	}
	writeWarnings(warn, t.Warnings)
	if ep := picked[0].Episode; ep != nil && req.Explain != nil {
		t.Causes, t.CausesHow, t.CausesWhy = req.Explain(data, *ep)
	}
	if req.Format == table.JSON {
		return writeEpisodeJSON(w, t)
	}
	if err := WriteTranscript(w, t, Options{Format: req.Format, Full: req.Full}); err != nil {
		return err
	}
	if path := keptWorkspace(t.Events); path != "" {
		_, err = fmt.Fprintf(w, "\nThe episode's workspace was kept at %s\n", inert.Line(path))
	}
	return err
}

// Sort orders entries as the report does: by task, then track in
// trackfacts' order, model, seed and repeat.
func Sort(entries []Entry) {
	slices.SortStableFunc(entries, func(a, b Entry) int {
		return cmp.Or(cmp.Compare(a.Task, b.Task), trackfacts.Compare(a.Track, b.Track),
			strings.Compare(a.Model, b.Model), strings.Compare(a.Variant, b.Variant), cmp.Compare(a.Seed, b.Seed), cmp.Compare(a.Repeat, b.Repeat))
	})
}

// nearestFlag names, for a --task, --track or --model that no episode
// has, the nearest one the run does have, as "; did you mean --task slugify?".
func nearestFlag(f Filter, entries []Entry) string {
	add := func(list []string, v string) []string {
		if v == "" || slices.Contains(list, v) {
			return list
		}
		return append(list, v)
	}
	var taskNames, trackNames, modelNames []string
	for _, e := range entries {
		taskNames, trackNames, modelNames = add(taskNames, e.Task), add(trackNames, e.Track), add(modelNames, e.Model)
	}
	for _, c := range []struct {
		flag, value string
		known       []string
	}{{"--task", f.Task, taskNames}, {"--track", f.Track, trackNames}, {"--model", f.Model, modelNames}} {
		if c.value == "" || slices.Contains(c.known, c.value) {
			continue
		}
		if n := suggest.Nearest(c.value, c.known); n != "" {
			return fmt.Sprintf("; did you mean %s %s?", c.flag, n)
		}
	}
	return ""
}

// keptWorkspace is the path the end event names when the run kept the
// episode's workspace (--keep-workspaces), or "".
func keptWorkspace(events []record.Event) string {
	for i := len(events) - 1; i >= 0; i-- {
		if events[i].Kind == record.EventEnd {
			return events[i].Path
		}
	}
	return ""
}

// showDiff writes the two twins of the episode req.Filter picks side by
// side, or, when the filter picks no single pair, lists the episodes.
func showDiff(w, warn io.Writer, data record.Data, entries []Entry, req Request) error {
	f := req.Filter
	var ts []Transcript
	for _, r := range req.Diff {
		g := f
		g.Repeat = &r
		picked := g.Select(entries)
		if len(picked) != 1 {
			f.Repeat = nil
			if err := listToPick(w, data.Dir, entries, f.Select(entries), req.Format, "bench show --diff "+data.Dir); err != nil {
				return err
			}
			if len(picked) == 0 {
				return noTwin(entries, r)
			}
			return fmt.Errorf("show --diff: the flags pick %d episodes with repeat %d; name --task, --track and --seed to pick one pair of twins", len(picked), r)
		}
		t, err := Load(data, picked[0])
		if err != nil {
			return err
		}
		writeWarnings(warn, t.Warnings)
		ts = append(ts, t)
	}
	return WriteDiff(w, ts[0], ts[1], req.Format)
}

// noTwin says that the picked episode has no twin with repeat r, and
// which pairs of twins the run does hold, if any.
func noTwin(entries []Entry, r int) error {
	var twins []string
	for _, e := range entries {
		if e.Repeat == 1 {
			twins = append(twins, fmt.Sprintf("--task %s --track %s --seed %d", e.Task, e.Track, e.Seed))
		}
	}
	msg := fmt.Sprintf("show --diff: the episode has no twin (no episode with repeat %d matches); a twin is the same seed run twice (bench run --seeds 1,1)", r)
	if len(twins) == 0 {
		return fmt.Errorf("%s, and this run holds no twins", msg)
	}
	return fmt.Errorf("%s; this run's twins: %s", msg, strings.Join(twins, "; "))
}

// listToPick lists the episodes the flags matched (all of them when none
// did) and says how to pick one, with cmd as the command to repeat. No
// match is an error.
func listToPick(w io.Writer, dir string, all, picked []Entry, format, cmd string) error {
	verb := "match"
	if len(picked) == 1 {
		verb = "matches"
	}
	title := fmt.Sprintf("%s in %s %s; pick one", words.Plural(len(picked), "episode"), dir, verb)
	list := picked
	if len(picked) == 0 {
		title, list = fmt.Sprintf("no episode in %s matches; its episodes are", dir), all
	}
	if err := WriteList(w, title, list, format); err != nil {
		return err
	}
	if len(list) > 0 {
		e := list[len(list)-1]
		flags, extra := []string{"--task", "--track"}, ""
		if e.Model != "" {
			flags, extra = append(flags, "--model"), " --model "+e.Model
		}
		if e.Variant != "" {
			flags, extra = append(flags, "--variant"), extra+" --variant "+record.VariantDir(e.Variant)
		}
		flags = append(flags, "--seed and --repeat")
		fmt.Fprintln(w, inert.Text(fmt.Sprintf("\nPick one with %s, for example:\n  %s --task %s --track %s%s --seed %d --repeat %d", strings.Join(flags, ", "), cmd, e.Task, e.Track, extra, e.Seed, e.Repeat)))
	}
	if len(picked) == 0 {
		return fmt.Errorf("no episode in %s matches the flags; its episodes are listed on stdout", dir)
	}
	return nil
}

// writeWarnings prints each warning on its own line, made inert (a
// warning can quote the bytes of a line it skipped).
func writeWarnings(w io.Writer, warnings []string) {
	for _, s := range warnings {
		fmt.Fprintln(w, "warning:", inert.Line(s))
	}
}
