// Package lesson declares the lesson's three questions and the one
// encoding of their answers, which a task's design (task.toml's answers),
// bench predict's predictions and the report's design tables all read.
// It holds data only.
package lesson

import (
	"fmt"
	"strings"
)

// Questions are the three criteria, asked in this order. A yes to all
// three says that the fixed workflow is enough.
var Questions = [3]string{
	"Does the first test failure point at every line that must change?",
	"Will one edit, made without seeing its result, make all the tests pass?",
	"Is everything the fix needs in the error output and the one source file the workflow sends?",
}

// Answers are the yes/no answers to Questions for one task. The JSON
// field names are those of a predictions file.
type Answers struct {
	PointsAtEveryLine bool `json:"points_at_every_line"` // question 1
	OneBlindEdit      bool `json:"one_blind_edit"`       // question 2
	ContextSuffices   bool `json:"context_suffices"`     // question 3
}

// FromList returns the answers given in question order.
func FromList(l [3]bool) Answers {
	return Answers{PointsAtEveryLine: l[0], OneBlindEdit: l[1], ContextSuffices: l[2]}
}

// List returns the answers in question order.
func (a Answers) List() [3]bool {
	return [3]bool{a.PointsAtEveryLine, a.OneBlindEdit, a.ContextSuffices}
}

// AllYes reports whether every answer is yes: the fixed workflow should be
// enough.
func (a Answers) AllYes() bool {
	return a == Answers{true, true, true}
}

// Parse reads answers written as three letters y or n, one per question
// in order ("yyn"), the form bench predict --answer, bench tasks and
// run.json's tasks[].answers use; case and spaces or commas between the
// letters are ignored.
func Parse(s string) (Answers, error) {
	letters := strings.Map(func(r rune) rune {
		if r == ' ' || r == ',' {
			return -1
		}
		return r
	}, strings.ToLower(s))
	if len(letters) != 3 || strings.Trim(letters, "yn") != "" {
		return Answers{}, fmt.Errorf("answers %q: want three letters y or n, one per question, such as yyn", s)
	}
	return FromList([3]bool{letters[0] == 'y', letters[1] == 'y', letters[2] == 'y'}), nil
}

// String writes the answers as three letters y or n, as Parse reads them.
func (a Answers) String() string {
	var b strings.Builder
	for _, yes := range a.List() {
		b.WriteByte(map[bool]byte{true: 'y', false: 'n'}[yes])
	}
	return b.String()
}

// Numbered lists the questions one a line, numbered from 1 and indented
// by two spaces, for help texts.
func Numbered() string {
	var b strings.Builder
	for i, q := range Questions {
		fmt.Fprintf(&b, "  %d. %s\n", i+1, q)
	}
	return b.String()
}
