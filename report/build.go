package report

import (
	"cmp"
	"hash/fnv"
	"maps"
	"slices"
	"strings"

	"bench/record"
)

// Build computes the report over the episodes of all inputs (merged runs),
// read whole: FromData(inputs).Report().
func Build(inputs []record.Data) *Report { return FromData(inputs).Report() }

// Report computes the report of the aggregate: every table, statistic and
// caveat, from one grouping of its episodes.
func (a *Aggregate) Report() *Report {
	rep := &Report{agg: a}
	notes := &footnotes{}
	cells := a.group()
	rep.Runs = a.runInfos()
	checked := a.checkNotes(cells, notes)
	for _, c := range cells {
		rep.Rows = append(rep.Rows, a.summarize(c, notes, checked))
		rep.Sequences = append(rep.Sequences, a.sequences(c)...)
	}
	rep.Tracks = a.trackRows(cells, rep.Rows)
	rep.Ratios, rep.McNemar = a.pairs(cells, notes)
	rep.Twins = a.twins(cells)
	noteDiverged(rep.Twins, notes)
	markDivergedRows(rep, notes)
	a.runNotes(rep.Runs, notes)
	rep.Footnotes = notes.list
	rep.Design = designRows(a.inputs, rep.Rows)
	rep.round()
	return rep
}

// runInfos describes the inputs, with what each still lacks of its plan.
func (a *Aggregate) runInfos() []RunInfo {
	infos := make([]RunInfo, len(a.inputs))
	for i, in := range a.inputs {
		r := in.run
		info := RunInfo{
			ID: r.ID, UID: in.uid, Label: a.runs[in.runIdx].label, Dir: in.dir, BenchVersion: r.BenchVersion, Backend: r.Backend,
			Model: r.Model, ModelDigest: r.ModelDigest, Sandbox: r.Sandbox,
		}
		for _, c := range in.plan.Cells() {
			info.Planned += c.Episodes
		}
		finished := 0
		for g := in.base; g < in.base+in.n; g++ {
			e := &a.eps[g]
			info.Episodes++
			switch e.status {
			case record.StatusLost:
				info.Lost++
			case record.StatusInterrupted:
				info.Interrupted++
			}
			c := a.cells[e.cell]
			if in.plan.Holds(c.task, c.track, c.model, int(e.seed), int(e.repeat)) {
				if e.status.Counted() {
					finished++
				} else {
					info.Unfinished++
				}
			}
		}
		info.NotRun = max(0, info.Planned-finished-info.Unfinished)
		info.Unfinished += info.NotRun
		if info.Unfinished > 0 {
			info.Resume = "bench run --resume " + in.dir
		}
		infos[i] = info
	}
	return infos
}

// summarize computes the row of one cell. Lost and interrupted episodes
// are not in n; a row with n = 0 has no rate, interval or medians.
func (a *Aggregate) summarize(c *cell, notes *footnotes, checked checkedNotes) Row {
	n := len(c.counted)
	row := Row{Task: c.task, Track: c.track, Model: c.model, N: n, Lost: c.lost, Interrupted: c.interrupted, NotRun: c.notRun(),
		Retries: c.retries, CutReplies: c.cut, GradingTimeouts: c.timeouts, Inconsistent: c.contradicts + c.edited + c.gone}
	for _, r := range c.runs {
		row.Runs = append(row.Runs, a.runs[r].label)
	}
	exits := map[string]int{}
	turns := make([]float64, n)
	for i, k := range c.counted {
		e := &a.eps[c.idx[k]]
		if e.pass() {
			row.Passed++
		}
		turns[i] = float64(e.turns)
		exits[a.exits.names[e.exit]]++
	}
	row.Exits = counts(exits, compareExits)
	row.Notes = checked.of(c)
	if n == 0 {
		return row
	}
	rate, wilson := float64(row.Passed)/float64(n), Wilson(row.Passed, n)
	row.Rate, row.Wilson = &rate, &wilson
	for _, k := range PassAtKs {
		if k <= n {
			row.PassAtK = append(row.PassAtK, PassK{K: k, P: PassAtK(n, row.Passed, k)})
		}
	}
	slices.Sort(turns)
	tok, est, tu := median(a.tokensOf(c, false)), median(a.tokensOf(c, true)), median(turns)
	row.MedianTokens, row.MedianEstTokens, row.MedianTurns = &tok, &est, &tu
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

// sequences lists the distinct tool-call sequences of a cell's counted
// episodes, most frequent first (ties by sequence).
func (a *Aggregate) sequences(c *cell) []Sequence {
	n := map[uint32]int{}
	for _, k := range c.counted {
		n[a.eps[c.idx[k]].seq]++
	}
	out := make([]Sequence, 0, len(n))
	for seq, count := range n {
		out = append(out, Sequence{Task: c.task, Track: c.track, Model: c.model, Tools: a.seqs.list(seq), Count: count})
	}
	slices.SortFunc(out, func(x, y Sequence) int { return cmp.Or(y.Count-x.Count, slices.Compare(x.Tools, y.Tools)) })
	return out
}

// seedFor derives a bootstrap seed from a task name, so that every task's
// interval is reproducible on its own.
func seedFor(task string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(task))
	return h.Sum64()
}

// runNotes adds the caveats that concern whole runs: digests or settings
// that differ between merged runs, and the readers' warnings (e.g. torn
// lines). A run left unfinished is said under its run line (runLines).
func (a *Aggregate) runNotes(infos []RunInfo, notes *footnotes) {
	digests := map[string][]string{}
	for _, in := range a.inputs {
		for _, m := range modelRefs(in.run) {
			if !slices.Contains(digests[m.Name], m.Digest) {
				digests[m.Name] = append(digests[m.Name], m.Digest)
			}
		}
	}
	for _, m := range slices.Sorted(maps.Keys(digests)) {
		if d := digests[m]; len(d) > 1 {
			slices.Sort(d)
			notes.add("model " + m + ": the digest differs between merged runs (" + strings.Join(d, ", ") + "): the runs may not have used the same weights")
		}
	}
	if diff := configDiff(a.inputs, a.runs); diff != "" {
		notes.add("the merged runs differ in " + diff + "; each row pools their episodes (bench compare OLD NEW sets two runs side by side)")
	}
	for _, in := range a.inputs {
		for _, w := range in.warnings {
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
