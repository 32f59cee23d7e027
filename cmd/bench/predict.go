package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"bench/internal/suggest"
	"bench/lesson"
	"bench/report/predict"
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
		Description: "For each task, answer three questions with y or n:\n" + numberedQuestions() +
			"All three yes predicts that the fixed workflow is enough (\"workflow\"); anything else that\n" +
			"the task needs an agent (\"agent\"). Give the answers with --answer TASK=yyn, or run on a\n" +
			"terminal to be asked. After the run, bench check --predictions FILE RUN_DIR scores them.\n\n" +
			"Example (the lesson's four tasks, answered as they were designed):\n" +
			"  bench predict --out predictions.json --answer " + courseAnswers(),
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Value: "predictions.json", Usage: "write the predictions to `FILE`"},
			&cli.StringFlag{Name: "tasks", Aliases: []string{"task"}, Usage: "comma-separated task names, or one, or all (default: those bench run takes)"},
			&cli.StringSliceFlag{Name: "answer", Usage: "answers for a task, one letter per question: `TASK=yyn` (repeatable)"},
			&cli.BoolFlag{Name: "force", Usage: "replace an existing predictions file"},
			tasksDirFlag(),
		},
		Action: runPredict,
	}
}

func runPredict(c *cli.Context) error {
	if c.NArg() > 0 {
		return usagef("predict takes no arguments (got %q); name tasks with --tasks", c.Args().Slice())
	}
	given, err := parseAnswerFlags(c.StringSlice("answer"))
	if err != nil {
		return err
	}
	selected, err := predictTasks(c)
	if err != nil {
		return err
	}
	unanswered, err := unansweredTasks(selected, given)
	if err != nil {
		return err
	}
	out := c.String("out")
	if err := checkOutFile("--out", out); err != nil {
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
			if answers, err = askAnswers(c.App.Writer, in, t); err != nil {
				return err
			}
		}
		file.Predictions = append(file.Predictions, predict.NewPrediction(t.Name, answers, predictClock()))
	}
	if err := predict.Save(out, file, c.Bool("force")); err != nil {
		return err
	}
	return printPredictions(c.App.Writer, out, file)
}

// unansweredTasks lists the selected tasks without an --answer, and refuses
// an --answer for a task that is not selected.
func unansweredTasks(selected []tasks.Task, given map[string]lesson.Answers) ([]string, error) {
	var names, unanswered []string
	for _, t := range selected {
		names = append(names, t.Name)
		if _, ok := given[t.Name]; !ok {
			unanswered = append(unanswered, t.Name)
		}
	}
	for _, task := range slices.Sorted(maps.Keys(given)) {
		if !slices.Contains(names, task) {
			return nil, usagef("--answer %s=…: %s is not among the tasks to predict%s (%s)", task, task, suggest.DidYouMean(task, names, ""), strings.Join(names, ", "))
		}
	}
	return unanswered, nil
}

// parseAnswerFlags reads --answer TASK=yyn values.
func parseAnswerFlags(values []string) (map[string]lesson.Answers, error) {
	given := map[string]lesson.Answers{}
	for _, v := range values {
		task, letters, ok := strings.Cut(v, "=")
		task = strings.TrimSpace(task)
		if !ok || task == "" {
			return nil, usagef("--answer %q: want TASK=yyn, one letter y or n per question", v)
		}
		a, err := lesson.Parse(letters)
		if err != nil {
			return nil, usagef("--answer %s: %v", v, err)
		}
		if _, dup := given[task]; dup {
			return nil, usagef("--answer: task %s is answered twice", task)
		}
		given[task] = a
	}
	return given, nil
}

// predictTasks is the tasks to predict: those named by --tasks, else those
// bench run takes by default (pickRunTasks).
func predictTasks(c *cli.Context) ([]tasks.Task, error) {
	all, err := loadTasks(tasksDir(c))
	if err != nil {
		return nil, err
	}
	selected, err := pickRunTasks(all, splitList(c.String("tasks")))
	if err != nil {
		return nil, usagef("--tasks: %w", err)
	}
	if len(selected) == 0 {
		return nil, errors.New("no tasks to predict")
	}
	return selected, nil
}

// askAnswers asks the three questions about a task, repeating a question
// until it gets y or n.
func askAnswers(w io.Writer, in *bufio.Reader, t tasks.Task) (lesson.Answers, error) {
	fmt.Fprintf(w, "%s: %s\n  the workflow sends %s and the test output; the tests are %s\n", t.Name, t.Title, t.Source, strings.Join(t.TestFiles, ", "))
	task := t.Name
	var yes [3]bool
	for i, q := range lesson.Questions {
		for {
			fmt.Fprintf(w, "  %d. %s [y/n] ", i+1, q)
			line, err := in.ReadString('\n')
			switch strings.ToLower(strings.TrimSpace(line)) {
			case "y", "yes":
				yes[i] = true
			case "n", "no":
				yes[i] = false
			default:
				if err != nil {
					fmt.Fprintln(w)
					return lesson.Answers{}, fmt.Errorf("input ended before question %d about %s was answered; nothing was written", i+1, task)
				}
				fmt.Fprintln(w, "     please answer y or n")
				continue
			}
			break
		}
	}
	return lesson.FromList(yes), nil
}

// printPredictions shows what was written and what to do next.
func printPredictions(w io.Writer, path string, f predict.File) error {
	var b strings.Builder
	for _, p := range f.Predictions {
		fmt.Fprintf(&b, "%-16s %s  %s\n", p.Task, p.Answers, p.Prediction)
	}
	fmt.Fprintf(&b, "wrote %d predictions to %s; after the run: bench check --predictions %s RUN_DIR\n", len(f.Predictions), path, path)
	_, err := io.WriteString(w, b.String())
	return err
}

// numberedQuestions lists lesson.Questions for help texts.
func numberedQuestions() string {
	var b strings.Builder
	for i, q := range lesson.Questions {
		fmt.Fprintf(&b, "  %d. %s\n", i+1, q)
	}
	return b.String()
}

// courseAnswers is the help's --answer example (tasks.CourseAnswers).
func courseAnswers() string {
	a, err := tasks.CourseAnswers()
	if err != nil {
		return "TASK=yyn" // the embedded tasks are checked by their own tests
	}
	return a
}
