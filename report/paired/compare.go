package paired

import (
	"cmp"
	"fmt"
	"iter"
	"maps"
	"slices"
)

// Comparison is the result of Compare: its JSON form is what `bench
// compare --format json` holds of the paired comparison.
type Comparison struct {
	Alpha      float64        `json:"alpha"`
	Confidence float64        `json:"confidence"`
	Pairing    Pairing        `json:"pairing"`
	Cells      []CellResult   `json:"cells"`  // per task, track and model, sorted by track, model and task
	Pooled     []PooledResult `json:"pooled"` // per track and model, sorted
	Caveats    []Caveat       `json:"caveats"`
}

// CellResult compares one task, track and model.
type CellResult struct {
	Cell
	Paired     bool       `json:"paired"`       // tested on its pairs; else on all its episodes, unpaired
	LeftOutOld int        `json:"left_out_old"` // old episodes without a pair, in no test (paired cells only)
	LeftOutNew int        `json:"left_out_new"`
	Pass       PassResult `json:"pass"`
	Tokens     Measure    `json:"tokens"`
	Turns      Measure    `json:"turns"`
	Caveats    []Caveat   `json:"caveats"`
}

// PooledResult is the pooled answer of one track (and model): the cells
// are its strata.
type PooledResult struct {
	Group
	Tasks         int        `json:"tasks"`          // strata
	PairedTasks   int        `json:"paired_tasks"`   // strata tested on pairs
	UnpairedTasks int        `json:"unpaired_tasks"` // strata without a pair, in the pass test as 2×2 tables
	Pass          PassResult `json:"pass"`
	Tokens        Measure    `json:"tokens"`
	Turns         Measure    `json:"turns"`
	Caveats       []Caveat   `json:"caveats"`
}

// PassResult is the change in pass rate.
type PassResult struct {
	Test       Test      `json:"test"`
	Table      PassTable `json:"table"`
	Difference *Effect   `json:"difference"`      // new rate − old rate; nil when a side is empty
	Seeds      *Seeds    `json:"seeds,omitempty"` // paired results only; nil when not estimable (a caveat says why)
}

// Measure is the change in tokens or turns.
type Measure struct {
	Test      Test    `json:"test"`
	OldMedian float64 `json:"old_median"`
	NewMedian float64 `json:"new_median"`
	Ratio     *Effect `json:"ratio"` // median new / median old; nil when the old median is 0
}

// Effect is an estimate with its interval.
type Effect struct {
	Estimate float64   `json:"estimate"`
	Interval *Interval `json:"interval"` // nil when it is unbounded
	Method   string    `json:"method"`   // one of the Interval* names
	// OverTasks is, for a pooled difference in pass rate whose Interval is
	// Newcombe's (conditional on the tasks), the bootstrap interval over
	// tasks and seeds as well.
	OverTasks *Interval `json:"over_tasks,omitempty"`
}

// Compare pairs the old and new episodes, tests every cell both sides
// hold, and pools the cells of each track (and model). It returns an error
// for bad options or an episode whose tokens or turns are not counts. The
// sides are sequences, read once, so that a caller holding a million
// episodes in its own form need not copy them into Episodes first. The
// two are read at the same time, on two goroutines: they must not share
// state that reading them changes.
func Compare(old, new iter.Seq[Episode], o Options) (Comparison, error) {
	o, err := o.withDefaults()
	if err != nil {
		return Comparison{}, err
	}
	strata, pairing, err := pairUp(old, new, o)
	if err != nil {
		return Comparison{}, err
	}
	c := Comparison{Alpha: o.Alpha, Confidence: o.Confidence, Pairing: pairing, Cells: []CellResult{}, Pooled: []PooledResult{}, Caveats: []Caveat{}}
	for side, d := range map[string][]Key{"old": pairing.DuplicateOld, "new": pairing.DuplicateNew} {
		if len(d) > 0 {
			c.Caveats = append(c.Caveats, caveat(CaveatDuplicates, "the %s side holds %d keys more than once (first %s): only the first episode of each is used", side, len(d), d[0]))
		}
	}
	slices.SortFunc(c.Caveats, func(a, b Caveat) int { return cmp.Compare(a.Text, b.Text) })
	if len(strata) == 0 {
		c.Caveats = append(c.Caveats, caveat(CaveatNothingCompared, "no task, track and model is held by both sides: nothing compared"))
		return c, nil
	}
	groups := map[Group][]*stratum{}
	for _, s := range strata {
		if !o.PooledOnly {
			c.Cells = append(c.Cells, cellResult(s, o))
		}
		groups[s.cell.group()] = append(groups[s.cell.group()], s)
	}
	for _, g := range slices.SortedFunc(maps.Keys(groups), compareGroups) {
		c.Pooled = append(c.Pooled, pooledResult(g, groups[g], o))
	}
	return c, nil
}

// cellResult tests one cell: on its pairs when it has any, else unpaired.
func cellResult(s *stratum, o Options) CellResult {
	r := CellResult{Cell: s.cell, Paired: s.paired(), Caveats: []Caveat{}}
	label := fmt.Sprintf("cell/%s/%s/%s", s.cell.Task, s.cell.Track, s.cell.Model) + variantLabel(s.cell.Variant)
	reps := bootstrap([]*stratum{s}, false, o.Resamples, o.Seed, label)
	table := passTable([]*stratum{s})
	r.Pass.Table = table
	if s.paired() {
		r.LeftOutOld, r.LeftOutNew = len(s.onlyOld), len(s.onlyNew)
		if r.LeftOutOld+r.LeftOutNew > 0 {
			r.Caveats = append(r.Caveats, caveat(CaveatLeftOut, "%d old and %d new episodes have no pair: they are in no test of this cell", r.LeftOutOld, r.LeftOutNew))
		}
		r.Pass.Test = McNemar(table.OnlyOld, table.OnlyNew)
		iv, _ := NewcombePaired(table, ZFor(o.Confidence))
		r.Pass.Difference = &Effect{Estimate: rate(table.NewPass, table.NewN) - rate(table.OldPass, table.OldN), Interval: &iv, Method: IntervalNewcombePaired}
		var notes []Caveat
		r.Pass.Seeds, notes = SeedsNeeded(table.OnlyOld, table.OnlyNew, table.Pairs, distinctSeeds([]*stratum{s}), o.Effect, o.Alpha, o.Power)
		r.Caveats = append(r.Caveats, notes...)
		for _, m := range []struct {
			what  string
			value func(obs) float64
			reps  []float64
			out   *Measure
		}{{"tokens", tokensOf, reps.tokens, &r.Tokens}, {"turns", turnsOf, reps.turns, &r.Turns}} {
			old, new := pairValues(s, m.value)
			ranks := rankDifferences(old, new)
			*m.out = measure(signedRankTest([]signedRanks{ranks}), old, new, m.reps, IntervalBootstrapSeeds, o)
			r.Caveats = append(r.Caveats, measureCaveats(m.what, *m.out, len(ranks.nonzero()), o.Alpha)...)
		}
	} else {
		r.Caveats = append(r.Caveats, caveat(CaveatUnpaired, "no old and new episode share seed and repeat: unpaired tests (Fisher, Mann-Whitney), which are weaker"))
		r.Pass.Test = Fisher(table.OldPass, table.OldN, table.NewPass, table.NewN)
		iv, ok := NewcombeIndependent(table.OldPass, table.OldN, table.NewPass, table.NewN, ZFor(o.Confidence))
		if ok {
			r.Pass.Difference = &Effect{Estimate: rate(table.NewPass, table.NewN) - rate(table.OldPass, table.OldN), Interval: &iv, Method: IntervalNewcombeIndependent}
		}
		old, new := sideValues(s, tokensOf)
		r.Tokens = measure(MannWhitney(old, new), old, new, reps.tokens, IntervalBootstrapSeeds, o)
		old, new = sideValues(s, turnsOf)
		r.Turns = measure(MannWhitney(old, new), old, new, reps.turns, IntervalBootstrapSeeds, o)
		r.Caveats = append(r.Caveats, measureCaveats("tokens", r.Tokens, -1, o.Alpha)...)
		r.Caveats = append(r.Caveats, measureCaveats("turns", r.Turns, -1, o.Alpha)...)
	}
	r.Pass.Test.Significant = r.Pass.Test.P < o.Alpha
	r.Caveats = append(testCaveats("pass rate", r.Pass, table.Discordant(), s.paired(), o.Alpha), r.Caveats...)
	return r
}

// pooledResult pools the strata of one group.
func pooledResult(g Group, strata []*stratum, o Options) PooledResult {
	r := PooledResult{Group: g, Tasks: len(strata), Caveats: []Caveat{}}
	label := fmt.Sprintf("pooled/%s/%s", g.Track, g.Model) + variantLabel(g.Variant)
	boot := make(chan replicates, 1)
	go func() { boot <- bootstrap(strata, true, o.Resamples, o.Seed, label) }() // its set-up is serial: the ranks and tests below run beside it
	var pairedStrata []*stratum
	var tables []Table2x2
	var ranks, turnRanks []signedRanks
	for _, s := range strata {
		if s.paired() {
			r.PairedTasks++
			pairedStrata = append(pairedStrata, s)
			old, new := pairValues(s, tokensOf)
			ranks = append(ranks, rankDifferences(old, new))
			old, new = pairValues(s, turnsOf)
			turnRanks = append(turnRanks, rankDifferences(old, new))
			continue
		}
		r.UnpairedTasks++
		t := passTable([]*stratum{s})
		tables = append(tables, Table2x2{t.OldPass, t.OldN, t.NewPass, t.NewN})
	}
	table := passTable(strata)
	r.Pass.Table = table
	r.Pass.Test = StratifiedExact(table.OnlyOld, table.OnlyNew, tables)
	r.Pass.Test.Significant = r.Pass.Test.P < o.Alpha
	if table.Pairs > 0 {
		var notes []Caveat
		r.Pass.Seeds, notes = SeedsNeeded(table.OnlyOld, table.OnlyNew, table.Pairs, distinctSeeds(pairedStrata), o.Effect, o.Alpha, o.Power)
		r.Caveats = append(r.Caveats, notes...)
	}
	reps := <-boot
	over, overOK := percentile(reps.diff, o.Confidence)
	diff := &Effect{Estimate: mantelHaenszelDifference(strata), Method: IntervalBootstrapTasks}
	if overOK {
		diff.Interval = &over
	}
	if len(tables) == 0 {
		iv, _ := NewcombePaired(table, ZFor(o.Confidence))
		diff.Interval, diff.Method = &iv, IntervalNewcombePaired
		if overOK && len(strata) > 1 {
			diff.OverTasks = &over
		}
	}
	r.Pass.Difference = diff
	r.Caveats = append(r.Caveats, testCaveats("pooled pass rate", r.Pass, table.Discordant(), len(tables) == 0, o.Alpha)...)
	method := IntervalBootstrapTasks
	if r.Tasks == 1 {
		method = IntervalBootstrapSeeds
		if diff.Method == IntervalBootstrapTasks {
			diff.Method = method
		}
	}
	r.Tokens = pooledMeasure(strata, ranks, tokensOf, reps.tokens, method, o)
	r.Turns = pooledMeasure(strata, turnRanks, turnsOf, reps.turns, method, o)
	if r.UnpairedTasks > 0 && r.PairedTasks > 0 {
		r.Caveats = append(r.Caveats, caveat(CaveatUnpairedStrata, "%d of %d tasks have no pair: they are in the pooled pass-rate test and the ratios, not in the pooled tests of tokens and turns", r.UnpairedTasks, r.Tasks))
	}
	if r.PairedTasks == 0 {
		r.Caveats = append(r.Caveats, caveat(CaveatUnpairedStrata, "no task has a pair: no pooled test of tokens and turns (the per-task Mann-Whitney tests stand)"))
	}
	switch {
	case r.Tasks == 1:
		r.Caveats = append(r.Caveats, caveat(CaveatFewTasks, "one task: the pooled answer is that task's, its intervals over seeds only"))
	case r.Tasks < FewTasks:
		r.Caveats = append(r.Caveats, caveat(CaveatFewTasks, "the bootstrap over tasks resamples %d tasks: its intervals are rough and say little about other tasks", r.Tasks))
	}
	r.Caveats = append(r.Caveats, measureCaveats("pooled tokens", r.Tokens, nonzero(ranks), o.Alpha)...)
	r.Caveats = append(r.Caveats, measureCaveats("pooled turns", r.Turns, nonzero(turnRanks), o.Alpha)...)
	return r
}

// pooledMeasure is the stratified signed-rank test over the paired strata
// and the ratio of the medians of every tested episode.
func pooledMeasure(strata []*stratum, ranks []signedRanks, value func(obs) float64, reps []float64, method string, o Options) Measure {
	nOld, nNew := 0, 0
	for _, s := range strata {
		if s.paired() {
			nOld, nNew = nOld+len(s.pairs), nNew+len(s.pairs)
		} else {
			nOld, nNew = nOld+len(s.onlyOld), nNew+len(s.onlyNew)
		}
	}
	old, new := make([]float64, 0, nOld), make([]float64, 0, nNew)
	for _, s := range strata {
		if s.paired() { // its pairs only: the episodes left out are in no test
			for _, p := range s.pairs {
				old, new = append(old, value(p.old)), append(new, value(p.new))
			}
			continue
		}
		for _, o := range s.onlyOld {
			old = append(old, value(o))
		}
		for _, o := range s.onlyNew {
			new = append(new, value(o))
		}
	}
	t := none()
	if len(ranks) > 0 {
		t = signedRankTest(ranks)
	}
	return measure(t, old, new, reps, method, o)
}

// nonzero counts the non-zero differences of the strata.
func nonzero(strata []signedRanks) int {
	n := 0
	for _, s := range strata {
		n += len(s.pos) + len(s.neg)
	}
	return n
}

// measure completes a Measure: the medians, their ratio with its bootstrap
// interval, and whether the test is significant. It sorts old and new
// (a pooled answer's hold every episode: no copies).
func measure(t Test, old, new, reps []float64, method string, o Options) Measure {
	t.Significant = t.P < o.Alpha
	m := Measure{Test: t, OldMedian: medianOf(old), NewMedian: medianOf(new)}
	if m.OldMedian > 0 {
		m.Ratio = &Effect{Estimate: m.NewMedian / m.OldMedian, Method: method}
		if iv, ok := percentile(reps, o.Confidence); ok {
			m.Ratio.Interval = &iv
		}
	}
	return m
}

// mantelHaenszelDifference is the Mantel-Haenszel estimate of the common
// change in pass rate: Σ w(p_new − p_old) / Σ w with w = n_old·n_new/(n_old
// + n_new) per table, each pair a table of one episode per side (w = ½),
// so that for pairs only it is (OnlyNew − OnlyOld)/pairs.
func mantelHaenszelDifference(strata []*stratum) float64 {
	num, weight := 0.0, 0.0
	for _, s := range strata {
		if s.paired() {
			for _, p := range s.pairs {
				num += (float64(b2i(p.new.passed)) - float64(b2i(p.old.passed))) / 2
				weight += 0.5
			}
			continue
		}
		t := passTable([]*stratum{s})
		w := float64(t.OldN*t.NewN) / float64(t.OldN+t.NewN)
		num += w * (rate(t.NewPass, t.NewN) - rate(t.OldPass, t.OldN))
		weight += w
	}
	return num / weight
}

// testCaveats says when a pass-rate test could not be significant, or was
// not, and then how many seeds per task would detect the effect.
func testCaveats(what string, r PassResult, discordant int, mcnemar bool, alpha float64) []Caveat {
	t := r.Test
	seeds := ""
	if s := r.Seeds; s != nil && s.Seeds > 0 {
		seeds = fmt.Sprintf(": %d seeds per task (now %d) would detect a change of %.3g with power %.2g", s.Seeds, s.SeedsNow, s.Effect, s.Power)
	}
	switch {
	case t.MinP >= alpha && mcnemar && discordant == 0:
		return []Caveat{caveat(CaveatNoDifference, "%s: no discordant pair: no evidence of a change either way", what)}
	case t.MinP >= alpha && mcnemar:
		return []Caveat{caveat(CaveatCannotReach, "%s: %d discordant pairs: the exact McNemar test needs >= %d to reach %g%s", what, discordant, McNemarNeeds(alpha), alpha, seeds)}
	case t.MinP >= alpha:
		return []Caveat{caveat(CaveatCannotReach, "%s: no outcome with these episodes could reach p < %g (smallest possible p = %.3g)", what, alpha, t.MinP)}
	case !t.Significant:
		return []Caveat{caveat(CaveatWithinNoise, "%s: within noise (p = %.3g >= %g)%s", what, t.P, alpha, seeds)}
	}
	return nil
}

// measureCaveats says when a tokens or turns result could not be
// significant, was not, or has no ratio. nonzero is the number of non-zero
// differences of a signed-rank test, −1 for a rank-sum test.
func measureCaveats(what string, m Measure, nonzero int, alpha float64) []Caveat {
	var out []Caveat
	switch t := m.Test; {
	case t.Name == TestNone:
	case nonzero == 0:
		out = append(out, caveat(CaveatNoDifference, "%s: unchanged in every pair (new equals old)", what))
	case t.MinP >= alpha && nonzero > 0:
		out = append(out, caveat(CaveatCannotReach, "%s: %d non-zero differences: the signed-rank test needs >= %d to reach %g", what, nonzero, McNemarNeeds(alpha), alpha))
	case t.MinP >= alpha:
		out = append(out, caveat(CaveatCannotReach, "%s: no outcome with these episodes could reach p < %g (smallest possible p = %.3g)", what, alpha, t.MinP))
	case !t.Significant:
		out = append(out, caveat(CaveatWithinNoise, "%s: within noise (p = %.3g >= %g)", what, t.P, alpha))
	}
	switch {
	case m.Ratio == nil:
		out = append(out, caveat(CaveatRatioUndefined, "%s: the old median is 0: no ratio", what))
	case m.Ratio.Interval == nil:
		out = append(out, caveat(CaveatUnbounded, "%s: some resamples have an old median of 0: the ratio's interval is unbounded", what))
	}
	return out
}

func tokensOf(o obs) float64 { return o.tokens }
func turnsOf(o obs) float64  { return o.turns }

// pairValues is a measure of a stratum's pairs, old and new.
func pairValues(s *stratum, value func(obs) float64) (old, new []float64) {
	old, new = make([]float64, len(s.pairs)), make([]float64, len(s.pairs))
	for i, p := range s.pairs {
		old[i], new[i] = value(p.old), value(p.new)
	}
	return old, new
}

// sideValues is a measure of an unpaired stratum's episodes, each side.
func sideValues(s *stratum, value func(obs) float64) (old, new []float64) {
	for _, o := range s.onlyOld {
		old = append(old, value(o))
	}
	for _, o := range s.onlyNew {
		new = append(new, value(o))
	}
	return old, new
}

// distinctSeeds is the number of distinct seeds of the strata's pairs.
func distinctSeeds(strata []*stratum) int {
	seen := map[int]bool{}
	for _, s := range strata {
		for _, p := range s.pairs {
			seen[p.seed] = true
		}
	}
	return len(seen)
}

func rate(passed, n int) float64 {
	if n == 0 {
		return 0
	}
	return float64(passed) / float64(n)
}

// variantLabel is what a variant adds to the label a bootstrap stream is
// seeded by: nothing without one, so that comparisons without variants
// keep their intervals.
func variantLabel(v string) string {
	if v == "" {
		return ""
	}
	return "/" + v
}
