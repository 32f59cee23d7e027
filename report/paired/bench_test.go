package paired

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkCompareFourTasks compares 4 tasks × 8 seeds of one track: the
// issue's posture experiment.
func BenchmarkCompareFourTasks(b *testing.B) {
	old, new := fourTasks()
	for b.Loop() {
		if _, err := Compare(old, new, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompareSuite compares the 16-task suite on 3 tracks × 8 seeds
// (384 pairs), every cell with some discordance so that every
// SeedsNeeded search runs.
func BenchmarkCompareSuite(b *testing.B) {
	var old, new []Episode
	for task := range 16 {
		for _, track := range []string{"agent", "workflow", "hybrid"} {
			for seed := 1; seed <= 8; seed++ {
				name := fmt.Sprintf("t%02d", task)
				tokens := float64(1000*(task+1) + 37*seed)
				old = append(old, ep(name, track, seed, (seed+task)%3 != 0, tokens))
				new = append(new, ep(name, track, seed, (seed+task)%4 != 0, 1.1*tokens+float64(seed%5)))
			}
		}
	}
	b.ReportMetric(float64(len(old)), "pairs")
	for b.Loop() {
		if _, err := Compare(old, new, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBootstrapPooled draws 100 resamples of a pooled answer over 4
// tasks × 20,000 pairs (the size of a report over 240,000 episodes), by
// tallies as bootstrap does and by sorting each resample as it did
// (bootstrapBySort): ns/draw is the time per pair drawn.
func BenchmarkBootstrapPooled(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	var strata []*stratum
	for range 4 {
		s := &stratum{}
		for seed := range 20_000 {
			o := func() obs { return obs{rng.IntN(3) > 0, float64(900 + rng.IntN(100_000)), float64(1 + rng.IntN(25))} }
			s.pairs = append(s.pairs, pair{seed, o(), o()})
		}
		strata = append(strata, s)
	}
	const resamples = 100
	for _, way := range []struct {
		name string
		draw func([]*stratum, bool, int, *rand.Rand) replicates
	}{{"tally", bootstrap}, {"sort", bootstrapBySort}} {
		b.Run(way.name, func(b *testing.B) {
			for b.Loop() {
				way.draw(strata, true, resamples, rand.New(rand.NewPCG(1, 1)))
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(resamples*4*20_000), "ns/draw")
		})
	}
}
