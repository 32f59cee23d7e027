package plan

import (
	"fmt"
	"io"
	"strings"

	"bench/internal/inert"
	"bench/internal/table"
	"bench/runner"
)

// WriteLines writes what goes before every run, and ends a dry run: the
// episodes and where they go, the models with their digests (servers are
// those the run was connected to, nil for a dry run), the most they may
// spend and the wall-time estimate.
func WriteLines(w io.Writer, pl Plan, s *runner.Session, servers []runner.Server, est *Estimator) {
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
	if m := ModelLine(s, servers != nil); m != "" {
		lines = append(lines, m)
	}
	lines = append(lines, "cost: "+pl.CostLine(), "wall time: "+est.Before(s.Pending()))
	for _, l := range lines {
		fmt.Fprintln(w, inert.Line(l))
	}
}

// WriteDry writes what bench run --dry-run prints: the plan as tables,
// what it may cost, then its lines (WriteLines).
func WriteDry(w io.Writer, pl Plan, s *runner.Session, est *Estimator) error {
	fmt.Fprintln(w, "bench run --dry-run: no server was asked and nothing was written")
	for _, t := range []func() ([]string, [][]string){pl.Dimensions, pl.Costs} {
		header, rows := t()
		fmt.Fprintln(w)
		if err := table.Write(w, table.Text, header, rows); err != nil {
			return err
		}
	}
	fmt.Fprintln(w)
	WriteLines(w, pl, s, nil, est)
	return nil
}

// ModelLine names every model of the run s with its digest (asked: the
// servers were asked, so run.json holds them), and the hybrid's
// run_workflow model; "" for a run that asks none.
func ModelLine(s *runner.Session, asked bool) string {
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
