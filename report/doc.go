// Package report turns the episodes of one or more runs into the tables,
// statistics and plots of bench's report.
//
// Like benchstat it works in stages, each in its own file: group.go sorts
// plain results.Episode records into cells (one per task and track),
// stats.go holds the statistics (gonum's stat and distuv), build.go computes
// a Report from the cells, and text.go, csv.go, json.go and plot.go render
// it. The package never imports the runner or the tracks: it reads plain
// records, so old runs stay readable.
package report
