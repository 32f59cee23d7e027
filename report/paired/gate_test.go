package paired

import (
	"slices"
	"testing"
)

func rules(d Decision) []string {
	var out []string
	for _, r := range d.Reasons {
		out = append(out, r.Level+"/"+r.Task+"/"+r.Rule)
	}
	return out
}

func ptr(x float64) *float64 { return &x }

// fallingRun is 4 tasks × 8 seeds in which the new side fails seeds the
// old side passed: drop per task drops of them, tokens scaled by rise.
func fallingRun(drop int, rise float64) (old, new []Episode) {
	for ti, task := range []string{"t1", "t2", "t3", "t4"} {
		for seed := 1; seed <= 8; seed++ {
			tokens := float64(100*(ti+1) + seed)
			old = append(old, ep(task, "agent", seed, true, tokens))
			new = append(new, ep(task, "agent", seed, seed > drop, rise*tokens))
		}
	}
	return old, new
}

func TestGateSignificantPooledDrop(t *testing.T) {
	old, new := fallingRun(3, 1) // 12 discordant pairs, all against the new side
	c := mustCompare(t, old, new, Options{})
	d := Gate(c, GateOptions{})
	if !d.Regression || !slices.Equal(rules(d), []string{"pooled//" + RuleSignificantDrop}) {
		t.Fatalf("decision %+v, want one significant pooled drop", rules(d))
	}
	r := d.Reasons[0]
	if r.Measure != MeasurePassRate || !near(r.Effect, -12.0/32, 1e-12) || r.Family != 1 || r.AdjustedP != r.P || r.Test != TestStratifiedExact {
		t.Errorf("reason %+v, want the pooled fall of 12/32 in a family of 1", r)
	}
	// The per-task tests (3 discordant pairs each) cannot reach 0.05: the
	// gate says so instead of pretending it checked them.
	if !slices.ContainsFunc(d.Notes, func(c Caveat) bool { return c.Kind == CaveatCannotReach }) {
		t.Errorf("notes %v, want a %s note for the per-task tests", d.Notes, CaveatCannotReach)
	}
	if d.Checked != 5 {
		t.Errorf("checked %d results, want 4 cells and 1 pool", d.Checked)
	}
}

func TestGateNoChangeAndImprovement(t *testing.T) {
	old, _ := fallingRun(0, 1)
	if d := Gate(mustCompare(t, old, old, Options{}), GateOptions{MaxDrop: ptr(0), MaxTokenRise: ptr(0)}); d.Regression {
		t.Errorf("identical sides: %v", rules(d))
	}
	// The new side better, significantly: no regression.
	worse, better := fallingRun(3, 1)
	if d := Gate(mustCompare(t, better, worse, Options{}), GateOptions{}); d.Regression {
		t.Errorf("an improvement is a regression: %v", rules(d))
	}
}

func TestGateMaxDrop(t *testing.T) {
	old, new := fallingRun(0, 1)
	for i := range new { // t1 only: 2 of 8 seeds fail, a drop of 0.25, not significant
		if new[i].Task == "t1" && new[i].Seed <= 2 {
			new[i].Passed = false
		}
	}
	c := mustCompare(t, old, new, Options{})
	if d := Gate(c, GateOptions{}); d.Regression {
		t.Fatalf("a non-significant drop without --max-drop: %v (control)", rules(d))
	}
	d := Gate(c, GateOptions{MaxDrop: ptr(0.1)})
	if !d.Regression || !slices.Equal(rules(d), []string{"task/t1/" + RuleDropOverMax}) || d.Reasons[0].Limit != 0.1 {
		t.Errorf("--max-drop 0.1: %v, want t1's drop over the limit", rules(d))
	}
	// The pooled drop is 2/32 = 0.0625: under 0.1, over 0.05.
	d = Gate(c, GateOptions{MaxDrop: ptr(0.05)})
	if !slices.Contains(rules(d), "pooled//"+RuleDropOverMax) {
		t.Errorf("--max-drop 0.05: %v, want the pooled drop too", rules(d))
	}
	// A drop exactly at the limit is not more than it.
	if d := Gate(c, GateOptions{MaxDrop: ptr(0.25)}); d.Regression {
		t.Errorf("--max-drop 0.25 on a drop of 0.25: %v", rules(d))
	}
}

func TestGateTokenRise(t *testing.T) {
	old, new := fallingRun(0, 1.5) // every pair's tokens 1.5-fold
	c := mustCompare(t, old, new, Options{})
	if d := Gate(c, GateOptions{}); d.Regression {
		t.Fatalf("tokens without --max-token-rise: %v (control)", rules(d))
	}
	d := Gate(c, GateOptions{MaxTokenRise: ptr(0.2)})
	if !d.Regression || !slices.Contains(rules(d), "pooled//"+RuleTokenRise) {
		t.Fatalf("--max-token-rise 0.2: %v, want a pooled token rise", rules(d))
	}
	// Each task's 8 pairs rose too: p = 2/256 per task, Holm over 4.
	for _, r := range d.Reasons {
		if r.Level == LevelTask && (r.Family != 4 || !near(r.AdjustedP, 4*r.P, 1e-12)) {
			t.Errorf("task reason %+v, want Holm over a family of 4", r)
		}
	}
	if d := Gate(c, GateOptions{MaxTokenRise: ptr(0.6)}); d.Regression {
		t.Errorf("--max-token-rise 0.6 on a 1.5-fold rise: %v", rules(d))
	}
}

// handCells is a comparison of per-task pass-rate drops with the given
// p-values, each test able to reach 0.05 unless its min p says otherwise.
func handCells(ps, minPs []float64) Comparison {
	var c Comparison
	for i, p := range ps {
		c.Cells = append(c.Cells, CellResult{
			Cell: Cell{Task: string(rune('a' + i)), Track: "agent"},
			Pass: PassResult{Test: Test{Name: TestMcNemarExact, P: p, MinP: minPs[i]}, Difference: &Effect{Estimate: -0.3}},
		})
	}
	return c
}

func TestGateHolm(t *testing.T) {
	c := handCells([]float64{0.01, 0.03, 0.04, 1}, []float64{0.001, 0.001, 0.001, 0.0625})
	// Holm over the 3 reachable tests: 0.03, 0.06, 0.06; the fourth (min p
	// 0.0625) cannot be significant and is not in the family.
	d := Gate(c, GateOptions{})
	if !slices.Equal(rules(d), []string{"task/a/" + RuleSignificantDrop}) {
		t.Fatalf("Holm: %v, want only a", rules(d))
	}
	if r := d.Reasons[0]; r.Family != 3 || !near(r.AdjustedP, 0.03, 1e-12) {
		t.Errorf("reason %+v, want adjusted p 0.03 in a family of 3", r)
	}
	// Unadjusted (the control): all three fire.
	if d := Gate(c, GateOptions{Unadjusted: true}); len(d.Reasons) != 3 {
		t.Errorf("unadjusted: %v, want a, b and c", rules(d))
	}
	// Holm is step-down and monotone: 0.001, 0.012, 0.04 → 0.003, 0.024, 0.04.
	d = Gate(handCells([]float64{0.012, 0.001, 0.04}, []float64{0.001, 0.001, 0.001}), GateOptions{})
	if len(d.Reasons) != 3 {
		t.Errorf("step-down: %v, want all three", rules(d))
	}
}

func TestGateNothingCompared(t *testing.T) {
	d := Gate(mustCompare(t, nil, nil, Options{}), GateOptions{})
	if d.Regression || d.Checked != 0 || len(d.Notes) != 1 || d.Notes[0].Kind != CaveatNothingCompared {
		t.Errorf("nothing compared: %+v", d)
	}
}

func TestGateReasonsSorted(t *testing.T) {
	// Every seed fails in every task: per task p = 2/2^8, under 0.05 after
	// Holm over 4 (with 6 of 8 failing, 2/2^6 × 4 = 0.125 would not be).
	old, new := fallingRun(8, 1)
	d := Gate(mustCompare(t, old, new, Options{}), GateOptions{MaxDrop: ptr(0.5)})
	want := []string{
		"pooled//" + RuleDropOverMax, "pooled//" + RuleSignificantDrop,
		"task/t1/" + RuleDropOverMax, "task/t1/" + RuleSignificantDrop,
		"task/t2/" + RuleDropOverMax, "task/t2/" + RuleSignificantDrop,
		"task/t3/" + RuleDropOverMax, "task/t3/" + RuleSignificantDrop,
		"task/t4/" + RuleDropOverMax, "task/t4/" + RuleSignificantDrop,
	}
	if !slices.Equal(rules(d), want) {
		t.Errorf("reasons %v, want %v", rules(d), want)
	}
}
