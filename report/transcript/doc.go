// Package transcript renders one episode's trajectory as a transcript a
// person can read (and paste into course material), lists the episodes of a
// run folder, and lines up twin episodes step by step to show where they
// diverge.
//
// Like package report it reads plain results records (run.json,
// episodes.jsonl, trajectories/…/seed-<s>[-r<k>].jsonl) and never imports
// the runner or the tracks, so old runs stay readable. Files: entries.go
// finds and selects episodes, load.go reads a trajectory, write.go renders a
// transcript in text or Markdown (through style.go), calls.go prints tool
// calls, testout.go picks the key lines of test output, diff.go compares
// twins.
package transcript
