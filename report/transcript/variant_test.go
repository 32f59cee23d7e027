package transcript

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"bench/record"
	"bench/trackfacts"
)

// variantRun writes a run of the dimension max-turns 5,25: leap_year's
// oracle episode of seed 1 in each variant, each trajectory in its
// variant's folder and ending with the variant in its error text, so that
// the transcript shows which file was read.
func variantRun(t *testing.T) record.Data {
	t.Helper()
	dir := t.TempDir()
	run := record.Run{Dimensions: []record.Dimension{{Name: "max-turns", Values: []string{"5", "25"}}}}
	var eps []record.Episode
	for _, v := range run.Variants() {
		ep := record.Episode{Task: "leap_year", Track: trackfacts.Oracle, Variant: v, Seed: 1, ExitReason: record.ExitDone}
		writeEnd(t, filepath.Join(dir, record.TrajectoryRel(run, ep)), record.Event{Kind: record.EventEnd, Exit: record.ExitDone, Error: "ran as " + v})
		eps = append(eps, ep)
	}
	return record.Data{Dir: dir, Run: run, Episodes: eps}
}

// TestShowPicksAVariant: in a run with dimensions each variant's episode
// is an entry of its own, found on disk in its variant's folder (not
// reported missing), and --variant picks one; without it the two are
// listed with the flag that picks one, as the models of a run are.
func TestShowPicksAVariant(t *testing.T) {
	data := variantRun(t)
	entries, err := Entries(data)
	if err != nil || len(entries) != 2 {
		t.Fatalf("entries %+v, %v; want one per variant", entries, err)
	}
	for _, e := range entries {
		if e.Episode == nil || e.Trajectory == "" || e.Variant == "" {
			t.Errorf("entry %+v: want its line, its trajectory and its variant", e)
		}
	}
	var out bytes.Buffer
	req := Request{Filter: Filter{Task: "leap_year", Track: trackfacts.Oracle, Variant: "max-turns=25"}, Format: "text"}
	if err := Show(&out, &bytes.Buffer{}, data, req); err != nil || !strings.Contains(out.String(), "ran as max-turns=25") {
		t.Fatalf("--variant max-turns=25: %v\n%s", err, out.String())
	}
	out.Reset()
	req.Filter.Variant = ""
	req.Filter.Seed = new(int)
	*req.Filter.Seed = 1
	if err := Show(&out, &bytes.Buffer{}, data, req); err != nil || !strings.Contains(out.String(), "--variant max-turns=") || !strings.Contains(out.String(), "max-turns=25") || !strings.Contains(out.String(), "variant") {
		t.Fatalf("two variants, none picked: %v\n%s", err, out.String())
	}
}
