package report

import (
	"cmp"
	"hash/fnv"
	"maps"
	"slices"
	"strings"

	"bench/record"
)

// Report computes the report of the aggregate with the default Options.
func (a *Aggregate) Report() *Report { return a.ReportWith(Options{}) }

// ReportWith computes the report of the aggregate: every table, statistic
// and caveat, from one grouping of its episodes.
func (a *Aggregate) ReportWith(o Options) *Report {
	rep := &Report{observed: a.observedRuns()}
	if a.keep {
		rep.agg = a
	}
	notes := &footnotes{}
	cells := a.group()
	a.prepareCells(cells)
	rep.Runs = a.runInfos()
	checked := a.checkNotes(cells, notes)
	for _, c := range cells {
		rep.Rows = append(rep.Rows, a.summarize(c, notes, checked))
		rep.Sequences = append(rep.Sequences, c.seqs...)
		if c.moreSeqs.Sequences > 0 {
			rep.MoreSeqs = append(rep.MoreSeqs, c.moreSeqs)
		}
	}
	rep.Tracks = a.trackRows(cells, rep.Rows)
	rep.Delegation = delegations(rep.Rows)
	rep.Ratios, rep.McNemar = a.pairs(cells, notes)
	rep.Twins = a.twins(cells)
	noteDiverged(rep.Twins, notes)
	markDivergedRows(rep, notes)
	a.runNotes(rep.Rows, notes)
	for _, c := range cells {
		c.tokens, c.est, c.turns, c.keys, c.seqs, c.twinGroups = nil, nil, nil, nil, nil, nil // the report holds what it needs: the memory is free for the pooled tests
	}
	rep.Pooled = a.pooledTracks(cells, notes, o.Effect)
	var variants []TrackPooled
	rep.VariantTasks, variants = a.variantComparisons(cells, notes, o.Effect)
	rep.Pooled = append(rep.Pooled, variants...)
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
			Model: r.Model, ModelDigest: r.ModelDigest, Models: modelRefs(r), Sandbox: r.Sandbox,
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
			if e.flags&flagInPlan != 0 {
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
		a.replayInfo(in, &info)
		infos[i] = info
	}
	return infos
}

// summarize is the row of one cell: its rowOf, which prepareCells made,
// with its notes. Lost and interrupted episodes are not in n; a row with
// n = 0 has no rate, interval or medians.
func (a *Aggregate) summarize(c *cell, notes *footnotes, checked checkedNotes) Row {
	row := c.row
	row.Notes = checked.of(c)
	if row.N == 1 {
		row.Notes = append(row.Notes, notes.add("n = 1: examples, not rates"))
	}
	return row
}

// rowOf is the row of cell c but its notes, from its sorted tokens,
// estimates and turns: made for every cell side by side (prepareCells),
// as it reads each of the cell's episodes.
func (a *Aggregate) rowOf(c *cell) Row {
	n := len(c.counted)
	row := Row{Task: c.task, Track: c.track, Model: c.model, Variant: c.variant, N: n, Lost: c.lost, Interrupted: c.interrupted, Diverged: c.diverged, NotRun: c.notRun(),
		Retries: c.retries, CutReplies: c.cut, GradingTimeouts: c.timeouts, Inconsistent: c.contradicts + c.edited + c.gone}
	for _, r := range c.runs {
		row.Runs = append(row.Runs, a.runs[r].label)
	}
	byExit := make([]int, len(a.exits.names))
	for _, k := range c.counted {
		e := &a.eps[c.idx[k]]
		if e.pass() {
			row.Passed++
		}
		byExit[e.exit]++
	}
	exits := map[string]int{}
	for i, k := range byExit {
		if k > 0 {
			exits[a.exits.names[i]] += k
		}
	}
	row.Exits = counts(exits, compareExits)
	a.explainRow(c, &row)
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
	tok, est, tu := median(c.tokens), median(c.est), median(c.turns)
	row.MedianTokens, row.MedianEstTokens, row.MedianTurns = &tok, &est, &tu
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
// episodes, most frequent first (ties by sequence, in the order of the
// tools' names), the first SequencesListed of them, and counts the rest.
// They are counted and sorted by their numbers and codes (seqTable); the
// lists of names of those listed are made once, sorted, into one array.
func (a *Aggregate) sequences(c *cell) ([]Sequence, MoreSeqs) {
	n := map[uint32]int{}
	for _, k := range c.counted {
		n[a.eps[c.idx[k]].seq]++
	}
	type counted struct {
		seq   uint32
		count int
	}
	seqs := make([]counted, 0, len(n))
	calls := 0
	for seq, count := range n {
		seqs = append(seqs, counted{seq, count})
		calls += a.seqs.calls(seq)
	}
	rank := a.seqs.ranks()
	order := func(x, y counted) int { return cmp.Or(y.count-x.count, a.seqs.compare(x.seq, y.seq, rank)) }
	more := MoreSeqs{Task: c.task, Track: c.track, Model: c.model, Variant: c.variant}
	if len(seqs) > SequencesListed {
		seqs = firstInOrder(seqs, SequencesListed, order)
		for _, s := range seqs[SequencesListed:] {
			more.Sequences, more.Episodes = more.Sequences+1, more.Episodes+s.count
			calls -= a.seqs.calls(s.seq)
		}
		seqs = seqs[:SequencesListed]
	}
	slices.SortFunc(seqs, order)
	names := make([]string, 0, calls)
	out := make([]Sequence, len(seqs))
	for i, s := range seqs {
		start := len(names)
		names = a.seqs.appendList(names, s.seq)
		out[i] = Sequence{Task: c.task, Track: c.track, Model: c.model, Variant: c.variant, Tools: names[start:len(names):len(names)], Count: s.count}
	}
	return out, more
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
// lines), pointing the rows that pool the runs at theirs. A run left
// unfinished is said under its run line (runLines).
func (a *Aggregate) runNotes(rows []Row, notes *footnotes) {
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
			id := notes.add("model " + m + ": the digest differs between merged runs (" + strings.Join(d, ", ") + "): the runs may not have used the same weights")
			pointAt(rows, id, func(r Row) bool { return r.Model == m && len(r.Runs) > 1 })
		}
	}
	if diff := configDiff(a.inputs, a.runs); diff != "" {
		id := notes.add("the merged runs differ in " + diff + "; each row pools their episodes (bench compare OLD NEW sets two runs side by side)")
		pointAt(rows, id, func(r Row) bool { return len(r.Runs) > 1 })
	}
	for _, in := range a.inputs {
		for _, w := range in.warnings {
			notes.add(w) // the reader's warnings name the file and line
		}
	}
}

// pointAt makes the rows that concern holds refer to footnote id, so that
// a warning stands next to the rows it is about, not only at the end.
func pointAt(rows []Row, id int, concerns func(Row) bool) {
	for i := range rows {
		if concerns(rows[i]) {
			rows[i].Notes = addTo(rows[i].Notes, id)
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

// firstInOrder returns xs with its k first in order at the front, in no
// particular order among them, the others after them, without sorting
// those: a heap of the k best seen so far (the worst on top), O(n log k).
func firstInOrder[T any](xs []T, k int, order func(a, b T) int) []T {
	out := make([]T, len(xs))
	h, rest := out[:0:k], out[k:k]
	down := func(i int) { // sift h[i] down: the greatest (the worst kept) stays on top
		for {
			l, r, top := 2*i+1, 2*i+2, i
			if l < len(h) && order(h[l], h[top]) > 0 {
				top = l
			}
			if r < len(h) && order(h[r], h[top]) > 0 {
				top = r
			}
			if top == i {
				return
			}
			h[i], h[top] = h[top], h[i]
			i = top
		}
	}
	for _, x := range xs {
		switch {
		case len(h) < k:
			h = append(h, x)
			for i := len(h) - 1; i > 0 && order(h[i], h[(i-1)/2]) > 0; i = (i - 1) / 2 {
				h[i], h[(i-1)/2] = h[(i-1)/2], h[i]
			}
		case order(x, h[0]) < 0:
			rest = append(rest, h[0])
			h[0] = x
			down(0)
		default:
			rest = append(rest, x)
		}
	}
	return out
}
