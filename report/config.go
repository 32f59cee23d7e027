package report

import (
	"fmt"
	"strings"

	"bench/record"
)

// configDiff names the settings in which merged runs that called a model
// differ, with each run's value, or returns "" when they agree.
func configDiff(inputs []record.Data) string {
	fields := []struct {
		name string
		get  func(record.Run) string
	}{
		{"model", func(r record.Run) string { return r.Backend + " " + r.Model }},
		{"posture", func(r record.Run) string { return r.Posture }},
		{"temperature", func(r record.Run) string { return fmt.Sprint(r.Temperature) }},
		{"num-ctx", func(r record.Run) string { return fmt.Sprint(r.NumCtx) }},
		{"top-p", func(r record.Run) string { return fmt.Sprint(r.TopP) }},
		{"max-reply-tokens", func(r record.Run) string { return fmt.Sprint(r.MaxReplyTokens) }},
		{"think", func(r record.Run) string { return fmt.Sprint(r.Think) }},
		{"max-turns", func(r record.Run) string { return fmt.Sprint(r.MaxTurns) }},
		{"max-tokens", func(r record.Run) string { return fmt.Sprint(r.MaxTokens) }},
		{"tries", func(r record.Run) string { return fmt.Sprint(r.Tries) }},
	}
	var diffs []string
	for _, f := range fields {
		var values []string
		first, differ := "", false
		for _, in := range inputs {
			if in.Run.Model == "" {
				continue // an oracle-only run has no model settings to differ in
			}
			v := f.get(in.Run)
			if len(values) == 0 {
				first = v
			}
			differ = differ || v != first
			values = append(values, in.Run.ID+": "+v)
		}
		if differ {
			diffs = append(diffs, f.name+" ("+strings.Join(values, ", ")+")")
		}
	}
	return strings.Join(diffs, ", ")
}
