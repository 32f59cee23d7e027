package paired

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// ep is an episode of task/track, seed, repeat 0, with a model "m".
func ep(task, track string, seed int, passed bool, tokens float64) Episode {
	return Episode{Task: task, Track: track, Model: "m", Seed: seed, Passed: passed, Tokens: tokens, Turns: 1 + float64(seed%3)}
}

// side builds a side from per-seed outcomes of one task and track: passes
// and tokens in seed order from 1.
func side(task, track string, passed []bool, tokens []float64) []Episode {
	var out []Episode
	for i := range passed {
		out = append(out, ep(task, track, i+1, passed[i], tokens[i]))
	}
	return out
}

func mustCompare(t *testing.T, old, new []Episode, o Options) Comparison {
	t.Helper()
	c, err := Compare(slices.Values(old), slices.Values(new), o)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := json.Marshal(c); err != nil { // no NaN or Inf anywhere
		t.Fatalf("the comparison does not encode as JSON: %v", err)
	}
	return c
}

func kinds(cs []Caveat) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Kind)
	}
	return out
}

func TestPairingKeysUnpairedAndDuplicates(t *testing.T) {
	old := []Episode{
		ep("a", "agent", 1, true, 10), ep("a", "agent", 2, false, 20), ep("a", "agent", 3, true, 30),
		ep("a", "agent", 2, true, 99), // a duplicate key: not used
		ep("b", "agent", 1, true, 10), // cell b only on the old side
	}
	new := []Episode{
		ep("a", "agent", 1, true, 11), ep("a", "agent", 2, true, 21), ep("a", "agent", 4, false, 41),
		{Task: "a", Track: "agent", Model: "m", Seed: 1, Repeat: 1, Passed: true, Tokens: 12}, // a twin: repeat 1
		ep("c", "agent", 1, false, 5),
	}
	c := mustCompare(t, old, new, Options{})
	p := c.Pairing
	key := func(task string, seed, repeat int) Key {
		return Key{Task: task, Track: "agent", Model: "m", Seed: seed, Repeat: repeat}
	}
	if p.Pairs != 2 {
		t.Errorf("pairs = %d, want 2 (a seed 1 and a seed 2)", p.Pairs)
	}
	if want := []Key{key("a", 3, 0), key("b", 1, 0)}; !reflect.DeepEqual(p.OnlyOld, want) {
		t.Errorf("only old = %v, want %v", p.OnlyOld, want)
	}
	if want := []Key{key("a", 1, 1), key("a", 4, 0), key("c", 1, 0)}; !reflect.DeepEqual(p.OnlyNew, want) {
		t.Errorf("only new = %v, want %v", p.OnlyNew, want)
	}
	if want := []Key{key("a", 2, 0)}; !reflect.DeepEqual(p.DuplicateOld, want) {
		t.Errorf("duplicate old = %v, want %v", p.DuplicateOld, want)
	}
	if want := []Cell{{Task: "b", Track: "agent", Model: "m"}}; !reflect.DeepEqual(p.OnlyOldCells, want) {
		t.Errorf("only-old cells = %v, want %v", p.OnlyOldCells, want)
	}
	if len(c.Cells) != 1 || c.Cells[0].Task != "a" || !c.Cells[0].Paired || c.Cells[0].LeftOutOld != 1 || c.Cells[0].LeftOutNew != 2 {
		t.Fatalf("cells = %+v, want one paired cell a with 1 old and 2 new left out", c.Cells)
	}
	if !slices.Contains(kinds(c.Cells[0].Caveats), CaveatLeftOut) || !slices.Contains(kinds(c.Caveats), CaveatDuplicates) {
		t.Errorf("caveats %v and %v, want %s and %s", kinds(c.Cells[0].Caveats), kinds(c.Caveats), CaveatLeftOut, CaveatDuplicates)
	}
	// The duplicate's later episode (passed, 99 tokens) is not the one used.
	if tb := c.Cells[0].Pass.Table; tb.OnlyNew != 1 || tb.Both != 1 || tb.OldPass != 1 {
		t.Errorf("table %+v: the first episode of the duplicated key must be used", tb)
	}
	if got := key("a", 1, 1).String(); got != "a/agent/m/seed-1-r1" {
		t.Errorf("Key.String() = %q", got)
	}
}

func TestPairingAcrossModelsAndTracks(t *testing.T) {
	old := side("t", "agent", []bool{true, false, true}, []float64{1, 2, 3})
	new := side("t", "agent", []bool{true, true, true}, []float64{1, 2, 3})
	for i := range new {
		new[i].Model = "other"
	}
	if c := mustCompare(t, old, new, Options{}); len(c.Cells) != 0 || c.Pairing.Pairs != 0 || !slices.Contains(kinds(c.Caveats), CaveatNothingCompared) {
		t.Errorf("different models keyed by model: %+v, want nothing compared", c)
	}
	c := mustCompare(t, old, new, Options{AcrossModels: true})
	if c.Pairing.Pairs != 3 || len(c.Cells) != 1 || c.Cells[0].Model != "" {
		t.Errorf("across models: %+v, want 3 pairs in one cell without a model", c.Pairing)
	}
	// Agent against workflow in one run: across tracks.
	wf := side("t", "workflow", []bool{false, false, true}, []float64{1, 1, 1})
	c = mustCompare(t, wf, old, Options{AcrossTracks: true})
	if c.Pairing.Pairs != 3 || c.Cells[0].Track != "" || c.Cells[0].Pass.Table.OnlyNew != 1 {
		t.Errorf("across tracks: %+v, want 3 pairs, one only the agent passed", c.Cells[0].Pass.Table)
	}
}

func TestCellPairedTests(t *testing.T) {
	passOld := []bool{true, true, false, false, true, false, true, false}
	passNew := []bool{true, false, true, true, true, true, true, true}
	tokOld := []float64{100, 120, 90, 300, 150, 150, 80, 200}
	tokNew := []float64{130, 120, 95, 250, 190, 210, 85, 260}
	c := mustCompare(t, side("t", "agent", passOld, tokOld), side("t", "agent", passNew, tokNew), Options{})
	r := c.Cells[0]
	// Discordant pairs counted here: old-only seed 2; new-only seeds 3, 4, 6, 8.
	if r.Pass.Test.Name != TestMcNemarExact || r.Pass.Table.OnlyOld != 1 || r.Pass.Table.OnlyNew != 4 {
		t.Fatalf("pass = %+v, want McNemar of 1 against 4", r.Pass)
	}
	if want := enumCoins(5).atMostAsLikelyRat(4); !near(r.Pass.Test.P, want, 1e-12) {
		t.Errorf("pass p = %v, enumeration %v", r.Pass.Test.P, want)
	}
	if d := r.Pass.Difference; d == nil || !near(d.Estimate, 3.0/8, 1e-12) || d.Method != IntervalNewcombePaired || d.Interval == nil {
		t.Errorf("difference = %+v, want 3/8 with Newcombe's interval", d)
	}
	if r.Tokens.Test.Name != TestWilcoxonExact || !near(r.Tokens.Test.P, enumSignedRank(t, tokOld, tokNew), 1e-12) {
		t.Errorf("tokens = %+v, want the exact signed-rank p %v", r.Tokens.Test, enumSignedRank(t, tokOld, tokNew))
	}
	// Medians: old 135 (120, 150), new 160 (130, 190).
	if r.Tokens.OldMedian != 135 || r.Tokens.NewMedian != 160 || r.Tokens.Ratio == nil || !near(r.Tokens.Ratio.Estimate, 160.0/135, 1e-12) {
		t.Errorf("token medians %v → %v ratio %+v, want 135 → 160", r.Tokens.OldMedian, r.Tokens.NewMedian, r.Tokens.Ratio)
	}
	if iv := r.Tokens.Ratio.Interval; iv == nil || iv.Low > r.Tokens.Ratio.Estimate || iv.High < r.Tokens.Ratio.Estimate {
		t.Errorf("token ratio interval %v does not hold the estimate %v", iv, r.Tokens.Ratio.Estimate)
	}
	if r.Pass.Seeds == nil || r.Pass.Seeds.SeedsNow != 8 || r.Pass.Seeds.PairsPerSeed != 1 {
		t.Errorf("seeds = %+v, want 8 seeds now, 1 pair each", r.Pass.Seeds)
	}
	// 5 discordant pairs cannot reach 0.05.
	if !slices.Contains(kinds(r.Caveats), CaveatCannotReach) {
		t.Errorf("caveats %v, want %s", kinds(r.Caveats), CaveatCannotReach)
	}
}

func TestCellUnpairedFallsBack(t *testing.T) {
	old := side("t", "agent", []bool{false, false, true, false}, []float64{10, 20, 30, 40})
	new := side("t", "agent", []bool{true, true, true, true}, []float64{50, 60, 70, 80})
	for i := range new {
		new[i].Seed += 10 // other seeds: no pair
	}
	r := mustCompare(t, old, new, Options{}).Cells[0]
	if r.Paired || r.Pass.Test.Name != TestFisherExact || r.Tokens.Test.Name != TestMannWhitneyExact || r.Turns.Test.Name != TestMannWhitneyExact {
		t.Fatalf("unpaired cell tested with %s / %s, want Fisher and Mann-Whitney", r.Pass.Test.Name, r.Tokens.Test.Name)
	}
	if want := enumTable(4, 4, 5).atMostAsLikelyRat(4); !near(r.Pass.Test.P, want, 1e-12) {
		t.Errorf("Fisher p = %v, enumeration %v", r.Pass.Test.P, want)
	}
	if want := enumRankSum(t, []float64{10, 20, 30, 40}, []float64{50, 60, 70, 80}); !near(r.Tokens.Test.P, want, 1e-12) {
		t.Errorf("Mann-Whitney p = %v, enumeration %v", r.Tokens.Test.P, want)
	}
	if r.Pass.Difference == nil || r.Pass.Difference.Method != IntervalNewcombeIndependent || !near(r.Pass.Difference.Estimate, 0.75, 1e-12) {
		t.Errorf("difference = %+v, want 0.75 with Newcombe's independent interval", r.Pass.Difference)
	}
	if r.Pass.Seeds != nil || !slices.Contains(kinds(r.Caveats), CaveatUnpaired) {
		t.Errorf("unpaired cell: seeds %+v, caveats %v; want no seeds and %s", r.Pass.Seeds, kinds(r.Caveats), CaveatUnpaired)
	}
}

// fourTasks is a run of 4 tasks × 8 seeds in which the new side passes
// more often: discordant pairs 1 against 2 in every task.
func fourTasks() (old, new []Episode) {
	for ti, task := range []string{"t1", "t2", "t3", "t4"} {
		for seed := 1; seed <= 8; seed++ {
			o := seed <= 4 // old passes seeds 1–4
			n := seed <= 6 // new passes seeds 1–6 …
			if seed == 4 { // … except seed 4
				n = false
			}
			scale := float64(100 * (ti + 1))
			old = append(old, ep(task, "agent", seed, o, scale+float64(seed)))
			new = append(new, ep(task, "agent", seed, n, 1.3*scale+float64(seed)))
		}
	}
	return old, new
}

func TestPooledPairsIsMcNemarOfSummedDiscordants(t *testing.T) {
	old, new := fourTasks()
	c := mustCompare(t, old, new, Options{})
	if len(c.Pooled) != 1 || len(c.Cells) != 4 {
		t.Fatalf("%d pooled, %d cells; want 1 and 4", len(c.Pooled), len(c.Cells))
	}
	p := c.Pooled[0]
	if p.Pass.Table.OnlyOld != 4 || p.Pass.Table.OnlyNew != 8 || p.Pass.Table.Pairs != 32 {
		t.Fatalf("pooled table %+v, want 4 against 8 of 32 pairs", p.Pass.Table)
	}
	if want := enumCoins(12).atMostAsLikelyRat(8); p.Pass.Test.Name != TestStratifiedExact || !near(p.Pass.Test.P, want, 1e-12) || !near(p.Pass.Test.P, McNemar(4, 8).P, 1e-12) {
		t.Errorf("pooled test %+v, want the exact McNemar p %v of 4 against 8", p.Pass.Test, want)
	}
	d := p.Pass.Difference
	iv, _ := NewcombePaired(p.Pass.Table, z95)
	if d == nil || !near(d.Estimate, 4.0/32, 1e-12) || d.Method != IntervalNewcombePaired || *d.Interval != iv || d.OverTasks == nil {
		t.Errorf("pooled difference %+v, want 4/32 with Newcombe's interval %v and one over tasks", d, iv)
	}
	// Tokens rose 1.3-fold in every task: the stratified signed-rank test
	// sees 32 positive differences ranked within their tasks.
	if p.Tokens.Test.Name != TestStratifiedWilcoxon || !near(p.Tokens.Test.P, 2/math.Pow(2, 32), 1e-20) {
		t.Errorf("pooled tokens %+v, want exact p 2/2^32", p.Tokens.Test)
	}
	if p.Tokens.Ratio == nil || p.Tokens.Ratio.Method != IntervalBootstrapTasks || p.Tokens.Ratio.Interval == nil {
		t.Errorf("pooled token ratio %+v, want a bootstrap over tasks and seeds", p.Tokens.Ratio)
	}
	if p.Pass.Seeds == nil || p.Pass.Seeds.SeedsNow != 8 || p.Pass.Seeds.PairsPerSeed != 4 || p.Pass.Seeds.Seeds == 0 {
		t.Errorf("pooled seeds %+v, want 8 seeds now, 4 pairs per seed and an answer", p.Pass.Seeds)
	}
	if !slices.Contains(kinds(p.Caveats), CaveatWithinNoise) || !slices.Contains(kinds(p.Caveats), CaveatFewTasks) {
		t.Errorf("pooled caveats %v, want %s and %s", kinds(p.Caveats), CaveatWithinNoise, CaveatFewTasks)
	}
	// The sentence README.md quotes.
	want := "pooled pass rate: within noise (p = 0.388 >= 0.05): 50 seeds per task (now 8) would detect a change of 0.125 with power 0.8"
	if !slices.ContainsFunc(p.Caveats, func(c Caveat) bool { return c.Text == want }) {
		t.Errorf("pooled caveats %v, want %q", p.Caveats, want)
	}
}

func TestPooledMixedStrata(t *testing.T) {
	old, new := fourTasks()
	for i := range new { // task t4 of the new side on other seeds: unpaired
		if new[i].Task == "t4" {
			new[i].Seed += 100
		}
	}
	c := mustCompare(t, old, new, Options{})
	p := c.Pooled[0]
	if p.PairedTasks != 3 || p.UnpairedTasks != 1 {
		t.Fatalf("pooled strata %d paired, %d unpaired; want 3 and 1", p.PairedTasks, p.UnpairedTasks)
	}
	// Exact: 3 + 6 coins of the paired tasks' discordant pairs, convolved
	// with the hypergeometric table of t4 (old 4/8, new 5/8).
	want := convolveRat(enumCoins(9), enumTable(8, 8, 9)).atMostAsLikelyRat(6 + 5)
	if !near(p.Pass.Test.P, want, 1e-12) {
		t.Errorf("mixed pooled p = %v, enumeration %v", p.Pass.Test.P, want)
	}
	// Mantel-Haenszel: the pairs weigh ½ each (24 pairs, 6 new-only
	// against 3 old-only), the table 8·8/16 = 4 (change 5/8 − 4/8).
	mh := (0.5*(6-3) + 4*(1.0/8)) / (0.5*24 + 4)
	if d := p.Pass.Difference; !near(d.Estimate, mh, 1e-12) || d.Method != IntervalBootstrapTasks || d.OverTasks != nil {
		t.Errorf("mixed difference %+v, want the Mantel-Haenszel %v with a bootstrap interval", d, mh)
	}
	if !slices.Contains(kinds(p.Caveats), CaveatUnpairedStrata) {
		t.Errorf("caveats %v, want %s", kinds(p.Caveats), CaveatUnpairedStrata)
	}
	if p.Tokens.Test.N != 24 {
		t.Errorf("pooled token test over %d pairs, want the 24 of the paired tasks", p.Tokens.Test.N)
	}
}

func TestPooledOneStratumIsTheCell(t *testing.T) {
	old, new := fourTasks()
	keep := func(eps []Episode) []Episode {
		return slices.DeleteFunc(slices.Clone(eps), func(e Episode) bool { return e.Task != "t2" })
	}
	c := mustCompare(t, keep(old), keep(new), Options{})
	cell, pool := c.Cells[0], c.Pooled[0]
	if pool.Pass.Test.P != cell.Pass.Test.P || pool.Tokens.Test.P != cell.Tokens.Test.P || pool.Turns.Test.P != cell.Turns.Test.P {
		t.Errorf("one stratum: pooled p %v/%v/%v, cell %v/%v/%v", pool.Pass.Test.P, pool.Tokens.Test.P, pool.Turns.Test.P, cell.Pass.Test.P, cell.Tokens.Test.P, cell.Turns.Test.P)
	}
	if pool.Tokens.Ratio.Method != IntervalBootstrapSeeds || *pool.Pass.Difference.Interval != *cell.Pass.Difference.Interval {
		t.Errorf("one stratum: pooled %+v / %+v, cell %+v", pool.Tokens.Ratio, pool.Pass.Difference, cell.Pass.Difference)
	}
}

func TestPooledUnequalStrataAndGroups(t *testing.T) {
	var old, new []Episode
	for seed := 1; seed <= 12; seed++ { // a big task
		old = append(old, ep("big", "agent", seed, seed%2 == 0, 500))
		new = append(new, ep("big", "agent", seed, seed%3 != 0, 600))
	}
	old = append(old, ep("tiny", "agent", 1, false, 10)) // a task of one pair
	new = append(new, ep("tiny", "agent", 1, true, 12))
	old = append(old, ep("big", "workflow", 1, true, 50)) // another track: its own pool
	new = append(new, ep("big", "workflow", 1, true, 50))
	c := mustCompare(t, old, new, Options{})
	if len(c.Pooled) != 2 || c.Pooled[0].Track != "agent" || c.Pooled[1].Track != "workflow" {
		t.Fatalf("pools %+v, want agent and workflow", c.Pooled)
	}
	a := c.Pooled[0]
	b, cc := a.Pass.Table.OnlyOld, a.Pass.Table.OnlyNew
	if a.Tasks != 2 || a.Pass.Table.Pairs != 13 || !near(a.Pass.Test.P, enumCoins(b+cc).atMostAsLikelyRat(cc), 1e-12) {
		t.Errorf("agent pool %+v, want 13 pairs over 2 tasks tested as McNemar", a.Pass)
	}
	w := c.Pooled[1]
	if w.Pass.Test.P != 1 || !slices.Contains(kinds(w.Caveats), CaveatNoDifference) {
		t.Errorf("workflow pool of one concordant pair: %+v %v", w.Pass.Test, kinds(w.Caveats))
	}
	if !slices.Contains(kinds(w.Caveats), "no_difference") || w.Tokens.Test.P != 1 {
		t.Errorf("workflow tokens %+v, want p 1 and no difference", w.Tokens.Test)
	}
}

func TestCompareSmallAndEmpty(t *testing.T) {
	if c := mustCompare(t, nil, nil, Options{}); len(c.Cells) != 0 || len(c.Pooled) != 0 || !slices.Contains(kinds(c.Caveats), CaveatNothingCompared) {
		t.Errorf("nothing: %+v", c)
	}
	one := []Episode{ep("t", "agent", 1, true, 0)}
	if c := mustCompare(t, one, nil, Options{}); len(c.Cells) != 0 || len(c.Pairing.OnlyOld) != 1 || len(c.Pairing.OnlyOldCells) != 1 {
		t.Errorf("one side empty: %+v", c)
	}
	for n := 1; n <= 3; n++ { // n = 1, 2, 3 pairs, tokens 0 on the old side: no ratio
		var old, new []Episode
		for s := 1; s <= n; s++ {
			old = append(old, ep("t", "agent", s, false, 0))
			new = append(new, ep("t", "agent", s, true, 5))
		}
		c := mustCompare(t, old, new, Options{})
		r := c.Cells[0]
		if r.Pass.Test.P != McNemar(0, n).P || r.Tokens.Ratio != nil || !slices.Contains(kinds(r.Caveats), CaveatRatioUndefined) {
			t.Errorf("n = %d: %+v %v", n, r.Pass.Test, kinds(r.Caveats))
		}
		if r.Tokens.Test.P != math.Min(1, 2/math.Pow(2, float64(n))) {
			t.Errorf("n = %d: token p %v, want 2/2^n", n, r.Tokens.Test.P)
		}
	}
	// Some resamples with an old median of 0: the ratio stands, its
	// interval does not.
	old := side("t", "agent", []bool{true, true, true}, []float64{0, 10, 20})
	new := side("t", "agent", []bool{true, true, true}, []float64{5, 15, 25})
	r := mustCompare(t, old, new, Options{}).Cells[0]
	if r.Tokens.Ratio == nil || r.Tokens.Ratio.Interval != nil || !slices.Contains(kinds(r.Caveats), CaveatUnbounded) {
		t.Errorf("old tokens 0, 10, 20: ratio %+v, caveats %v; want a ratio without interval", r.Tokens.Ratio, kinds(r.Caveats))
	}
}

func TestCompareRejectsBadInput(t *testing.T) {
	good := []Episode{ep("t", "agent", 1, true, 1)}
	for _, c := range []struct {
		name     string
		old, new []Episode
		o        Options
	}{
		{"NaN tokens", []Episode{{Task: "t", Tokens: math.NaN()}}, good, Options{}},
		{"negative turns", good, []Episode{{Task: "t", Turns: -1}}, Options{}},
		{"infinite tokens", good, []Episode{{Task: "t", Tokens: math.Inf(1)}}, Options{}},
		{"alpha 1", good, good, Options{Alpha: 1}},
		{"confidence 2", good, good, Options{Confidence: 2}},
		{"effect 1.5", good, good, Options{Effect: 1.5}},
		{"negative effect", good, good, Options{Effect: -0.1}},
		{"power NaN", good, good, Options{Power: math.NaN()}},
		{"3 resamples", good, good, Options{Resamples: 3}},
	} {
		if _, err := Compare(slices.Values(c.old), slices.Values(c.new), c.o); err == nil {
			t.Errorf("%s: no error", c.name)
		}
	}
}

func TestCompareIsDeterministic(t *testing.T) {
	old, new := fourTasks()
	a := mustCompare(t, old, new, Options{Seed: 7})
	slices.Reverse(old) // the order of the input does not matter
	b := mustCompare(t, old, new, Options{Seed: 7})
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if string(ja) != string(jb) {
		t.Error("the same data and seed gave different comparisons")
	}
	c := mustCompare(t, old, new, Options{Seed: 8})
	// So few distinct values give few distinct intervals: some seeds give
	// the same, but not every interval of every seed.
	if jc, _ := json.Marshal(c); string(jc) == string(ja) {
		t.Error("another seed gave the same bootstrap intervals: is the seed used?")
	}
}

func TestCompareRandomInputs(t *testing.T) {
	// Random sides (few tasks, seeds and repeats, tokens often 0 or tied)
	// must give a comparison that encodes, with every p in [0, 1], every
	// interval ordered and every episode either paired, left out, or in an
	// unpaired cell.
	rng := rand.New(rand.NewPCG(21, 22))
	for trial := range 60 {
		mk := func() []Episode {
			var out []Episode
			for range rng.IntN(40) {
				out = append(out, Episode{
					Task: []string{"a", "b", "c"}[rng.IntN(3)], Track: []string{"agent", "workflow"}[rng.IntN(2)], Model: "m",
					Seed: 1 + rng.IntN(6), Repeat: rng.IntN(2), Passed: rng.IntN(2) == 0,
					Tokens: float64(rng.IntN(4) * 100), Turns: float64(rng.IntN(3)),
				})
			}
			return out
		}
		old, new := mk(), mk()
		c := mustCompare(t, old, new, Options{Seed: uint64(trial), Resamples: 200})
		check := func(where string, ts ...Test) {
			for _, x := range ts {
				if !(x.P >= 0 && x.P <= 1 && x.MinP >= 0 && x.MinP <= 1) || x.MinP > x.P+1e-12 {
					t.Errorf("trial %d %s: test %+v out of range", trial, where, x)
				}
			}
		}
		ordered := func(where string, e *Effect) {
			if e != nil && e.Interval != nil && e.Interval.Low > e.Interval.High {
				t.Errorf("trial %d %s: interval %v", trial, where, *e.Interval)
			}
		}
		used := 0
		for _, r := range c.Cells {
			check("cell", r.Pass.Test, r.Tokens.Test, r.Turns.Test)
			ordered("cell pass", r.Pass.Difference)
			ordered("cell tokens", r.Tokens.Ratio)
			used += r.Pass.Table.OldN + r.LeftOutOld
		}
		for _, p := range c.Pooled {
			check("pooled", p.Pass.Test, p.Tokens.Test, p.Turns.Test)
			ordered("pooled pass", p.Pass.Difference)
		}
		onlyOldCells := 0
		for _, k := range c.Pairing.OnlyOld {
			if slices.Contains(c.Pairing.OnlyOldCells, k.cell()) {
				onlyOldCells++
			}
		}
		if want := len(old) - countDupEpisodes(old); used+onlyOldCells != want {
			t.Errorf("trial %d: %d old episodes accounted for, want the %d distinct keys", trial, used+onlyOldCells, want)
		}
	}
}

// countDupEpisodes is the number of episodes of a side beyond the first
// of their key.
func countDupEpisodes(eps []Episode) int {
	seen := map[Key]bool{}
	n := 0
	for _, e := range eps {
		k := Key{e.Task, e.Track, e.Model, e.Variant, e.Seed, e.Repeat}
		if seen[k] {
			n++
		}
		seen[k] = true
	}
	return n
}

// TestPooledOnlySamePooled checks that PooledOnly computes no cell and
// the same pooled answers, field for field.
func TestPooledOnlySamePooled(t *testing.T) {
	old, new := fourTasks()
	all := mustCompare(t, old, new, Options{Seed: 3})
	only := mustCompare(t, old, new, Options{Seed: 3, PooledOnly: true})
	if len(only.Cells) != 0 || len(all.Cells) == 0 {
		t.Fatalf("%d cells with PooledOnly, %d without; want 0 and some", len(only.Cells), len(all.Cells))
	}
	a, _ := json.Marshal(all.Pooled)
	b, _ := json.Marshal(only.Pooled)
	if string(a) != string(b) {
		t.Errorf("pooled answers differ:\n%s\n%s", a, b)
	}
}

// TestPooledMediansOfTestedEpisodes checks that the pooled medians, and so
// the ratio, are over the episodes tested (a paired task's pairs, an
// unpaired task's episodes), not over a paired task's episodes left out.
func TestPooledMediansOfTestedEpisodes(t *testing.T) {
	old := []Episode{ep("t1", "a", 1, true, 10), ep("t1", "a", 2, true, 20), ep("t1", "a", 3, true, 30), ep("t1", "a", 9, true, 1000), ep("t2", "a", 5, true, 40)}
	new := []Episode{ep("t1", "a", 1, true, 100), ep("t1", "a", 2, true, 200), ep("t1", "a", 3, true, 300), ep("t1", "a", 8, true, 5000), ep("t2", "a", 6, true, 400)}
	p := mustCompare(t, old, new, Options{}).Pooled[0]
	// Tested: t1's pairs (seeds 1–3) and t2's unpaired episodes; not t1's seeds 8 and 9.
	if p.Tokens.OldMedian != 25 || p.Tokens.NewMedian != 250 {
		t.Errorf("pooled token medians %v and %v, want 25 (10 20 30 40) and 250 (100 200 300 400)", p.Tokens.OldMedian, p.Tokens.NewMedian)
	}
}
