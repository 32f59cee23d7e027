package report

import (
	"bench/record"
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
)

// Alpha is the significance level below which compare shows a change
// instead of "~".
const Alpha = 0.05

// Delta is the change of one task and track from old runs to new runs.
type Delta struct {
	Task              string  `json:"task"`
	Track             string  `json:"track"`
	OldN              int     `json:"old_n"`
	NewN              int     `json:"new_n"`
	OldPassed         int     `json:"old_passed"`
	NewPassed         int     `json:"new_passed"`
	RateChange        float64 `json:"rate_change"` // new rate − old rate
	RateP             float64 `json:"rate_p"`      // Fisher's exact test, two-sided
	RateSignificant   bool    `json:"rate_significant"`
	TokenBasis        string  `json:"token_basis"` // "reported" or "estimated"
	OldTokens         float64 `json:"old_median_tokens"`
	NewTokens         float64 `json:"new_median_tokens"`
	TokensP           float64 `json:"tokens_p"` // Mann-Whitney U test, two-sided
	TokensSignificant bool    `json:"tokens_significant"`
}

// Compare computes, per task and track present in both old and new, the
// change in pass rate (Fisher's exact test) and in median tokens
// (Mann-Whitney U test). Cells present on one side only are left out.
func Compare(old, new []record.Data) []Delta {
	newCells := map[[2]string]*cell{}
	for _, c := range group(new) {
		newCells[[2]string{c.task, c.track}] = c
	}
	var out []Delta
	for _, o := range group(old) {
		n := newCells[[2]string{o.task, o.track}]
		if n == nil {
			continue
		}
		out = append(out, delta(o, n))
	}
	return out
}

// Unmatched names the task/track cells that only one side holds, which
// Compare leaves out.
func Unmatched(old, new []record.Data) (onlyOld, onlyNew []string) {
	keys := func(in []record.Data) map[string]bool {
		m := map[string]bool{}
		for _, c := range group(in) {
			m[c.task+"/"+c.track] = true
		}
		return m
	}
	o, n := keys(old), keys(new)
	for k := range o {
		if !n[k] {
			onlyOld = append(onlyOld, k)
		}
	}
	for k := range n {
		if !o[k] {
			onlyNew = append(onlyNew, k)
		}
	}
	slices.Sort(onlyOld)
	slices.Sort(onlyNew)
	return onlyOld, onlyNew
}

// delta compares one cell of the old runs with the same cell of the new.
func delta(o, n *cell) Delta {
	d := Delta{Task: o.task, Track: o.track, OldN: len(o.entries), NewN: len(n.entries)}
	d.OldPassed, d.NewPassed = passes(o), passes(n)
	d.RateChange = sig6(float64(d.NewPassed)/float64(d.NewN) - float64(d.OldPassed)/float64(d.OldN))
	d.RateP = sig6(FisherExact(d.OldPassed, d.OldN-d.OldPassed, d.NewPassed, d.NewN-d.NewPassed))
	d.RateSignificant = d.RateP < Alpha
	d.TokenBasis = "reported"
	xs, ys := tokensOf(o, false), tokensOf(n, false)
	if median(xs) == 0 && median(ys) == 0 {
		d.TokenBasis = "estimated"
		xs, ys = tokensOf(o, true), tokensOf(n, true)
	}
	d.OldTokens, d.NewTokens = median(xs), median(ys)
	d.TokensP = sig6(MannWhitney(xs, ys))
	d.TokensSignificant = d.TokensP < Alpha
	return d
}

// passes counts the passed episodes of a cell.
func passes(c *cell) int {
	n := 0
	for _, e := range c.entries {
		if e.ep.Passed {
			n++
		}
	}
	return n
}

// compareTable lays deltas out benchstat-style: a change only when it is
// significant, else "~", always with the p-value and the sample sizes.
func compareTable(ds []Delta) table {
	t := table{
		title:  fmt.Sprintf("Changes from old to new (\"~\": not significant at α = %g)", Alpha),
		header: []string{"task", "track", "old passed", "new passed", "pass rate Δ", "old tokens", "new tokens", "tokens Δ"},
	}
	slices.SortFunc(ds, func(a, b Delta) int { return cmp.Or(cmp.Compare(a.Task, b.Task), compareTracks(a.Track, b.Track)) })
	for _, d := range ds {
		sizes := fmt.Sprintf("n=%d+%d", d.OldN, d.NewN)
		rate := "~"
		if d.RateSignificant {
			rate = fmt.Sprintf("%+.1fpp", 100*d.RateChange)
		}
		tokens := "~"
		if d.TokensSignificant {
			tokens = "changed"
			if d.OldTokens > 0 {
				tokens = fmt.Sprintf("%+.1f%%", 100*(d.NewTokens/d.OldTokens-1))
			}
		}
		est := ""
		if d.TokenBasis == "estimated" {
			est = " (est.)"
		}
		t.rows = append(t.rows, []string{
			d.Task, d.Track,
			fmt.Sprintf("%d/%d", d.OldPassed, d.OldN), fmt.Sprintf("%d/%d", d.NewPassed, d.NewN),
			fmt.Sprintf("%s (p=%.3f %s)", rate, d.RateP, sizes),
			num(d.OldTokens) + est, num(d.NewTokens) + est,
			fmt.Sprintf("%s (p=%.3f %s)", tokens, d.TokensP, sizes),
		})
	}
	return t
}

// noCommonCells is what compare prints when the runs share no task and track.
const noCommonCells = "no task and track appears in both runs: nothing to compare"

// WriteCompareText renders deltas as a plain-text table.
func WriteCompareText(w io.Writer, ds []Delta) error {
	if len(ds) == 0 {
		_, err := io.WriteString(w, noCommonCells+"\n")
		return err
	}
	return writeTextTables(w, nil, []table{compareTable(ds)}, nil)
}

// WriteCompareMarkdown renders deltas as a Markdown table.
func WriteCompareMarkdown(w io.Writer, ds []Delta) error {
	if len(ds) == 0 {
		_, err := io.WriteString(w, "# bench compare\n\n"+noCommonCells+"\n")
		return err
	}
	return writeMarkdownTables(w, "bench compare", nil, []table{compareTable(ds)}, nil)
}

// WriteCompareJSON renders deltas as a JSON document {"deltas": [...]}.
func WriteCompareJSON(w io.Writer, ds []Delta) error {
	return WriteJSONValue(w, struct {
		Alpha  float64 `json:"alpha"`
		Deltas []Delta `json:"deltas"`
	}{Alpha, nonNil(ds)})
}

// itoa is strconv.Itoa, for brevity in renderers.
var itoa = strconv.Itoa
