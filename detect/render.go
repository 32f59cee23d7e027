package detect

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"bench/internal/table"
	"bench/model/tokens"
)

// KnownMode reports whether mode is a mode or one of its aliases (which
// NormalizeMode would not turn into ModeAuto by default).
func KnownMode(mode string) bool {
	return NormalizeMode(mode) != ModeAuto || strings.ToLower(strings.TrimSpace(mode)) == ModeAuto
}

// WriteReplay writes the lesson's table of the replay in format (one of
// table.Formats), then, except in CSV (the table alone) and JSON (the
// results as {"cases": …}), the cases' names and each snapshot.
func WriteReplay(w io.Writer, results []CaseResult, format string) error {
	if format == table.JSON {
		return WriteJSON(w, struct {
			Cases []CaseResult `json:"cases"`
		}{results})
	}
	rows := make([][]string, len(results))
	for i, r := range results {
		rows[i] = []string{strconv.Itoa(r.Case), r.Platform, r.Mode, r.NaiveProfile, r.Profile,
			yesOrDash(r.Guidance), yesOrDash(r.Snapshot != ""), orDash(strings.Join(r.Toolset, ", ")), countOrDash(len(r.Demoted))}
	}
	header := []string{"case", "platform", "mode", "naive rule", "profile", "guidance", "snapshot", "toolset", "demoted"}
	if err := table.Write(w, format, header, rows); err != nil {
		return err
	}
	if format == table.CSV {
		return nil
	}
	fmt.Fprintln(w)
	for _, r := range results {
		fmt.Fprintf(w, "%d. %s\n", r.Case, r.Name)
	}
	for _, r := range results {
		if r.Snapshot != "" {
			fmt.Fprintf(w, "\nCase %d snapshot:\n%s\n", r.Case, r.Snapshot)
		}
	}
	return nil
}

// WriteDecision writes the decision for one directory as aligned
// "field: value" lines and its snapshot.
func WriteDecision(w io.Writer, d Decision) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, kv := range [][2]string{
		{"dir", d.Dir}, {"mode", d.Mode}, {"platform", d.Platform},
		{"profile", d.Profile}, {"naive rule", d.NaiveProfile}, {"root", orDash(d.Root)},
		{"guidance", yesOrDash(d.Guidance)}, {"toolset", orDash(strings.Join(d.Toolset, ", "))},
		{"demoted", countOrDash(len(d.Demoted))},
	} {
		fmt.Fprintf(tw, "%s:\t%s\n", kv[0], kv[1])
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	var err error
	if d.Snapshot != "" {
		_, err = fmt.Fprintf(w, "\n%s\n", d.Snapshot)
	}
	return err
}

// WriteGuidance writes the coding guidance and its size in characters and
// in tokens of each offline encoding.
func WriteGuidance(w io.Writer) error {
	fmt.Fprintln(w, Guidance)
	fmt.Fprintf(w, "\n%d characters", utf8.RuneCountInString(Guidance))
	for _, enc := range []string{tokens.CL100K, tokens.O200K} {
		counter, err := tokens.New(enc)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, ", %d tokens (%s)", counter.Count(Guidance), enc)
	}
	_, err := fmt.Fprintln(w)
	return err
}

// ExpectedIn reads the expected table from the file path (bench detect
// --expected), or the built-in one when path is "".
func ExpectedIn(path string) ([]Expectation, error) {
	if path == "" {
		return Expected()
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("--expected %s does not exist; give a JSON file shaped like detect/expected.json, or leave --expected out for the built-in table", path)
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read --expected %s: %w", path, err)
	}
	return ParseExpectations(data, path)
}

// WriteJSON writes v as indented JSON, with <, > and & as they are.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func yesOrDash(b bool) string {
	if b {
		return "yes"
	}
	return "–"
}

func orDash(s string) string {
	if s == "" {
		return "–"
	}
	return s
}

func countOrDash(n int) string {
	if n == 0 {
		return "–"
	}
	return strconv.Itoa(n)
}
