package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"bench/lesson"
	"bench/report/output"
	"bench/report/predict"
	"bench/runflags"
	"bench/tasks"
)

// predictClock stamps predictions; tests replace it.
var predictClock = time.Now

// predictIsTerminal reports whether answers can be asked for on r; tests replace it.
var predictIsTerminal = func(r io.Reader) bool {
	f, ok := r.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

func predictCommand() *cli.Command {
	return &cli.Command{
		Name:      "predict",
		Usage:     "write down, before a run, whether each task needs an agent",
		ArgsUsage: " ",
		Description: "For each task, answer three questions with y or n:\n" + lesson.Numbered() +
			"All three yes predicts that the fixed workflow is enough (\"workflow\"); anything else that\n" +
			"the task needs an agent (\"agent\"). Give the answers with --answer TASK=yyn, or run on a\n" +
			"terminal to be asked. After the run, bench check --predictions FILE RUN_DIR scores them.\n\n" +
			"Example (the lesson's four tasks, answered as they were designed):\n" +
			"  bench predict --out predictions.json --answer " + courseAnswers(),
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Value: "predictions.json", Usage: "write the predictions to `FILE`"},
			runflags.Tasks("comma-separated task names, or one, or all (default: those bench run takes)"),
			&cli.StringSliceFlag{Name: "answer", Usage: "answers for a task, one letter per question: `TASK=yyn` (repeatable)"},
			&cli.BoolFlag{Name: "force", Usage: "replace an existing predictions file"},
			runflags.TasksDir(),
		},
		Action: runPredict,
	}
}

func runPredict(c *cli.Context) error {
	if c.NArg() > 0 {
		return usagef("predict takes no arguments (got %q); name tasks with --tasks", c.Args().Slice())
	}
	given, err := predict.ParseAnswerFlags(c.StringSlice("answer"))
	if err != nil {
		return usage(err)
	}
	selected, err := predictTasks(c)
	if err != nil {
		return err
	}
	unanswered, err := predict.Unanswered(tasks.Names(selected), given)
	if err != nil {
		return usage(err)
	}
	out := c.String("out")
	if err := output.CheckOutFile("--out", out); err != nil {
		return err
	}
	if _, err := os.Stat(out); err == nil && !c.Bool("force") {
		return fmt.Errorf("%s already exists; predictions are written once, before the run (use --force to replace it, or --out for another file)", out)
	}
	if len(unanswered) > 0 && !predictIsTerminal(c.App.Reader) {
		return usagef("no answers for %s: give --answer TASK=yyn for each (y or n to each of the three questions in bench predict --help), or run bench predict on a terminal to be asked", strings.Join(unanswered, ", "))
	}
	file := predict.File{BenchVersion: version()}
	in := bufio.NewReader(c.App.Reader)
	for _, t := range selected {
		answers, ok := given[t.Name]
		if !ok {
			intro := fmt.Sprintf("%s: %s\n  the workflow sends %s and the test output; the tests are %s", t.Name, t.Title, t.Source, strings.Join(t.TestFiles, ", "))
			if answers, err = predict.Ask(c.App.Writer, in, t.Name, intro); err != nil {
				return err
			}
		}
		file.Predictions = append(file.Predictions, predict.NewPrediction(t.Name, answers, predictClock()))
	}
	if err := predict.Save(out, file, c.Bool("force")); err != nil {
		return err
	}
	return predict.WriteSaved(c.App.Writer, out, file)
}

// predictTasks is the tasks to predict: those named by --tasks, else those
// bench run takes by default (tasks.PickForRun).
func predictTasks(c *cli.Context) ([]tasks.Task, error) {
	all, err := tasks.Catalogue(tasksDir(c))
	if err != nil {
		return nil, err
	}
	selected, err := runflags.PickRunTasks(all, c.String("tasks"))
	if err != nil {
		return nil, usagef("--tasks: %w", err)
	}
	if len(selected) == 0 {
		return nil, errors.New("no tasks to predict")
	}
	return selected, nil
}

// courseAnswers is the help's --answer example (tasks.CourseAnswers).
func courseAnswers() string {
	a, err := tasks.CourseAnswers()
	if err != nil {
		return "TASK=yyn" // the embedded tasks are checked by their own tests
	}
	return a
}
