package preflight

import (
	"encoding/json"
	"fmt"
	"io"
)

// WriteText writes one line per check and a verdict, as bench doctor
// prints them.
func WriteText(w io.Writer, checks []Check) error {
	for _, c := range checks {
		if _, err := fmt.Fprintln(w, c); err != nil {
			return err
		}
	}
	verdict := "ready: a run can start"
	if failed := Failed(checks); len(failed) > 0 {
		verdict = fmt.Sprintf("not ready: %d check(s) failed", len(failed))
	}
	_, err := fmt.Fprintln(w, verdict)
	return err
}

// checkJSON is one check as `bench doctor --format json` prints it.
type checkJSON struct {
	Name   string `json:"name"`
	Status string `json:"status"` // pass, fail or skipped
	Text   string `json:"text"`
	Fix    string `json:"fix,omitempty"`
	Digest string `json:"digest,omitempty"` // the model's full digest
}

// WriteJSON writes the checks and whether a run can start.
func WriteJSON(w io.Writer, checks []Check) error {
	out := struct {
		Ready  bool        `json:"ready"`
		Checks []checkJSON `json:"checks"`
	}{Ready: OK(checks), Checks: []checkJSON{}}
	for _, c := range checks {
		out.Checks = append(out.Checks, checkJSON{Name: c.Name, Status: c.Status.String(), Text: c.Text, Fix: c.Fix, Digest: c.Digest})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
