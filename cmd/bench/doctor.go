package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"

	"github.com/urfave/cli/v2"

	"bench/model"
	pf "bench/preflight"
	"bench/tasks"
)

func doctorCommand() *cli.Command {
	return &cli.Command{
		Name:      "doctor",
		Usage:     "check that a run can start: model server, model, tool support, python3, the sandbox, tasks",
		ArgsUsage: " ",
		Flags: append(modelFlags(),
			&cli.StringFlag{Name: "tracks", Aliases: []string{"track"}, Usage: "check only what these comma-separated tracks need (default: all)"},
			&cli.StringFlag{Name: "tasks", Aliases: []string{"task"}, Usage: "comma-separated tasks to give the oracle check, or all (default: those bench run takes)"},
			&cli.BoolFlag{Name: "think", Usage: "check that the model can think, as bench run --think needs"},
			&cli.StringFlag{Name: "workflow-model", Usage: "check also the hybrid's second model, as bench run --workflow-model asks it (without tools)"},
			sandboxFlag(),
			formatFlag("text", "json"),
			tasksDirFlag()),
		Description: "Prints one line per check, with the fix for each that fails, and exits 1 unless all pass.\n" +
			"--host and --model take comma-separated lists, as bench run does: every server and model is checked.\n" +
			"With --tracks, checks only what those tracks need: tool support only for a track that gives the\n" +
			"model tools (agent), no model server at all for oracle. bench run makes the same checks before it starts.\n\n" +
			"Examples:\n" +
			"  bench doctor\n" +
			"  bench doctor --tracks workflow                  # a model without tool support is fine\n" +
			"  bench doctor --host http://gpu1:11434,http://gpu2:11434 --model qwen3:8b,gemma3:4b\n" +
			"  bench doctor --tracks hybrid --workflow-model qwen3:1.7b     # the hybrid's second model too\n" +
			"  bench doctor --backend openai --host http://127.0.0.1:8080/v1 --model qwen3-8b",
		Action: doctorAction,
	}
}

// doctorAction runs the preflight of the chosen tracks and prints it.
func doctorAction(c *cli.Context) error {
	if c.Args().Present() {
		return usagef("doctor takes no arguments, got %q; bench doctor --help lists the flags", c.Args().First())
	}
	format, err := pickFormat(c, "text", "json")
	if err != nil {
		return err
	}
	tracks, err := pickTracks(c.String("tracks"), "--tracks")
	if err != nil {
		return err
	}
	all, err := tasks.Catalogue(c.String("tasks-dir"))
	if err != nil {
		return err
	}
	taskList, err := pickRunTasks(all, splitList(c.String("tasks")))
	if err != nil {
		return err
	}
	need := pf.NeedsOf(tracks)
	need.Think = c.Bool("think")
	if need.Sandbox, err = sandboxMode(c); err != nil {
		return err
	}
	mcfg, err := modelConfig(c)
	if err != nil {
		return err
	}
	models := splitList(c.String("model"))
	if wm := c.String("workflow-model"); wm != "" && !slices.Contains(models, wm) {
		models = append(models, wm)
		need.ToolFree = []string{wm}
	}
	servers := model.Servers(mcfg, hostList(c), models)
	checks := pf.Run(c.Context, servers, need, taskList)
	if format == "json" {
		err = writeChecksJSON(c.App.Writer, checks)
	} else {
		err = printChecks(c.App.Writer, checks)
	}
	if err != nil {
		return err
	}
	if !pf.OK(checks) {
		return cli.Exit("", 1)
	}
	return nil
}

// printChecks writes one line per check and a verdict.
func printChecks(w io.Writer, checks []pf.Check) error {
	for _, c := range checks {
		if _, err := fmt.Fprintln(w, c); err != nil {
			return err
		}
	}
	verdict := "ready: a run can start"
	if failed := pf.Failed(checks); len(failed) > 0 {
		verdict = fmt.Sprintf("not ready: %d check(s) failed", len(failed))
	}
	_, err := fmt.Fprintln(w, verdict)
	return err
}

// checkJSON is one check as `bench doctor --format json` prints it.
type checkJSON struct {
	Name   string `json:"name"`
	Status string `json:"status"` // pass, fail or skipped
	Text   string `json:"text"`
	Fix    string `json:"fix,omitempty"`
	Digest string `json:"digest,omitempty"` // the model's full digest
}

// writeChecksJSON writes the checks and whether a run can start.
func writeChecksJSON(w io.Writer, checks []pf.Check) error {
	out := struct {
		Ready  bool        `json:"ready"`
		Checks []checkJSON `json:"checks"`
	}{Ready: pf.OK(checks), Checks: []checkJSON{}}
	for _, c := range checks {
		out.Checks = append(out.Checks, checkJSON{Name: c.Name, Status: c.Status.String(), Text: c.Text, Fix: c.Fix, Digest: c.Digest})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
