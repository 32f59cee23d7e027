// Command synthrun writes a synthetic run folder of a realistic shape
// (package synth), to measure bench report on it as a process:
//
//	go run ./internal/synth/synthrun -n 200000 -o /tmp/run-200k
//	/usr/bin/time -f %M go run ./cmd/bench report /tmp/run-200k > /dev/null
package main

import (
	"flag"
	"fmt"
	"os"

	"bench/internal/synth"
)

func main() {
	n := flag.Int("n", 200_000, "episodes")
	out := flag.String("o", "", "the run folder to write (required)")
	seed := flag.Uint64("seed", 1, "the generator's seed")
	traj := flag.Bool("trajectories", false, "write every trajectory file too")
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "synthrun: -o DIR is required")
		os.Exit(2)
	}
	if _, err := synth.Write(*out, *n, synth.Options{Seed: *seed, Trajectories: *traj}); err != nil {
		fmt.Fprintln(os.Stderr, "synthrun:", err)
		os.Exit(1)
	}
}
