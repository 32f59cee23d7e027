package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// WriteCSV renders the rows of the report as one flat CSV table: a column
// per statistic, pass@k for each k of PassAtKs (empty when n < k), a column
// per exit reason seen, and the text of the row's footnotes.
func WriteCSV(w io.Writer, rep *Report) error {
	exits := exitNames(rep)
	header := []string{"task", "track", "n", "passed", "rate", "wilson95_low", "wilson95_high"}
	for _, k := range PassAtKs {
		header = append(header, "pass@"+strconv.Itoa(k))
	}
	header = append(header, "median_tokens", "median_est_tokens", "median_turns")
	for _, e := range exits {
		header = append(header, "exit_"+e)
	}
	header = append(header, "notes")

	cw := csv.NewWriter(w)
	if err := cw.Write(header); err != nil {
		return err
	}
	texts := map[int]string{}
	for _, f := range rep.Footnotes {
		texts[f.ID] = f.Text
	}
	for _, r := range rep.Rows {
		rec := []string{r.Task, r.Track, strconv.Itoa(r.N), strconv.Itoa(r.Passed), f4(r.Rate), f4(r.Wilson.Low), f4(r.Wilson.High)}
		for _, k := range PassAtKs {
			v := ""
			for _, p := range r.PassAtK {
				if p.K == k {
					v = f4(p.P)
				}
			}
			rec = append(rec, v)
		}
		rec = append(rec, num(r.MedianTokens), num(r.MedianEstTokens), num(r.MedianTurns))
		for _, e := range exits {
			n := 0
			for _, c := range r.Exits {
				if c.Name == e {
					n = c.Count
				}
			}
			rec = append(rec, strconv.Itoa(n))
		}
		var notes []string
		for _, id := range r.Notes {
			notes = append(notes, fmt.Sprintf("[%d] %s", id, texts[id]))
		}
		rec = append(rec, strings.Join(notes, "; "))
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// exitNames lists the exit reasons of all rows, contract reasons first.
func exitNames(rep *Report) []string {
	var names []string
	for _, r := range rep.Rows {
		for _, c := range r.Exits {
			if !slices.Contains(names, c.Name) {
				names = append(names, c.Name)
			}
		}
	}
	slices.SortFunc(names, compareExits)
	return names
}

// f4 formats a probability with four decimals.
func f4(x float64) string {
	return strconv.FormatFloat(x, 'f', 4, 64)
}
