package integration

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"bench/record"
)

// episodes reads a run folder's episodes, keyed by track/seed-name.
func episodes(t *testing.T, dir string) map[string]record.Episode {
	t.Helper()
	data, err := record.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(data.Warnings) > 0 {
		t.Errorf("reading %s: %v", dir, data.Warnings)
	}
	eps := map[string]record.Episode{}
	for _, ep := range data.Episodes {
		eps[ep.Track+"/"+record.TrajectoryName(ep.Seed, ep.Repeat)] = ep
	}
	return eps
}

// episode is the one episode of track and name (seed-1, seed-1-r1, …).
func episode(t *testing.T, dir, track, name string) record.Episode {
	t.Helper()
	ep, ok := episodes(t, dir)[track+"/"+name]
	if !ok {
		t.Fatalf("%s has no episode %s/%s", dir, track, name)
	}
	return ep
}

// trajectoryPath is the trajectory file of one episode of the suite's task.
func trajectoryPath(dir, track, name string) string {
	return filepath.Join(dir, record.TrajectoriesDir, task, track, name+".jsonl")
}

// events reads one episode's trajectory.
func events(t *testing.T, dir, track, name string) []record.Event {
	t.Helper()
	evs, warnings, err := record.ReadTrajectory(trajectoryPath(dir, track, name))
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) > 0 {
		t.Errorf("reading %s %s: %v", track, name, warnings)
	}
	return evs
}

// exchange is the request and response lines of a trajectory, as written,
// but for the fields that differ between identical calls: when they
// happened and how long they took.
func exchange(t *testing.T, dir, track, name string) []string {
	t.Helper()
	f, err := os.Open(trajectoryPath(dir, track, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(sc.Bytes(), &fields); err != nil {
			t.Fatalf("%s %s: %v", track, name, err)
		}
		var kind string
		json.Unmarshal(fields["kind"], &kind) //nolint:errcheck // a missing kind is not an exchange
		if kind != record.EventRequest && kind != record.EventResponse {
			continue
		}
		delete(fields, "time")
		delete(fields, "duration_ms")
		line, err := json.Marshal(fields) // map keys sorted; values kept byte for byte
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, string(line))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return lines
}

// responses are the response events of a trajectory.
func responses(evs []record.Event) []record.Event {
	var out []record.Event
	for _, ev := range evs {
		if ev.Kind == record.EventResponse {
			out = append(out, ev)
		}
	}
	return out
}
