package predict

import "bench/lesson"

// QuestionScore is how often the predicted answers to one question matched
// the designed answers that the runs' run.json records for the tasks.
type QuestionScore struct {
	Question   int      `json:"question"`             // 1, 2 or 3
	Matched    int      `json:"matched"`              // predicted answers equal to the designed one
	Counted    int      `json:"counted"`              // predicted tasks whose design a run records
	Mismatched []string `json:"mismatched,omitempty"` // the tasks predicted otherwise, in the order predicted
}

// byQuestion scores the predictions question by question against the
// tasks' designed answers (run.json's tasks[].answers, the first run that
// records one winning). It is nil when no predicted task has one.
func byQuestion(f File, runs []ObservedRun) []QuestionScore {
	designed := map[string]string{}
	for _, run := range runs {
		for _, name := range run.Tasks {
			if _, seen := designed[name]; !seen && run.Answers[name] != "" {
				designed[name] = run.Answers[name]
			}
		}
	}
	scores := make([]QuestionScore, len(lesson.Questions))
	counted := 0
	for _, p := range f.Predictions {
		d, err := lesson.Parse(designed[p.Task])
		if err != nil {
			continue // no design recorded, or one this bench cannot read
		}
		counted++
		for q, want := range d.List() {
			s := &scores[q]
			s.Question, s.Counted = q+1, s.Counted+1
			if p.Answers.List()[q] == want {
				s.Matched++
			} else {
				s.Mismatched = append(s.Mismatched, p.Task)
			}
		}
	}
	if counted == 0 {
		return nil
	}
	return scores
}
