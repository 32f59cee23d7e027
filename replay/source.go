package replay

import (
	"fmt"
	"slices"
	"strings"

	"bench/model"
	"bench/record"
	"bench/tasks"
)

// Source is a recorded run read for replay.
type Source struct {
	Dir      string
	Run      record.Run // the recording's run.json: its settings are the replay's
	UID      string     // the recording's identity (record.Data.UID)
	Episodes []Episode  // the episodes to replay, in episodes.jsonl's order
	Skipped  []Skipped  // the episodes not replayed, in the same order
	Changed  []TaskChange
	Warnings []string // what reading episodes.jsonl found (record.Read's warnings)

	byKey map[string]Episode // every episode to replay, by key
}

// Episode is one recorded episode to replay, with the current task of its
// name and the path of its trajectory.
type Episode struct {
	Recorded   record.Episode
	Task       tasks.Task
	Trajectory string
}

// Skipped is a recorded episode that is not replayed, and why.
type Skipped struct {
	Key    string
	Reason string
}

// TaskChange is a task whose folder differs from the one recorded: its
// checksum in the recording's run.json and now.
type TaskChange struct {
	Name     string
	Recorded string
	Current  string
}

// String is the warning for a changed task.
func (c TaskChange) String() string {
	return fmt.Sprintf("task %s has changed since the recording (checksum %s then, %s now): it is replayed anyway, and where its tests or files differ the episodes will diverge",
		c.Name, model.ShortDigest(c.Recorded), model.ShortDigest(c.Current))
}

// Open reads the recorded run in dir for replay against the current
// tasks (the suite, or --tasks-dir's). Every finished episode is to be
// replayed; its trajectory is read and checked (Load), and Open refuses
// the recording when one is not whole, naming the first such file and how
// many more there are. An interrupted episode, and one lost to the
// infrastructure, is skipped: its recording ends in a call no model
// answered, and --resume would have redone it. A task of the recording
// missing from current is an error; one whose checksum differs is listed
// in Changed.
func Open(dir string, current []tasks.Task) (*Source, error) {
	data, err := record.Read(dir)
	if err != nil {
		return nil, fmt.Errorf("reading the recording: %w", err)
	}
	s := &Source{Dir: dir, Run: data.Run, UID: data.UID, Warnings: data.Warnings, byKey: map[string]Episode{}}
	byName := map[string]tasks.Task{}
	for _, t := range current {
		byName[t.Name] = t
	}
	if err := s.checkTasks(byName, data.Episodes); err != nil {
		return nil, err
	}
	var refused []error
	for _, ep := range data.Episodes {
		if why := notReplayed(ep); why != "" {
			s.Skipped = append(s.Skipped, Skipped{Key: ep.Key(), Reason: why})
			continue
		}
		if err := plainNames(ep); err != nil {
			refused = append(refused, err)
			continue
		}
		path := data.TrajectoryPath(ep)
		if _, err := Load(path, ep); err != nil {
			refused = append(refused, err)
			continue
		}
		e := Episode{Recorded: ep, Task: byName[ep.Task], Trajectory: path}
		s.byKey[ep.Key()] = e
		s.Episodes = append(s.Episodes, e)
	}
	switch {
	case len(refused) == 1:
		return nil, refused[0]
	case len(refused) > 1:
		return nil, fmt.Errorf("%w (and %d more trajectories cannot be replayed)", refused[0], len(refused)-1)
	case len(s.Episodes) == 0:
		return nil, fmt.Errorf("%s holds no finished episode to replay (%d recorded, %d interrupted or lost)", dir, len(data.Episodes), len(s.Skipped))
	}
	return s, nil
}

// checkTasks finds the current task of every task the recording ran: a
// missing one is an error; one whose checksum differs is noted in Changed.
// The tasks of the episodes are looked up too, in case run.json lacks one.
func (s *Source) checkTasks(byName map[string]tasks.Task, eps []record.Episode) error {
	var missing []string
	for _, ep := range eps {
		if _, ok := byName[ep.Task]; !ok && !slices.Contains(missing, ep.Task) {
			missing = append(missing, ep.Task)
		}
	}
	for _, ref := range s.Run.Tasks {
		t, ok := byName[ref.Name]
		if !ok {
			if !slices.Contains(missing, ref.Name) {
				missing = append(missing, ref.Name)
			}
			continue
		}
		sum, err := t.Checksum()
		if err != nil {
			return fmt.Errorf("checking task %s against the recording: %w", ref.Name, err)
		}
		if sum != ref.Checksum {
			s.Changed = append(s.Changed, TaskChange{Name: ref.Name, Recorded: ref.Checksum, Current: sum})
		}
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		return fmt.Errorf("the recording ran %s, which the current tasks lack: replay needs every task it ran (give --tasks-dir with the folder that holds them)",
			strings.Join(missing, ", "))
	}
	return nil
}

// plainNames refuses an episode whose track or model would not name a
// folder inside the run's trajectories (a line of episodes.jsonl written
// by hand or by a hostile hand): its trajectory is never looked for
// outside the recording.
func plainNames(ep record.Episode) error {
	for _, name := range []struct{ what, name string }{{"track", ep.Track}, {"model", record.ModelDir(ep.Model)}} {
		if name.what == "model" && name.name == "" {
			continue // a run of one model names none
		}
		if !record.PlainName(name.name) {
			return fmt.Errorf("cannot replay %s: episodes.jsonl names the %s %q, which names no folder of the recording's trajectories", ep.Key(), name.what, name.name)
		}
	}
	return nil
}

// notReplayed says why a recorded episode is not replayed ("" when it is).
func notReplayed(ep record.Episode) string {
	switch {
	case ep.ExitReason == record.ExitInterrupted:
		return "it was interrupted: its recording stops where the run did"
	case ep.Lost():
		return fmt.Sprintf("it was lost to the infrastructure (%s): no model answered its last call", ep.ErrorKind)
	}
	return ""
}

// Player reads the trajectory of the episode of key (record.Episode.Key),
// one Open found to replay, again, checks it (Load) and returns the
// episode's player.
func (s *Source) Player(key string) (*Player, error) {
	e, ok := s.byKey[key]
	if !ok {
		return nil, fmt.Errorf("the recording in %s has no episode %s to replay", s.Dir, key)
	}
	events, err := Load(e.Trajectory, e.Recorded)
	if err != nil {
		return nil, err
	}
	return NewPlayer(e.Recorded, events)
}
