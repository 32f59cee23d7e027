package runner

import (
	"slices"
	"testing"

	"bench/trackfacts"
)

// TestRegistryReadsTheFacts: the registry holds every known track, in
// trackfacts' order (trackfacts' TestKnownOrder pins that order to the
// same list), each compared with the tracks trackfacts names; a track the
// registry adds has its facts there too, so that the report (which reads
// only trackfacts) orders and pairs it as the runner does.
func TestRegistryReadsTheFacts(t *testing.T) {
	var names []string
	for _, tr := range Tracks() {
		f, ok := trackfacts.Lookup(tr.Name)
		if !ok {
			t.Errorf("the registry's track %q has no facts in trackfacts", tr.Name)
			continue
		}
		if !slices.Equal(tr.ComparedTo, f.ComparedTo) {
			t.Errorf("track %s: the registry compares it with %v, trackfacts with %v", tr.Name, tr.ComparedTo, f.ComparedTo)
		}
		names = append(names, tr.Name)
	}
	known := []string{trackfacts.Workflow, trackfacts.WorkflowRetry, trackfacts.Hybrid, trackfacts.Agent, trackfacts.Oracle}
	if !slices.Equal(names, known) {
		t.Errorf("registry order %v, trackfacts order %v", names, known)
	}
}
