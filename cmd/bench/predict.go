package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"bench/report/predict"
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
			"terminal to be asked. After the run, bench check --predictions FILE RUN_DIR scores them.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Value: "predictions.json", Usage: "write the predictions to `FILE`"},
			&cli.StringFlag{Name: "tasks", Usage: "predict for these `TASKS` (a,b)"},
			&cli.StringSliceFlag{Name: "answer", Usage: "answers for a task, one letter per question: `TASK=yyn` (repeatable)"},
			&cli.BoolFlag{Name: "force", Usage: "replace an existing predictions file"},
		},
		Action: runPredict,
	}
}

func runPredict(c *cli.Context) error {
	if c.NArg() > 0 {
		return fmt.Errorf("predict takes no arguments (got %q); name tasks with --tasks", c.Args().Slice())
	}
	given, order, err := parseAnswerFlags(c.StringSlice("answer"))
	if err != nil {
		return err
	}
	names, err := predictTaskNames(c, order)
	if err != nil {
		return err
	}
	for task := range given {
		if !slices.Contains(names, task) {
			return fmt.Errorf("--answer %s=…: %s is not among the tasks to predict (%s)", task, task, strings.Join(names, ", "))
		}
	}
	out := c.String("out")
	if _, err := os.Stat(out); err == nil && !c.Bool("force") {
		return fmt.Errorf("%s already exists; predictions are written once, before the run (use --force to replace it, or --out for another file)", out)
	}
	var unanswered []string
	for _, name := range names {
		if _, ok := given[name]; !ok {
			unanswered = append(unanswered, name)
		}
	}
	if len(unanswered) > 0 && !predictIsTerminal(c.App.Reader) {
		return fmt.Errorf("no answers for %s: give --answer TASK=yyn for each (y or n to each of the three questions in bench predict --help), or run bench predict on a terminal to be asked", strings.Join(unanswered, ", "))
	}

	file := predict.File{BenchVersion: version()}
	in := bufio.NewReader(c.App.Reader)
	for _, name := range names {
		answers, ok := given[name]
		if !ok {
			if answers, err = askAnswers(c.App.Writer, in, name); err != nil {
				return err
			}
		}
		file.Predictions = append(file.Predictions, predict.NewPrediction(name, answers, predictClock()))
	}
	if err := predict.Save(out, file, c.Bool("force")); err != nil {
		return err
	}
	return printPredictions(c.App.Writer, out, file)
}

// parseAnswerFlags reads --answer TASK=yyn values, keeping the order tasks were named in.
func parseAnswerFlags(values []string) (map[string]predict.Answers, []string, error) {
	given := map[string]predict.Answers{}
	var order []string
	for _, v := range values {
		task, letters, ok := strings.Cut(v, "=")
		task = strings.TrimSpace(task)
		if !ok || task == "" {
			return nil, nil, fmt.Errorf("--answer %q: want TASK=yyn, one letter y or n per question", v)
		}
		a, err := predict.ParseAnswers(letters)
		if err != nil {
			return nil, nil, fmt.Errorf("--answer %s: %v", v, err)
		}
		if _, dup := given[task]; dup {
			return nil, nil, fmt.Errorf("--answer: task %s is answered twice", task)
		}
		given[task] = a
		order = append(order, task)
	}
	return given, order, nil
}

// predictTaskNames is the tasks to predict: --tasks, else the tasks answered with --answer.
func predictTaskNames(c *cli.Context, answered []string) ([]string, error) {
	var names []string
	for _, n := range strings.Split(c.String("tasks"), ",") {
		if n = strings.TrimSpace(n); n != "" && !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		names = answered
	}
	if len(names) == 0 {
		return nil, errors.New("no tasks to predict: name them with --tasks a,b or answer them with --answer TASK=yyn")
	}
	return names, nil
}

// askAnswers asks the three questions about task, repeating a question until
// it gets y or n.
func askAnswers(w io.Writer, in *bufio.Reader, task string) (predict.Answers, error) {
	fmt.Fprintf(w, "%s\n", task)
	var yes [3]bool
	for i, q := range predict.Questions {
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
					return predict.Answers{}, fmt.Errorf("input ended before question %d about %s was answered; nothing was written", i+1, task)
				}
				fmt.Fprintln(w, "     please answer y or n")
				continue
			}
			break
		}
	}
	return predict.Answers{PointsAtEveryLine: yes[0], OneBlindEdit: yes[1], ContextSuffices: yes[2]}, nil
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

// numberedQuestions lists predict.Questions for help texts.
func numberedQuestions() string {
	var b strings.Builder
	for i, q := range predict.Questions {
		fmt.Fprintf(&b, "  %d. %s\n", i+1, q)
	}
	return b.String()
}
