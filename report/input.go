package report

import "bench/results"

// Input is one run's records, as results.Read returns them.
type Input struct {
	Dir      string
	Run      results.Run
	Episodes []results.Episode
	Warnings []string // e.g. a torn last line that the reader skipped
}
