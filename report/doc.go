// Package report turns the episodes of one or more run folders into the
// tables, statistics and plots of bench's report, and compares two sets of
// runs. It reads only the results format (package record) and the tracks'
// static facts (package trackfacts), never the code that runs episodes.
//
// It works in stages, each in its own file: aggregate.go streams the
// folders into one Aggregate, a small record per episode with the verdict
// record gives it (passed, failed, lost, interrupted, inconsistent), each
// episode counted once per run identity; group.go sorts the records into
// cells (one per task, track and model) and prepares what the tables read
// of each; build.go, pairs.go, twins.go, tracks.go and design.go compute a
// Report from the cells, checknotes.go says what was not counted or not
// taken at its word; stats.go and tests.go hold the statistics (gonum's
// stat and distuv); tables.go, text.go, csv.go, json.go and plot.go render
// a Report; compare.go compares two aggregates and comparewrite.go renders
// that; observed.go gives check what the report counts. Every view is
// computed from an Aggregate, so that they agree on every figure.
//
// Output is deterministic: tasks sorted by name, tracks in trackfacts'
// order and then by name, bootstrap intervals drawn from a generator
// seeded by the task, and figures rounded to six significant digits. A
// figure n = 0 leaves undefined is "–" in the tables and null in JSON. The
// SVG plot is one file with two panels (pass rate with Wilson whiskers
// above, median tokens below).
package report
