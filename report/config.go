package report

import (
	"strings"

	"bench/record"
)

// configDiff names the settings in which merged runs that called a model
// differ, with each run's value (by its label), or returns "" when they
// agree. Each run counts once, however many of its folders are given. The
// model and its digest are left out: rows keep models apart, and runNotes
// checks each model's digest.
func configDiff(inputs []*input, runs []*runEntry) string {
	var diffs []string
	for k, f := range (record.Run{}).Settings() {
		if f.Name == "model" || f.Name == "model-digest" {
			continue
		}
		var values []string
		first, differ := "", false
		for _, r := range runs {
			in := inputs[r.inputs[0]]
			if in.run.Model == "" {
				continue // an oracle-only run has no model settings to differ in
			}
			v := in.run.Settings()[k].Value
			if len(values) == 0 {
				first = v
			}
			differ = differ || v != first
			values = append(values, r.label+": "+v)
		}
		if differ {
			diffs = append(diffs, f.Name+" ("+strings.Join(values, ", ")+")")
		}
	}
	return strings.Join(diffs, ", ")
}
