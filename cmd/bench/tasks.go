package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"

	"bench/internal/suggest"
	"bench/internal/table"
	"bench/runner"
	"bench/tasks"

	"github.com/urfave/cli/v2"
)

// tasksDirFlag is the --tasks-dir flag every command that reads tasks shares.
func tasksDirFlag() cli.Flag {
	return &cli.StringFlag{
		Name:  "tasks-dir",
		Usage: "add the tasks in `DIR` (one folder per task, as in tasks/) to the built-in ones",
	}
}

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
			tasksDirFlag(),
		},
		Action: listTasks,
		Subcommands: []*cli.Command{{
			Name:      "verify",
			Usage:     "oracle check: each original fails, each partial fix fails as expected, each solution passes, the folders stay unchanged",
			ArgsUsage: "[TASK...]",
			Flags:     []cli.Flag{tasksDirFlag()},
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

// loadTasks returns the built-in tasks, with the tasks in dir added when
// dir is not "" (addTasks).
func loadTasks(dir string) ([]tasks.Task, error) {
	builtin, err := tasks.Load(tasks.Suite())
	if err != nil || dir == "" {
		return builtin, err
	}
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("--tasks-dir %s does not exist; give a folder holding one subfolder per task (as tasks/ in the source)", dir)
	}
	mine, err := tasks.FromDir(dir)
	if err != nil {
		return nil, err
	}
	return addTasks(builtin, mine, dir)
}

// taskInfo is one task as `bench tasks --json` prints it.
type taskInfo struct {
	Name      string   `json:"name"`
	Course    bool     `json:"course"` // one of the lesson's four tasks (tasks.Course)
	Title     string   `json:"title"`
	Files     []string `json:"files"` // the files of repo/, as copied into a workspace
	Tests     int      `json:"tests"`
	TestNames []string `json:"test_names"`
	Source    string   `json:"source"` // the file the workflow track sends
	TestFiles []string `json:"test_files"`
	TestCmd   []string `json:"test_cmd"`
	Timeout   string   `json:"timeout"`
	Partial   bool     `json:"partial"`
	Archetype string   `json:"archetype"`
	Answers   [3]bool  `json:"answers"` // the designed answers to the three questions of bench predict
	Framework string   `json:"framework"`
}

func describe(t tasks.Task) (taskInfo, error) {
	var files []string
	err := fs.WalkDir(t.FS, "repo", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			files = append(files, strings.TrimPrefix(p, "repo/"))
		}
		return nil
	})
	if err != nil {
		return taskInfo{}, fmt.Errorf("task %s: listing repo/: %w", t.Name, err)
	}
	sort.Strings(files)
	return taskInfo{
		Name: t.Name, Course: tasks.InCourse(t.Name), Title: t.Title, Files: files, Tests: len(t.Tests), TestNames: t.Tests,
		Source: t.Source, TestFiles: t.TestFiles, TestCmd: t.TestCmd, Timeout: t.Timeout.String(),
		Partial: t.PartialExpect != "", Archetype: t.Archetype, Answers: t.Answers.List(), Framework: t.Framework,
	}, nil
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
	all, err := loadTasks(tasksDir(c))
	if err != nil {
		return err
	}
	infos := make([]taskInfo, 0, len(all))
	for _, t := range all {
		info, err := describe(t)
		if err != nil {
			return err
		}
		infos = append(infos, info)
	}
	if format == table.JSON {
		return writeJSON(c.App.Writer, infos)
	}
	rows := make([][]string, len(all))
	for i, t := range all {
		rows[i] = []string{t.Name, courseMark(t.Name), t.Framework, t.Archetype, t.Answers.String(), strconv.Itoa(len(t.Tests)), t.Source, t.Title}
	}
	return table.Write(c.App.Writer, format, []string{"task", "course", "framework", "archetype", "answers", "tests", "source", "title"}, rows)
}

// courseMark is the course column of bench tasks: "yes" for the lesson's
// four tasks, blank for the others.
func courseMark(name string) string {
	if tasks.InCourse(name) {
		return "yes"
	}
	return ""
}

func verifyTasks(c *cli.Context) error {
	names, err := argsWithTrailingFlags(c)
	if err != nil {
		return err
	}
	all, err := loadTasks(tasksDir(c))
	if err != nil {
		return err
	}
	selected, err := pickTasks(all, names)
	if err != nil {
		return err
	}
	if err := needInterpreters(selected); err != nil {
		return err
	}
	var failed []string
	var rows [][]string
	for _, t := range selected {
		v := runner.Verify(c.Context, t)
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
func designCheck(t tasks.Task) runner.Check {
	ph := t.Placeholders()
	if len(ph) == 0 {
		return runner.Check{Name: "text written", OK: true, Detail: "title and instruction hold no TODO"}
	}
	return runner.Check{Name: "text written", Detail: fmt.Sprintf("%s still %s TODO in task.toml: say what is broken", strings.Join(ph, " and "), map[bool]string{true: "begins with", false: "begin with"}[len(ph) == 1])}
}

// describeFailure names a failed task and its failed checks.
func describeFailure(v runner.Verification) string {
	var bad []string
	for _, ch := range v.Checks {
		if !ch.OK {
			bad = append(bad, ch.Name)
		}
	}
	return fmt.Sprintf("%s (%s)", v.Task, strings.Join(bad, ", "))
}

// needInterpreters checks, before any work, that every test command's
// program is on PATH, so a missing python3 is one sentence rather than a
// failed check per task.
func needInterpreters(all []tasks.Task) error {
	seen := map[string]bool{}
	for _, t := range all {
		prog := t.TestCmd[0]
		if seen[prog] {
			continue
		}
		seen[prog] = true
		if _, err := exec.LookPath(prog); err != nil {
			return fmt.Errorf("%s is needed on PATH to run the tasks' tests (task %s), and it was not found", prog, t.Name)
		}
	}
	return nil
}
