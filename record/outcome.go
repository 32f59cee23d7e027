package record

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

// Outcome is an episode as a report counts it: its key, verdict, exit and
// what it spent, without the test names, error text and other fields of
// its line that no summary reads. An Outcome is kept per episode of runs
// of a million episodes, so what many share is shared: its Label, and its
// tool-call and step lists with the outcomes that hold the same list. Read
// them, never change them.
type Outcome struct {
	*Label
	TrajectorySHA256 string
	ToolCalls        []string
	Steps            []string
	Seed, Repeat     int
	TestsPassed      int
	TestsTotal       int
	Turns            int
	Tokens           int // reported, prompt + completion
	EstTokens        int // estimated offline, prompt + completion
	Retries          int
	CutReplies       int
	Passed           bool
	GradingTimedOut  bool
}

// Label is the names an Outcome shares with the outcomes of its task,
// track, model and exit.
type Label struct {
	Task, Track, Model    string
	ExitReason, ErrorKind string
}

// Outcomes is what a report reads of a run folder: Data with an Outcome
// for each episode instead of the whole Episode.
type Outcomes struct {
	Dir      string
	Run      Run
	Episodes []Outcome // in file order; a repeated episode key keeps its last line
	Warnings []string  // as Data's
}

// Lost reports whether the episode was ended by an infrastructure failure
// (as Episode.Lost).
func (o *Outcome) Lost() bool {
	return o.ExitReason == ExitError && InfraError(o.ErrorKind)
}

// Key identifies the episode within its run, as Episode.Key.
func (o *Outcome) Key() string {
	return Episode{Task: o.Task, Track: o.Track, Model: o.Model, Seed: o.Seed, Repeat: o.Repeat}.Key()
}

// ReadOutcomes reads run.json and episodes.jsonl of the run folder dir as
// Read does, with the same warnings and errors, keeping an Outcome of each
// episode: a report over a large run holds a few numbers per episode
// rather than every line.
func ReadOutcomes(dir string) (Outcomes, error) {
	out := Outcomes{Dir: dir}
	in := newInterner()
	var seen latest[uint64]
	keys := outcomeKeys{cells: map[*Label]uint64{}, names: map[[3]string]uint64{}, odd: map[outcomeKey]uint64{}}
	path := filepath.Join(dir, EpisodesFile)
	var size, read int64 // of the file and of the lines read, to size out.Episodes
	if st, err := os.Stat(path); err == nil {
		size = st.Size()
	}
	tail, err := scanEpisodes(dir, &out.Run, decodeOutcomeLine, func(line int, l *outcomeLine) error {
		if l.format > FormatVersion {
			return newerFormat(path, line, l.format)
		}
		o := in.outcome(l)
		pos, prev := seen.place(keys.of(&o), line, o.ExitReason == ExitInterrupted || o.Lost())
		if prev > 0 {
			out.Warnings = append(out.Warnings, repeatWarning(path, line, o.Key(), prev))
		}
		read += int64(l.size)
		if pos < len(out.Episodes) {
			out.Episodes[pos] = o
		} else {
			out.Episodes = append(grow(out.Episodes, &seen, read, size), o)
		}
		return nil
	})
	if err != nil {
		return Outcomes{}, err
	}
	out.Warnings = append(out.Warnings, tail.warnings...)
	return out, nil
}

// grow returns eps with room for one more outcome. When it is full after
// the first few thousand lines, it makes room for as many more as the rest
// of the file holds at the size of the lines read so far (size is the
// file's when reading began: a quarter more when a live run wrote past
// it), in eps and in seen's index: one copy instead of the many of append,
// which for a million episodes would hold several times their size at once.
func grow(eps []Outcome, seen *latest[uint64], read, size int64) []Outcome {
	if len(eps) < cap(eps) || len(eps) < 4096 || read <= 0 {
		return eps
	}
	more := max(int(float64(len(eps))*float64(size-read)/float64(read)*1.05)+1024, len(eps)/4)
	seen.reserve(len(eps) + more)
	return slices.Grow(eps, more)
}

// Outcomes returns the Outcome of each episode read.
func (d Data) Outcomes() Outcomes {
	out := Outcomes{Dir: d.Dir, Run: d.Run, Warnings: d.Warnings, Episodes: make([]Outcome, len(d.Episodes))}
	in := newInterner()
	for i := range d.Episodes {
		l := lineOf(&d.Episodes[i])
		out.Episodes[i] = in.outcome(&l)
	}
	return out
}

// interner keeps one copy of each name, label and list of the outcomes
// read.
type interner struct {
	names  map[string]string
	labels map[string]*Label   // by its names, each after its length
	lists  map[string][]string // by the list's JSON text
	key    []byte              // a label's key, reused
}

// newInterner returns an empty interner.
func newInterner() *interner {
	return &interner{names: map[string]string{}, labels: map[string]*Label{}, lists: map[string][]string{}}
}

// outcomeKeys numbers the keys of the outcomes read, for a map of 64-bit
// keys: a million of them go in and out of such a map several times faster
// than keys of strings.
type outcomeKeys struct {
	cells map[*Label]uint64    // cell of each label
	names map[[3]string]uint64 // cell of each task, track and model
	odd   map[outcomeKey]uint64
}

// outcomeKey identifies an episode within a run.
type outcomeKey struct {
	cell         uint64
	seed, repeat int
}

// of returns o's key: its cell, repeat and seed packed in 63 bits when
// they fit, as they do in runs bench writes, else the top bit and a number
// for the whole key.
func (k *outcomeKeys) of(o *Outcome) uint64 {
	cell, ok := k.cells[o.Label]
	if !ok {
		names := [3]string{o.Task, o.Track, o.Model}
		if cell, ok = k.names[names]; !ok {
			cell = uint64(len(k.names))
			k.names[names] = cell
		}
		k.cells[o.Label] = cell
	}
	if cell < 1<<20 && uint(o.Repeat) < 1<<11 && uint(o.Seed) < 1<<32 {
		return cell<<43 | uint64(o.Repeat)<<32 | uint64(o.Seed)
	}
	key := outcomeKey{cell, o.Seed, o.Repeat}
	n, ok := k.odd[key]
	if !ok {
		n = uint64(len(k.odd))
		k.odd[key] = n
	}
	return 1<<63 | n
}

// name returns the interned string of b.
func (in *interner) name(b []byte) string {
	if s, ok := in.names[string(b)]; ok {
		return s
	}
	s := string(b)
	in.names[s] = s
	return s
}

// label returns the interned label of l's names: one lookup of them all,
// not one per name.
func (in *interner) label(l *outcomeLine) *Label {
	in.key = in.key[:0]
	for _, name := range [...][]byte{l.task, l.track, l.model, l.exitReason, l.errorKind} {
		in.key = append(binary.AppendUvarint(in.key, uint64(len(name))), name...)
	}
	if p, ok := in.labels[string(in.key)]; ok {
		return p
	}
	p := &Label{
		Task: in.name(l.task), Track: in.name(l.track), Model: in.name(l.model),
		ExitReason: in.name(l.exitReason), ErrorKind: in.name(l.errorKind),
	}
	in.labels[string(in.key)] = p
	return p
}

// list returns the interned list of the JSON text raw ("null" or nothing
// is nil, "[]" an empty list), which the decoder has checked to be an
// array of strings.
func (in *interner) list(raw []byte) []string {
	if l, ok := in.lists[string(raw)]; ok {
		return l
	}
	var l []string
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &l); err != nil {
			panic(fmt.Sprintf("record: a checked list does not decode: %v", err))
		}
		for i, s := range l {
			l[i] = in.name([]byte(s))
		}
	}
	in.lists[string(raw)] = l
	return l
}

// outcome makes the Outcome of a decoded line.
func (in *interner) outcome(l *outcomeLine) Outcome {
	o := Outcome{
		Label:     in.label(l),
		ToolCalls: in.list(l.toolCalls), Steps: in.list(l.steps),
		Seed: l.seed, Repeat: l.repeat, TestsPassed: l.testsPassed, TestsTotal: l.testsTotal, Turns: l.turns,
		Tokens: l.promptTokens + l.completionTokens, EstTokens: l.estPromptTokens + l.estCompletionTokens,
		Retries: l.retries, CutReplies: l.cutReplies, Passed: l.passed, GradingTimedOut: l.gradingTimedOut,
	}
	if len(l.trajectorySHA256) > 0 {
		o.TrajectorySHA256 = string(l.trajectorySHA256)
	}
	return o
}
