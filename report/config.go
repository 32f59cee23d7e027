package report

import (
	"strings"

	"bench/record"
)

// configDiff names the settings in which merged runs that called a model
// differ, with each run's value, or returns "" when they agree. The model
// and its digest are left out: rows keep models apart, and runNotes checks
// each model's digest.
func configDiff(inputs []record.Outcomes) string {
	var diffs []string
	for k, f := range (record.Run{}).Settings() {
		if f.Name == "model" || f.Name == "model-digest" {
			continue
		}
		var values []string
		first, differ := "", false
		for _, in := range inputs {
			if in.Run.Model == "" {
				continue // an oracle-only run has no model settings to differ in
			}
			v := in.Run.Settings()[k].Value
			if len(values) == 0 {
				first = v
			}
			differ = differ || v != first
			values = append(values, in.Run.ID+": "+v)
		}
		if differ {
			diffs = append(diffs, f.Name+" ("+strings.Join(values, ", ")+")")
		}
	}
	return strings.Join(diffs, ", ")
}
