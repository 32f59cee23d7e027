package main

import (
	"fmt"
	"strings"

	"bench/internal/cliexit"
	"bench/internal/suggest"
	"bench/internal/table"
	"bench/runflags"
	"bench/tasks"
	"bench/verify"

	"github.com/urfave/cli/v2"
)

func tasksCommand() *cli.Command {
	return &cli.Command{
		Name:      "tasks",
		Usage:     "list the fixture tasks",
		ArgsUsage: " ",
		Description: "Lists each task with its design: the archetype, the designed answers to the three questions\n" +
			"of bench predict (y or n each, in order) and the test framework.\n\n" +
			"Examples:\n" +
			"  bench tasks\n" +
			"  bench tasks -f json\n" +
			"  bench tasks verify                              # the oracle check of every task\n" +
			"  bench tasks new my_task --dir my-tasks          # a task folder to fill in\n" +
			"  bench tasks verify parse_date --tasks-dir ./my-tasks",
		Flags: []cli.Flag{
			formatFlag(table.Formats...),
			&cli.BoolFlag{Name: "json", Usage: "print the tasks as JSON (the same as --format json)"},
			runflags.TasksDir(),
		},
		Action: listTasks,
		Subcommands: []*cli.Command{{
			Name:      "verify",
			Usage:     "oracle check: each original fails, each partial fix fails as expected, each solution passes, the folders stay unchanged",
			ArgsUsage: "[TASK...]",
			Flags:     []cli.Flag{runflags.TasksDir()},
			Action:    verifyTasks,
		}, newTaskCommand()},
	}
}

// tasksDir returns --tasks-dir wherever it was given on the command line:
// "bench tasks --tasks-dir D verify" as well as "bench tasks verify --tasks-dir D".
func tasksDir(c *cli.Context) string {
	for _, lc := range c.Lineage() {
		if v := lc.String("tasks-dir"); v != "" {
			return v
		}
	}
	return ""
}

func listTasks(c *cli.Context) error {
	if c.Args().Len() > 0 {
		return usagef("tasks: unexpected argument %q%s; bench tasks --help lists the subcommands", c.Args().First(), suggest.DidYouMean(c.Args().First(), []string{"verify", "new"}, "bench tasks "))
	}
	format, err := pickFormat(c, table.Formats...)
	if err != nil {
		return err
	}
	if c.Bool("json") {
		format = table.JSON
	}
	all, err := tasks.Catalogue(tasksDir(c))
	if err != nil {
		return err
	}
	return tasks.WriteListing(c.App.Writer, format, all)
}

func verifyTasks(c *cli.Context) error {
	cliexit.StopCleanly(c.Context, "") // it stops after the task under way
	names, err := posArgs(c)
	if err != nil {
		return err
	}
	all, err := tasks.Catalogue(tasksDir(c))
	if err != nil {
		return err
	}
	selected, err := runflags.PickTasks(all, names)
	if err != nil {
		return err
	}
	if err := tasks.NeedPrograms(selected); err != nil {
		return err
	}
	var failed []string
	var rows [][]string
	for _, t := range selected {
		v := verify.Task(c.Context, t)
		v.Checks = append(v.Checks, designCheck(t))
		for _, ch := range v.Checks {
			result := "ok"
			if !ch.OK {
				result = "FAIL"
			}
			rows = append(rows, []string{t.Name, ch.Name, result, ch.Detail})
		}
		if !v.OK() {
			failed = append(failed, describeFailure(v))
		}
		if c.Context.Err() != nil {
			break
		}
	}
	if err := table.Write(c.App.Writer, table.Text, []string{"task", "check", "result", "detail"}, rows); err != nil {
		return err
	}
	if c.Context.Err() != nil {
		return cli.Exit("tasks verify: interrupted", exitInterrupted)
	}
	if len(failed) > 0 {
		return cli.Exit(fmt.Sprintf("tasks verify: %d of %d tasks failed: %s", len(failed), len(selected), strings.Join(failed, "; ")), 1)
	}
	if len(selected) == 1 {
		fmt.Fprintf(c.App.Writer, "task %s verified\n", selected[0].Name)
		return nil
	}
	fmt.Fprintf(c.App.Writer, "all %d tasks verified\n", len(selected))
	return nil
}

// designCheck is the check that the task's text is written: no field
// still holds a placeholder of bench tasks new.
func designCheck(t tasks.Task) verify.Check {
	ph := t.Placeholders()
	if len(ph) == 0 {
		return verify.Check{Name: "text written", OK: true, Detail: "title and instruction hold no TODO"}
	}
	return verify.Check{Name: "text written", Detail: fmt.Sprintf("%s still %s TODO in task.toml: say what is broken", strings.Join(ph, " and "), map[bool]string{true: "begins with", false: "begin with"}[len(ph) == 1])}
}

// describeFailure names a failed task and its failed checks.
func describeFailure(v verify.Verification) string {
	var bad []string
	for _, ch := range v.Checks {
		if !ch.OK {
			bad = append(bad, ch.Name)
		}
	}
	return fmt.Sprintf("%s (%s)", v.Task, strings.Join(bad, ", "))
}
