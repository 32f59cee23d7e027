// Package report turns the episodes of one or more run folders into the
// tables, statistics and plot of `bench report`, and compares two sets of
// runs for `bench compare`. It reads only the results format (package
// record), the tracks' static facts (package trackfacts) and the lesson's
// questions (package lesson), never the code that runs episodes; a test
// over go list -deps holds it to that.
//
// It works in stages, each in its own file. aggregate.go streams the
// folders (record.Folder.Scan) into one Aggregate, a small record per
// episode with the verdict record gives it (passed, failed, lost,
// interrupted, inconsistent), each episode counted once per run identity.
// group.go sorts the records into cells (one per task, track, model and
// variant)
// and prepares what the tables read of each; order.go orders tracks and
// exit reasons. build.go computes a Report (report.go) from the cells:
// tracks.go the per-track headline, pairs.go the McNemar tests and token
// ratios of the tracks compared, pooled.go the agent's answer pooled over
// tasks, design.go the rows per task design, twins.go the twins of a seed,
// causes.go the causes of failures and the hybrid's delegation;
// variant.go, variantcompare.go and varianttables.go compare the values of
// a run's dimensions (--posture off,on) paired, per task and pooled;
// checknotes.go, config.go and footnotes.go say, as numbered footnotes,
// what was not counted or not taken at its word and where merged runs
// differ. stats.go and tests.go hold the statistics (gonum's stat and
// distuv; the paired and unpaired tests are package paired's), round.go rounds every figure. tables.go, text.go, csv.go,
// json.go and pooledwrite.go render a Report, loops.go collapses a
// tool sequence's loops. compare.go, comparepaired.go, comparegate.go and
// comparewrite.go compare two aggregates with package paired, decide the
// gate and render the comparison. observed.go and misses.go give bench
// check what the report counts and why a prediction missed; replay.go sums
// up a replay run. Every view is computed from an Aggregate, so that they
// agree on every figure.
//
// Output is deterministic: tasks sorted by name, tracks in trackfacts'
// order and then by name, bootstrap intervals drawn from a generator
// seeded by the task and tracks, and figures rounded to six significant
// digits. A figure that n = 0 leaves undefined is "–" (Undefined) in the
// tables and null in JSON.
//
// Below it, package figure draws the SVG plot (one file with two panels:
// pass rate with Wilson whiskers above, median tokens below), html is the
// self-contained page, paired the paired comparison across runs and its
// gate, output what the commands write, predict the prediction files and
// their scores, and transcript one episode as a readable transcript.
package report
