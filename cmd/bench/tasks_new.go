package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"bench/tasks"
)

func newTaskCommand() *cli.Command {
	return &cli.Command{
		Name:      "new",
		Usage:     "scaffold a task folder: task.toml, a failing unittest test in repo/, an empty solution/",
		ArgsUsage: "NAME",
		Description: "Writes DIR/NAME/ with a task.toml (archetype and designed answers to fill in), repo/NAME.py\n" +
			"with a bug, repo/test_NAME.py whose test fails on it, and an empty solution/. bench tasks verify\n" +
			"--tasks-dir DIR then fails only the \"solution passes\" check until solution/ holds the fixed NAME.py.\n\n" +
			"Example:\n" +
			"  bench tasks new off_by_one --dir my-tasks && bench tasks verify --tasks-dir my-tasks off_by_one",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "dir", Value: ".", Usage: "write the task folder into `DIR` (what --tasks-dir then reads)"},
		},
		Action: newTask,
	}
}

// newTask writes the scaffold of one task.
func newTask(c *cli.Context) error {
	args, err := posArgs(c)
	if err != nil {
		return err
	}
	if len(args) != 1 {
		return usagef("tasks new needs one task name: bench tasks new NAME [--dir DIR] (got %d arguments)", len(args))
	}
	name := args[0]
	if err := tasks.CheckNewName(name); err != nil {
		return usage(err)
	}
	dir, err := tasks.Scaffold(c.String("dir"), name)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(c.App.Writer, "wrote %s: fill in task.toml (title, instruction, archetype, answers), the bug in repo/%s.py and its test,\n"+
		"and put the fixed %s.py in solution/; then: bench tasks verify --tasks-dir %s %s\n", dir, name, name, c.String("dir"), name)
	return err
}
