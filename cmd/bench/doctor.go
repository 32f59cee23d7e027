package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"bench/model"
	"bench/tasks"
)

// Names of the preflight checks, in the order they run.
const (
	checkServer  = "server"
	checkVersion = "version"
	checkModel   = "model"
	checkTools   = "tools"
	checkPython  = "python3"
	checkTasks   = "tasks"
)

// minOllama is the oldest Ollama with tool calling (0.3.0).
var minOllama = [3]int{0, 3, 0}

// check is one line of the preflight: what was checked, whether it holds,
// and, when it does not, the command that fixes it.
type check struct {
	Name   string
	OK     bool
	Detail string
	Fix    string
}

// String renders the check as one line with ✓ or ✗.
func (c check) String() string {
	mark := "✓"
	if !c.OK {
		mark = "✗"
	}
	s := fmt.Sprintf("%s %-8s %s", mark, c.Name, c.Detail)
	if !c.OK && c.Fix != "" {
		s += " — fix: " + c.Fix
	}
	return s
}

func doctorCommand() *cli.Command {
	return &cli.Command{
		Name:      "doctor",
		Usage:     "check that a run can start: model server, model, tool support, python3, tasks",
		Flags:     append(modelFlags(), tasksDirFlag()),
		ArgsUsage: " ",
		Description: "Prints one line per check, with the fix for each that fails, and exits 1 unless all pass.\n" +
			"bench run makes the same checks before it starts.\n\n" +
			"Examples:\n" +
			"  bench doctor\n" +
			"  bench doctor --backend openai --host http://127.0.0.1:8080/v1 --model qwen3-8b",
		Action: func(c *cli.Context) error {
			if c.Args().Present() {
				return fmt.Errorf("doctor takes no arguments, got %q; bench doctor --help lists the flags", c.Args().First())
			}
			taskList, err := loadTasks(c.String("tasks-dir"))
			if err != nil {
				return err
			}
			checks, ok := preflight(c.Context, modelConfig(c), needs{model: true, tools: true}, taskList)
			if err := printChecks(c.App.Writer, checks, ok); err != nil {
				return err
			}
			if !ok {
				return cli.Exit("", 1)
			}
			return nil
		},
	}
}

// printChecks writes one line per check and a verdict.
func printChecks(w io.Writer, checks []check, ok bool) error {
	failed := 0
	for _, c := range checks {
		if !c.OK {
			failed++
		}
		if _, err := fmt.Fprintln(w, c); err != nil {
			return err
		}
	}
	verdict := "ready: a run can start"
	if !ok {
		verdict = fmt.Sprintf("not ready: %d check(s) failed", failed)
	}
	_, err := fmt.Fprintln(w, verdict)
	return err
}

// needs says what of the model server a run will use.
type needs struct {
	model bool // some track calls the model
	tools bool // some track offers it tools
}

// preflight runs the checks a run needs before it starts: with need.model,
// the model server's (reachable, version, model present, and with
// need.tools, tool support); always python3; and the oracle check of every
// task in taskList. ok is true when every check holds.
func preflight(ctx context.Context, cfg model.Config, need needs, taskList []tasks.Task) ([]check, bool) {
	var checks []check
	if need.model {
		checks = append(checks, serverChecks(ctx, cfg, need.tools)...)
	}
	checks = append(checks, pythonCheck(ctx))
	if len(taskList) > 0 {
		checks = append(checks, tasksCheck(ctx, taskList))
	}
	ok := true
	for _, c := range checks {
		ok = ok && c.OK
	}
	return checks, ok
}

// serverChecks asks the server once; the checks that depend on a reachable
// server are left out when it is not, and tool support unless tools is set.
func serverChecks(ctx context.Context, cfg model.Config, tools bool) []check {
	isOllama := cfg.Backend == "" || cfg.Backend == model.BackendOllama
	client, err := model.New(cfg)
	if err != nil {
		return []check{{Name: checkServer, Detail: err.Error(), Fix: "bench doctor --backend ollama|openai --host URL"}}
	}
	ictx, cancel := context.WithTimeout(ctx, inspectTimeout)
	defer cancel()
	kind := "Ollama"
	if !isOllama {
		kind = "OpenAI-compatible server"
	}
	info, err := client.Inspect(ictx)
	if err != nil {
		detail := err.Error()
		var me *model.Error
		if errors.As(err, &me) && me.Kind == model.ErrUnreachable {
			detail = fmt.Sprintf("cannot reach %s at %s (%s)", kind, me.Host, lastPart(me.Detail))
		}
		return []check{{Name: checkServer, Detail: detail, Fix: serverFix(cfg, isOllama, err)}}
	}
	checks := []check{{Name: checkServer, OK: true, Detail: fmt.Sprintf("%s at %s is reachable", kind, info.Host)}}
	checks = append(checks, versionCheck(info, isOllama))
	checks = append(checks, modelCheck(cfg, info, isOllama))
	if info.HasModel && tools {
		checks = append(checks, toolsCheck(cfg, info, isOllama))
	}
	return checks
}

func serverFix(cfg model.Config, isOllama bool, err error) string {
	switch {
	case errors.Is(err, model.ErrUnreachable) && isOllama:
		return "ollama serve (or point elsewhere with --host / OLLAMA_HOST / --backend openai)"
	case errors.Is(err, model.ErrUnreachable):
		return "mlx_lm.server --model " + cfg.Model + " (or llama-server / vllm serve; or --host URL)"
	case isOllama:
		return "check that --host / OLLAMA_HOST points at an Ollama server"
	}
	return "check that --host points at an OpenAI-compatible /v1 endpoint"
}

func versionCheck(info model.ServerInfo, isOllama bool) check {
	if !isOllama {
		return check{Name: checkVersion, OK: true, Detail: "not reported by OpenAI-compatible servers"}
	}
	v, ok := parseVersion(info.Version)
	if !ok {
		return check{Name: checkVersion, OK: true, Detail: fmt.Sprintf("Ollama %q (unrecognised; assumed recent)", info.Version)}
	}
	if older(v, minOllama) {
		return check{Name: checkVersion, Detail: fmt.Sprintf("Ollama %s is older than 0.3.0, which added tool calling", info.Version),
			Fix: "upgrade Ollama (https://ollama.com/download)"}
	}
	return check{Name: checkVersion, OK: true, Detail: "Ollama " + info.Version}
}

func modelCheck(cfg model.Config, info model.ServerInfo, isOllama bool) check {
	if cfg.Model == "" {
		return check{Name: checkModel, Detail: "no model chosen", Fix: "--model " + model.DefaultModel}
	}
	if info.HasModel {
		d := cfg.Model + " is present"
		if info.Digest != "" {
			d += ", digest " + shortDigest(info.Digest)
		}
		return check{Name: checkModel, OK: true, Detail: d}
	}
	has := "none"
	if len(info.Models) > 0 {
		has = strings.Join(info.Models, ", ")
	}
	c := check{Name: checkModel, Detail: fmt.Sprintf("%s is not on %s (it has: %s)", cfg.Model, info.Host, has)}
	if isOllama {
		c.Fix = "ollama pull " + cfg.Model
	} else {
		c.Fix = "restart the server with --model " + cfg.Model + ", or pass --model with one it has"
	}
	return c
}

func toolsCheck(cfg model.Config, info model.ServerInfo, isOllama bool) check {
	switch {
	case !isOllama:
		return check{Name: checkTools, OK: true, Detail: "assumed: OpenAI-compatible servers do not report tool support"}
	case info.Tools:
		return check{Name: checkTools, OK: true, Detail: cfg.Model + " supports tool calling"}
	}
	return check{Name: checkTools, Detail: cfg.Model + " does not support tool calling, which the agent track needs",
		Fix: "ollama pull " + model.DefaultModel + " && bench doctor --model " + model.DefaultModel}
}

// pythonCheck runs `python3 --version`: the tasks' tests need it.
func pythonCheck(ctx context.Context) check {
	fix := "install Python 3 (e.g. apt-get install python3, brew install python)"
	path, err := exec.LookPath("python3")
	if err != nil {
		return check{Name: checkPython, Detail: "python3 is not on PATH", Fix: fix}
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "--version").CombinedOutput()
	if err != nil {
		return check{Name: checkPython, Detail: fmt.Sprintf("%s --version failed: %v", path, err), Fix: fix}
	}
	return check{Name: checkPython, OK: true, Detail: strings.TrimSpace(string(out))}
}

// lastPart is the innermost cause of a wrapped transport error, e.g. "connection refused".
func lastPart(s string) string {
	if i := strings.LastIndex(s, ": "); i >= 0 {
		return s[i+2:]
	}
	return s
}

// parseVersion reads "major.minor.patch", ignoring a suffix such as "-rc1".
func parseVersion(s string) ([3]int, bool) {
	var v [3]int
	s, _, _ = strings.Cut(strings.TrimPrefix(s, "v"), "-")
	parts := strings.Split(s, ".")
	if len(parts) < 2 || len(parts) > 3 {
		return v, false
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil {
			return v, false
		}
		v[i] = n
	}
	return v, true
}

func older(v, min [3]int) bool {
	for i := range v {
		if v[i] != min[i] {
			return v[i] < min[i]
		}
	}
	return false
}

// shortDigest shortens "sha256:<64 hex>" to "sha256:<12 hex>".
func shortDigest(d string) string {
	algo, hex, ok := strings.Cut(d, ":")
	if ok && len(hex) > 12 {
		return algo + ":" + hex[:12]
	}
	return d
}
