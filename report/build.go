package report

import (
	"bench/record"
	"hash/fnv"
	"slices"
	"strings"
)

// Build computes the report over the episodes of all inputs (merged runs).
func Build(inputs []record.Data) *Report { return BuildOutcomes(outcomesOf(inputs)) }

// outcomesOf returns the outcomes of the episodes of each input.
func outcomesOf(inputs []record.Data) []record.Outcomes {
	out := make([]record.Outcomes, len(inputs))
	for i, in := range inputs {
		out[i] = in.Outcomes()
	}
	return out
}

// BuildOutcomes computes the report over the episodes of all inputs
// (merged runs, as record.ReadOutcomes reads them).
func BuildOutcomes(inputs []record.Outcomes) *Report {
	rep := &Report{}
	notes := &footnotes{}
	rep.Runs = runInfos(inputs)
	g := group(inputs)
	cells := g.cells
	checked := checkNotes(g.checks, inputs, notes)
	for _, c := range cells {
		row := summarize(c, notes, checked)
		for _, r := range c.runs {
			if id := inputs[r].Run.ID; !slices.Contains(row.Runs, id) {
				row.Runs = append(row.Runs, id)
			}
		}
		rep.Rows = append(rep.Rows, row)
		rep.Sequences = append(rep.Sequences, sequences(c)...)
	}
	rep.Tracks = trackRows(cells)
	rep.Ratios, rep.McNemar = pairs(cells, inputs, notes)
	rep.Twins = twins(cells, inputs)
	noteDiverged(rep.Twins, notes)
	markDivergedRows(rep, notes)
	checkRunNotes(g.checks, inputs, notes)
	runNotes(inputs, notes)
	rep.Footnotes = notes.list
	rep.Design = designRows(inputs, rep.Rows)
	rep.round()
	return rep
}

// runInfos describes the inputs.
func runInfos(inputs []record.Outcomes) []RunInfo {
	infos := make([]RunInfo, len(inputs))
	for i, in := range inputs {
		infos[i] = RunInfo{
			ID: in.Run.ID, Dir: in.Dir, BenchVersion: in.Run.BenchVersion, Backend: in.Run.Backend,
			Model: in.Run.Model, ModelDigest: in.Run.ModelDigest, Episodes: len(in.Episodes),
			Sandbox: in.Run.Sandbox,
		}
	}
	return infos
}

// summarize computes the row of one cell. Lost episodes are not in n; a
// row whose every episode was lost has n = 0, rate 0 and medians 0.
func summarize(c *cell, notes *footnotes, checked checkedNotes) Row {
	n := len(c.entries)
	row := Row{Task: c.task, Track: c.track, Model: c.model, N: n, Lost: c.lost, Retries: c.retries, CutReplies: c.cutReplies, GradingTimeouts: c.timeouts}
	tokens := make([]float64, n)
	est := make([]float64, n)
	turns := make([]float64, n)
	exits := map[string]int{}
	for i, e := range c.entries {
		if e.pass {
			row.Passed++
		}
		tokens[i] = float64(e.ep.Tokens)
		est[i] = float64(e.ep.EstTokens)
		turns[i] = float64(e.ep.Turns)
		exits[e.ep.ExitReason]++
	}
	row.Wilson = Wilson(row.Passed, n)
	row.Exits = counts(exits, compareExits)
	row.Notes = checked.of(c)
	if n == 0 {
		return row
	}
	row.Rate = float64(row.Passed) / float64(n)
	for _, k := range PassAtKs {
		if k <= n {
			row.PassAtK = append(row.PassAtK, PassK{K: k, P: PassAtK(n, row.Passed, k)})
		}
	}
	slices.Sort(tokens)
	slices.Sort(est)
	slices.Sort(turns)
	row.MedianTokens, row.MedianEstTokens, row.MedianTurns = median(tokens), median(est), median(turns)
	if n == 1 {
		row.Notes = append(row.Notes, notes.add("n = 1: examples, not rates"))
	}
	return row
}

// counts lists a map's counts ordered by name with order.
func counts(m map[string]int, order func(a, b string) int) []Count {
	names := make([]string, 0, len(m))
	for name := range m {
		names = append(names, name)
	}
	slices.SortFunc(names, order)
	out := make([]Count, len(names))
	for i, name := range names {
		out[i] = Count{name, m[name]}
	}
	return out
}

// sequences lists the distinct tool-call sequences of a cell, most frequent
// first (ties by sequence).
func sequences(c *cell) []Sequence {
	idx := map[string]int{}
	var out []Sequence
	for _, e := range c.entries {
		key := strings.Join(e.ep.ToolCalls, "\x00")
		i, ok := idx[key]
		if !ok {
			i = len(out)
			idx[key] = i
			out = append(out, Sequence{Task: c.task, Track: c.track, Model: c.model, Tools: e.ep.ToolCalls})
		}
		out[i].Count++
	}
	slices.SortStableFunc(out, func(a, b Sequence) int {
		if a.Count != b.Count {
			return b.Count - a.Count
		}
		return slices.Compare(a.Tools, b.Tools)
	})
	return out
}

// seedFor derives a bootstrap seed from a task name, so that every task's
// interval is reproducible on its own.
func seedFor(task string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(task))
	return h.Sum64()
}

// tokensOf returns a cell's sorted token totals, reported or estimated.
func tokensOf(c *cell, estimated bool) []float64 {
	xs := make([]float64, len(c.entries))
	for i, e := range c.entries {
		if estimated {
			xs[i] = float64(e.ep.EstTokens)
		} else {
			xs[i] = float64(e.ep.Tokens)
		}
	}
	slices.Sort(xs)
	return xs
}

// runNotes adds the caveats that concern whole runs: digests or settings
// that differ between merged runs, and the readers' warnings (e.g. torn lines).
func runNotes(inputs []record.Outcomes, notes *footnotes) {
	digests := map[string][]string{}
	for _, in := range inputs {
		for _, m := range modelRefs(in.Run) {
			if !slices.Contains(digests[m.Name], m.Digest) {
				digests[m.Name] = append(digests[m.Name], m.Digest)
			}
		}
	}
	models := make([]string, 0, len(digests))
	for m := range digests {
		models = append(models, m)
	}
	slices.Sort(models)
	for _, m := range models {
		if d := digests[m]; len(d) > 1 {
			slices.Sort(d)
			notes.add("model " + m + ": the digest differs between merged runs (" + strings.Join(d, ", ") + "): the runs may not have used the same weights")
		}
	}
	if diff := configDiff(inputs); diff != "" {
		notes.add("the merged runs differ in " + diff + "; each row pools their episodes (bench compare OLD NEW sets two runs side by side)")
	}
	for _, in := range inputs {
		for _, w := range in.Warnings {
			notes.add(w) // the reader's warnings name the file and line
		}
	}
}

// modelRefs are the models of a run with their digests: its models list,
// or, for a run written before it, its one model.
func modelRefs(r record.Run) []record.ModelRef {
	if len(r.Models) > 0 {
		return r.Models
	}
	return []record.ModelRef{{Name: r.Model, Digest: r.ModelDigest}}
}
