package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/urfave/cli/v2"

	"bench/tasks"
)

// taskName is what a new task may be called: a Python module name in lower case.
var taskName = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

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
	args, err := argsWithTrailingFlags(c)
	if err != nil {
		return err
	}
	if len(args) != 1 {
		return usagef("tasks new needs one task name: bench tasks new NAME [--dir DIR] (got %d arguments)", len(args))
	}
	name := args[0]
	if !taskName.MatchString(name) {
		return fmt.Errorf("task name %q: use lower-case letters, digits and _, starting with a letter (it names the Python module), such as off_by_one", name)
	}
	if builtin, err := tasks.Load(tasks.Suite()); err == nil && containsTask(builtin, name) {
		return fmt.Errorf("a built-in task is called %s; choose another name", name)
	}
	dir := filepath.Join(c.String("dir"), name)
	if _, err := os.Stat(dir); err == nil {
		return fmt.Errorf("%s already exists; choose another name or --dir", dir)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := writeScaffold(dir, name); err != nil {
		os.RemoveAll(dir)
		return err
	}
	_, err = fmt.Fprintf(c.App.Writer, "wrote %s: fill in task.toml (title, instruction, archetype, answers), the bug in repo/%s.py and its test,\n"+
		"and put the fixed %s.py in solution/; then: bench tasks verify --tasks-dir %s %s\n", dir, name, name, c.String("dir"), name)
	return err
}

// writeScaffold writes the task's files under dir.
func writeScaffold(dir, name string) error {
	files := map[string]string{
		"task.toml":                 scaffoldManifest(name),
		"repo/" + name + ".py":      scaffoldSource,
		"repo/test_" + name + ".py": scaffoldTest(name),
	}
	for _, rel := range []string{"task.toml", "repo/" + name + ".py", "repo/test_" + name + ".py"} {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(files[rel]), 0o644); err != nil {
			return err
		}
	}
	return os.Mkdir(filepath.Join(dir, "solution"), 0o755)
}

func scaffoldManifest(name string) string {
	return strings.NewReplacer("NAME", name).Replace(`name = "NAME"
title = "TODO: one line that says what is broken"
instruction = """
The tests in test_NAME.py fail. Fix NAME.py so that every test passes. Do not edit the tests.
"""
test_cmd = ["python3", "-m", "unittest", "-v", "test_NAME"]
source = "NAME.py"
test_files = ["test_NAME.py"]
timeout = "30s"
# The design (see tasks/README.md): a short kebab-case name for what the task
# tests, and the designed answers to the three questions of bench predict,
# in order. All three true makes the task a control.
archetype = "control"
answers = [true, true, true]
`)
}

const scaffoldSource = `def answer():
    """Return the answer."""
    return 41
`

func scaffoldTest(name string) string {
	return `import unittest

from ` + name + ` import answer


class AnswerTest(unittest.TestCase):
    def test_answer(self):
        self.assertEqual(answer(), 42)


if __name__ == "__main__":
    unittest.main()
`
}
