package paired

import (
	"fmt"
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
