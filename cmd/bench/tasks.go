package main

import (
	"bench/internal/cliexit"
	"bench/internal/suggest"
	"bench/internal/table"
	"bench/runflags"
	"bench/taskcheck"
	"bench/tasks"

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
	return taskcheck.Verify(c.Context, c.App.Writer, selected)
}
