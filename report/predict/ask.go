package predict

import (
	"bufio"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"bench/internal/suggest"
	"bench/lesson"
)

// ParseAnswerFlags reads bench predict's --answer TASK=yyn values: one
// task each, answered once.
func ParseAnswerFlags(values []string) (map[string]lesson.Answers, error) {
	given := map[string]lesson.Answers{}
	for _, v := range values {
		task, letters, ok := strings.Cut(v, "=")
		task = strings.TrimSpace(task)
		if !ok || task == "" {
			return nil, fmt.Errorf("--answer %q: want TASK=yyn, one letter y or n per question", v)
		}
		a, err := lesson.Parse(letters)
		if err != nil {
			return nil, fmt.Errorf("--answer %s: %v", v, err)
		}
		if _, dup := given[task]; dup {
			return nil, fmt.Errorf("--answer: task %s is answered twice", task)
		}
		given[task] = a
	}
	return given, nil
}

// Unanswered lists the tasks of names that given does not answer, and
// refuses an answer for a task that is not among names.
func Unanswered(names []string, given map[string]lesson.Answers) ([]string, error) {
	var unanswered []string
	for _, n := range names {
		if _, ok := given[n]; !ok {
			unanswered = append(unanswered, n)
		}
	}
	for _, task := range slices.Sorted(maps.Keys(given)) {
		if !slices.Contains(names, task) {
			return nil, fmt.Errorf("--answer %s=…: %s is not among the tasks to predict%s (%s)", task, task, suggest.DidYouMean(task, names, ""), strings.Join(names, ", "))
		}
	}
	return unanswered, nil
}

// Ask asks on w the three questions about task, after its intro line,
// repeating a question until in gives y or n.
func Ask(w io.Writer, in *bufio.Reader, task, intro string) (lesson.Answers, error) {
	fmt.Fprintln(w, intro)
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

// WriteSaved shows the predictions of f, saved at path, and what to do
// after the run.
func WriteSaved(w io.Writer, path string, f File) error {
	var b strings.Builder
	for _, p := range f.Predictions {
		fmt.Fprintf(&b, "%-16s %s  %s\n", p.Task, p.Answers, p.Prediction)
	}
	fmt.Fprintf(&b, "wrote %d predictions to %s; after the run: bench check --predictions %s RUN_DIR\n", len(f.Predictions), path, path)
	_, err := io.WriteString(w, b.String())
	return err
}
