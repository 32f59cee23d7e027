// Package report turns the episodes of one or more runs into the tables,
// statistics and plots of bench's report, and compares two runs.
//
// Like benchstat it works in stages, each in its own file: group.go sorts
// plain record.Episode records into cells (one per task and track), leaving
// lost episodes (infrastructure errors) out of n and counting each episode
// of a run given twice once; verdict.go derives "passed" (test counts,
// grading timeouts, trajectory digests) and checknotes.go says what it did
// not take at its word; stats.go and tests.go hold the statistics (gonum's
// stat and distuv); build.go, pairs.go and twins.go compute a Report from
// the cells; tables.go, text.go, csv.go, json.go and plot.go render it;
// compare.go compares two sets of runs and comparewrite.go renders that.
// It reads plain records, so old runs stay readable.
//
// Output is deterministic: tasks sorted by name, tracks in the order
// workflow, workflow-retry, agent, oracle and then by name, bootstrap
// intervals drawn from a generator seeded by the task, and figures rounded
// to six significant digits. The SVG plot is one file with two panels (pass
// rate with Wilson whiskers above, median tokens below).
package report
