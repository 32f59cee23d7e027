package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"bench/internal/inert"
	"bench/internal/table"
	"bench/plan"
	"bench/runner"
)

// typedDir is the run's folder as the user typed it: --resume's or
// --out's; "" when bench chose it.
func typedDir(c *cli.Context) string {
	if d := c.String("resume"); d != "" {
		return d
	}
	return c.String("out")
}

// estimator is the wall-time estimator of the run: from --calibrate's
// run when given, else from the episodes as they finish.
func estimator(c *cli.Context, s *runner.Session) (*plan.Estimator, error) {
	var models []string
	if runner.NeedsAnyModel(s.Run.Tracks) {
		models = s.ModelNames()
	}
	var cal *plan.Calibration
	if dir := c.String("calibrate"); dir != "" {
		var err error
		if cal, err = plan.LoadCalibration(dir, models); err != nil {
			return nil, err
		}
	}
	pl, err := plan.Of(s, typedDir(c))
	if err != nil {
		return nil, err
	}
	return plan.NewEstimator(pl.Workers, cal), nil
}

// dryRun prints the plan as tables and what it may cost, on stdout, and
// asks no server and writes nothing.
func dryRun(c *cli.Context, s *runner.Session, est *plan.Estimator) error {
	pl, err := plan.Of(s, typedDir(c))
	if err != nil {
		return err
	}
	w := c.App.Writer
	fmt.Fprintln(w, "bench run --dry-run: no server was asked and nothing was written")
	for _, t := range []func() ([]string, [][]string){pl.Dimensions, pl.Costs} {
		header, rows := t()
		fmt.Fprintln(w)
		if err := table.Write(w, table.Text, header, rows); err != nil {
			return err
		}
	}
	fmt.Fprintln(w)
	printPlanLines(w, pl, s, nil, est)
	return nil
}

// printPlanLines is what goes before every run, and ends a dry run: the
// episodes and where they go, the models with their digests, the most they
// may spend and the wall-time estimate.
func printPlanLines(w io.Writer, pl plan.Plan, s *runner.Session, servers []runner.Server, est *plan.Estimator) {
	head := fmt.Sprintf("bench run: %s (%s", pl.EpisodesPhrase(), pl.Dims())
	if sh := pl.Shard; sh != nil {
		head += fmt.Sprintf(", shard %s", sh)
	}
	head += ") into " + pl.Dir
	if len(servers) > 1 {
		head += fmt.Sprintf(", on %d servers (%d at once each)", len(servers), s.Slots())
	}
	if skipped := pl.Episodes - pl.Pending; skipped > 0 {
		head += fmt.Sprintf("; %d already finished", skipped)
	}
	lines := []string{head}
	if m := modelLine(s, servers != nil); m != "" {
		lines = append(lines, m)
	}
	lines = append(lines, "cost: "+pl.CostLine(), "wall time: "+est.Before(s.Pending()))
	for _, l := range lines {
		fmt.Fprintln(w, inert.Line(l))
	}
}

// modelLine names every model of the run with its digest (asked: the
// servers were asked, so run.json holds them), and the hybrid's
// run_workflow model; "" for a run that asks none.
func modelLine(s *runner.Session, asked bool) string {
	if !runner.NeedsAnyModel(s.Run.Tracks) {
		return ""
	}
	digest := func(d string) string {
		switch {
		case !asked:
			return "digest not asked: dry run"
		case d == "":
			return "digest unknown: the server named none"
		}
		d = strings.TrimPrefix(d, "sha256:")
		return "digest " + d[:min(len(d), 12)]
	}
	var parts []string
	for _, m := range s.Run.Models {
		parts = append(parts, fmt.Sprintf("%s (%s)", m.Name, digest(m.Digest)))
	}
	line := "model: " + s.Run.Backend + " " + strings.Join(parts, ", ")
	if len(parts) > 1 {
		line = "models: " + s.Run.Backend + " " + strings.Join(parts, ", ")
	}
	if wm := s.Run.WorkflowModel; wm != "" {
		line += fmt.Sprintf("; the hybrid's run_workflow asks %s (%s)", wm, digest(s.Run.WorkflowModelDigest))
	}
	return line
}

// goRunNote warns, when bench runs under `go run` (its binary in the go
// command's build cache), that go run reports the exit status 130 of an
// interrupted run as 1; "" otherwise.
func goRunNote(argv0 string) string {
	if !strings.Contains(filepath.ToSlash(argv0), "/go-build") {
		return ""
	}
	return "note: bench exits 130 here, but `go run` reports every failure as exit status 1; a script that tells an interrupt apart needs the built binary (go build -o bin/bench ./cmd/bench)"
}
