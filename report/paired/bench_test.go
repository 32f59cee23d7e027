package paired

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
)

// BenchmarkCompareFourTasks compares 4 tasks × 8 seeds of one track: the
// issue's posture experiment.
func BenchmarkCompareFourTasks(b *testing.B) {
	old, new := fourTasks()
	for b.Loop() {
		if _, err := Compare(slices.Values(old), slices.Values(new), Options{}); err != nil {
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
		if _, err := Compare(slices.Values(old), slices.Values(new), Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBootstrapPooled draws the 2000 resamples of a pooled answer
// over 4 tasks × 82,000 pairs, the size and shape of the agent against a
// workflow track in a report over 1,000,000 episodes (package synth: the
// workflow's tokens in a narrow band, the agent's spread over 2 to 25
// turns), its setup (ranks, bins, blocks) included, on GOMAXPROCS workers
// and on one. us/resample is the wall time per resample; ns/pair the wall
// time per pair a resample holds, the cost of drawing the pairs one by one
// it replaces (about 25 ns a pair on these cores, under load).
func BenchmarkBootstrapPooled(b *testing.B) {
	const tasks, pairs, resamples = 4, 82_000, DefaultResamples
	rng := rand.New(rand.NewPCG(1, 2))
	var strata []*stratum
	for range tasks {
		s := &stratum{}
		for seed := range pairs {
			turns := 2 + rng.IntN(24)
			old := obs{rng.IntN(2) == 0, float64(2400 + rng.IntN(700)), 1}
			new := obs{rng.IntN(5) > 0, float64(1400*turns + 110*turns*turns + rng.IntN(700)), float64(turns)}
			s.pairs = append(s.pairs, pair{seed, old, new})
		}
		strata = append(strata, s)
	}
	for _, procs := range []int{runtime.GOMAXPROCS(0), 1} {
		b.Run(fmt.Sprintf("procs-%d", procs), func(b *testing.B) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			for b.Loop() {
				bootstrap(strata, true, resamples, 1, "pooled/agent/m")
			}
			perResample := float64(b.Elapsed().Nanoseconds()) / float64(b.N) / resamples
			b.ReportMetric(perResample/1e3, "us/resample")
			b.ReportMetric(perResample/(tasks*pairs), "ns/pair")
		})
	}
}
