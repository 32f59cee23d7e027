package report

import (
	"bench/record"
	"bench/report/predict"
)

// Observed is what the report's runs show for bench check to score
// predictions against: the counted episodes and passes of each row (so
// that check counts exactly as the report does), and each run's start,
// tasks and designed answers.
func (rep *Report) Observed() predict.Observed {
	var obs predict.Observed
	for _, r := range rep.Rows {
		obs.Cells = append(obs.Cells, predict.ObservedCell{Task: r.Task, Track: r.Track, Model: r.Model, Passed: r.Passed, N: r.N})
	}
	obs.Runs = rep.observed
	return obs
}

// observedRuns is each input's start, tasks and designed answers.
func (a *Aggregate) observedRuns() []predict.ObservedRun {
	var out []predict.ObservedRun
	for _, in := range a.inputs {
		run := predict.ObservedRun{Dir: in.dir, Started: in.run.Started, Answers: map[string]string{}}
		for _, t := range in.run.Tasks {
			run.Tasks = append(run.Tasks, t.Name)
			run.Answers[t.Name] = t.Answers
		}
		out = append(out, run)
	}
	return out
}

// EpisodeVerdict is how the i-th episode of input (as record.Read orders
// them, Data.Episodes) counts: the verdict the report gave it, and whether
// it counts at all (false for the copy of an episode counted from another
// folder of its run, or an index the report does not hold).
func (rep *Report) EpisodeVerdict(input, i int) (record.Verdict, bool) {
	if rep.agg == nil || input < 0 || input >= len(rep.agg.inputs) {
		return record.Verdict{}, false
	}
	in := rep.agg.inputs[input]
	if i < 0 || i >= in.n {
		return record.Verdict{}, false
	}
	e := &rep.agg.eps[in.base+i]
	return record.Verdict{Status: e.status, Flaw: e.flaw}, e.standing()
}
