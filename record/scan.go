package record

import (
	"bytes"
	"encoding/json"
	"hash/maphash"
	"iter"
	"os"
	"path/filepath"
	"slices"

	"bench/trackfacts"
)

// Line is one episode as Scan passes it to its visitor: what the views
// count, its verdict (the one definition of how it counts), and where it
// stands among the folder's episodes. Names and lists are slices of the
// line read, valid until the visitor returns: a view keeps what it needs
// of them, in the form it needs, and a run of a million episodes is never
// held as a million records.
type Line struct {
	Task, Track, Model    []byte
	Variant               []byte // the episode's variant of the run's dimensions (Episode.Variant), empty without
	ExitReason, ErrorKind []byte
	ToolCalls, Steps      []byte // the JSON text of a list of strings, "null" or nothing: read them with Strings
	// ToolCodes is the tool calls as the index of each in
	// trackfacts.AgentTools, a byte a call, worked out on the decoding
	// goroutines; nil when a call is of another tool (read ToolCalls
	// then), empty when there is none.
	ToolCodes []byte
	// ToolsHash is a hash of ToolCodes (when there are), made on the
	// decoding goroutines, for a view to look the sequence up by.
	ToolsHash       uint64
	Seed, Repeat    int
	TestsPassed     int
	TestsTotal      int
	Turns           int
	Tokens          int // reported, prompt + completion
	EstTokens       int // estimated offline, prompt + completion
	Retries         int
	CutReplies      int
	GradingTimedOut bool
	// WorkflowCalls and WorkflowTokens are the hybrid's share of the model
	// calls and of Tokens spent by its run_workflow tool (0 for the other
	// tracks).
	WorkflowCalls, WorkflowTokens int
	// Causes are the names of the episode's causes, with CausesRecorded
	// when its line holds them (see CauseSet).
	Causes CauseSet

	// Verdict is how the episode counts: its line's verdict, a pass made
	// inconsistent when its trajectory is gone or was edited.
	Verdict Verdict
	// TrajectoryMissing is set when the episode's trajectory file is not
	// in the folder (lost episodes are not looked at).
	TrajectoryMissing bool

	// Cell numbers the line's task, track, model and variant within the folder:
	// lines with the same names have the same Cell, from 0 up.
	Cell int
	// Pos is the episode's place among the folder's episodes, the index
	// Read gives it in Data.Episodes; Replaces is set when an earlier line
	// of the same episode (task, track, model, seed, repeat) was passed at
	// Pos: the later line stands, as Read keeps it.
	Pos      int
	Replaces bool
	// Size is the line's length in bytes.
	Size int
}

// Key is the episode's key, as Episode.Key.
func (l *Line) Key() string {
	return Episode{Task: string(l.Task), Track: string(l.Track), Model: string(l.Model), Variant: string(l.Variant), Seed: l.Seed, Repeat: l.Repeat}.Key()
}

// Folder is a run folder whose run.json has been read and checked, ready
// to Scan.
type Folder struct {
	Dir  string
	Run  Run
	UID  string // the run's identity, as Data.UID
	Size int64  // of its episodes.jsonl when opened (0 when there is none): a live run's grows
}

// OpenFolder reads and checks the run.json of the run folder dir, with
// the errors of Read.
func OpenFolder(dir string) (Folder, error) {
	run, uid, err := readRun(dir)
	if err != nil {
		return Folder{}, err
	}
	f := Folder{Dir: dir, Run: run, UID: uid}
	if st, err := os.Stat(filepath.Join(dir, EpisodesFile)); err == nil {
		f.Size = st.Size()
	}
	return f, nil
}

// Expected estimates how many lines a file of size bytes holds once count
// lines of bytes in all have been read (after the first few thousand,
// else 0): a quarter more than read for a file that grew past size while
// being read. A reader sizes what it keeps by it once, instead of growing
// it many times.
func Expected(size int64, count int, bytes int64) int {
	if count < 4096 || bytes <= 0 {
		return 0
	}
	return max(int(float64(count)*float64(size)/float64(bytes)*1.05)+1024, count+count/4)
}

// Scan streams the folder's episodes.jsonl to visit, line by line in file
// order, with the warnings and errors of Read (which it agrees with line
// for line: a test reads folders both ways): a torn or malformed line is
// skipped with a warning, a repeated episode replaces the earlier line's
// (with a warning unless that episode was interrupted or lost), a newer
// format is an error. Lines are decoded, and the trajectories of passes
// checked, on other goroutines; visit runs on the caller's.
func (f Folder) Scan(visit func(*Line) error) (warnings []string, err error) {
	path := filepath.Join(f.Dir, EpisodesFile)
	check := newTrajectoryCheck(f.Dir, f.Run)
	decode := func(b []byte, l *outcomeLine) error {
		if err := decodeOutcomeLine(b, l); err != nil {
			return err
		}
		check.complete(l)
		return nil
	}
	var p placer
	var bytes int64
	reserved := false
	tail, err := scanFile(path, decode, func(line int, l *outcomeLine) error {
		if l.format > FormatVersion {
			return newerFormat(path, line, l.format)
		}
		if bytes += int64(l.size); !reserved {
			if n := Expected(f.Size, line, bytes); n > 0 {
				p.seen.reserve(n)
				reserved = true
			}
		}
		out, prev := p.place(l, line)
		if prev > 0 {
			warnings = append(warnings, repeatWarning(path, line, out.Key(), prev))
		}
		return visit(out)
	})
	if err != nil {
		return nil, err
	}
	return append(warnings, tail.warnings...), nil
}

// Scan passes the episodes of d to visit as Folder.Scan passes those of a
// folder, in order, each at its index (Read leaves no repeated key; one
// built otherwise is taken as it is). The trajectories are checked in
// d.Dir, unless it is "".
func (d Data) Scan(visit func(*Line) error) error {
	check := newTrajectoryCheck(d.Dir, d.Run)
	var p placer
	for i := range d.Episodes {
		l := lineOf(&d.Episodes[i])
		check.complete(&l)
		out := p.fill(&l, p.cell(&l), i, false)
		if err := visit(out); err != nil {
			return err
		}
	}
	return nil
}

// complete makes what a decoded line's Line holds beyond its fields: the
// hash of its names (first: judge finds the trajectory folder by it), its
// verdict and its tool codes with their hash.
func (c *trajectoryCheck) complete(l *outcomeLine) {
	l.cellHash = namesHash(l.task, l.track, l.model, l.variant)
	l.verdict, l.missing = c.judge(l)
	l.toolCodes = toolCodes(l.toolCalls)
	l.toolsHash = maphash.Bytes(hashSeed, l.toolCodes)
}

// placer numbers the cells of the lines of one folder and places each
// episode (see Line.Pos), reusing one Line.
type placer struct {
	cells  map[string]int // by nameKey of task, track, model and variant
	byHash map[uint64]int // by namesHash, the first cell of each hash
	names  [][4]string    // the names of each cell
	seen   latest[uint64]
	first  denseFirst
	keys   packer
	key    []byte
	line   Line
}

// place fills p's Line from l read at line, and returns it with the line
// number of the earlier line it replaces when that deserves a warning.
func (p *placer) place(l *outcomeLine, line int) (*Line, int) {
	cell := p.cell(l)
	redo := l.verdict.Status == StatusInterrupted || l.verdict.Status == StatusLost
	var pos, prev int
	var replaces bool
	if slot := p.first.slot(cell, l.seed, l.repeat); slot != nil {
		pos, prev, replaces = p.seen.placeAt(slot, line, redo)
	} else {
		pos, prev, replaces = p.seen.place(p.keys.of(cell, l.seed, l.repeat), line, redo)
	}
	return p.fill(l, cell, pos, replaces), prev
}

// Limits of denseFirst: the cells and seeds it holds, so that no folder
// makes it take more than 128 × 128Ki × 4 bytes (64 MiB), whatever its
// lines say; a run of 12 cells and 83,000 seeds (a million episodes)
// takes 4 MB.
const (
	denseCells = 128
	denseSeeds = 1 << 17
)

// denseFirst is where the episodes of a seed's first use (repeat 0) are
// placed, by cell and seed: a slice indexed by the seed instead of an
// entry in latest's map, which a million episodes go in and out of
// several times slower. Seeds are the small whole numbers bench plans;
// any other key (a repeat, a seed or cell past the limits) is latest's.
type denseFirst struct {
	bySeed [][]int32 // per cell, per seed: 1 + the position, 0 for none
}

// slot returns where the position of the episode of cell, seed and repeat
// is kept, or nil when it is not one denseFirst holds.
func (d *denseFirst) slot(cell, seed, repeat int) *int32 {
	if repeat != 0 || cell < 0 || cell >= denseCells || seed < 0 || seed >= denseSeeds {
		return nil
	}
	for len(d.bySeed) <= cell {
		d.bySeed = append(d.bySeed, nil)
	}
	s := d.bySeed[cell]
	if seed >= len(s) {
		s = slices.Grow(s, min(denseSeeds, max(seed+1, 2*len(s)))-len(s))
		s = s[:cap(s)]
		d.bySeed[cell] = s
	}
	return &s[seed]
}

// cell returns the number of l's task, track and model: by the hash of
// its names made on the decoding goroutines (checked against the names),
// else by the names themselves.
func (p *placer) cell(l *outcomeLine) int {
	if c, ok := p.byHash[l.cellHash]; ok {
		if n := p.names[c]; n[0] == string(l.task) && n[1] == string(l.track) && n[2] == string(l.model) && n[3] == string(l.variant) {
			return c
		}
	}
	if p.cells == nil {
		p.cells, p.byHash = map[string]int{}, map[uint64]int{}
	}
	p.key = nameKey(p.key[:0], l.task, l.track, l.model, l.variant)
	cell, ok := p.cells[string(p.key)]
	if !ok {
		cell = len(p.cells)
		p.cells[string(p.key)] = cell
		p.names = append(p.names, [4]string{string(l.task), string(l.track), string(l.model), string(l.variant)})
	}
	if _, ok := p.byHash[l.cellHash]; !ok {
		p.byHash[l.cellHash] = cell
	}
	return cell
}

// hashSeed seeds namesHash, once per process.
var hashSeed = maphash.MakeSeed()

// namesHash is a hash of task, track, model and variant, each after its length.
func namesHash(task, track, model, variant []byte) uint64 {
	var h maphash.Hash
	h.SetSeed(hashSeed)
	for _, n := range [...][]byte{task, track, model, variant} {
		h.WriteByte(byte(len(n)))
		h.Write(n)
	}
	return h.Sum64()
}

// fill fills p's Line from l, its cell and its place, and returns it.
func (p *placer) fill(l *outcomeLine, cell, pos int, replaces bool) *Line {
	p.line = Line{
		Task: l.task, Track: l.track, Model: l.model, Variant: l.variant, ExitReason: l.exitReason, ErrorKind: l.errorKind,
		ToolCalls: l.toolCalls, ToolCodes: l.toolCodes, ToolsHash: l.toolsHash, Steps: l.steps, Seed: l.seed, Repeat: l.repeat,
		TestsPassed: l.testsPassed, TestsTotal: l.testsTotal, Turns: l.turns,
		Tokens: l.promptTokens + l.completionTokens, EstTokens: l.estPromptTokens + l.estCompletionTokens,
		Retries: l.retries, CutReplies: l.cutReplies, GradingTimedOut: l.gradingTimedOut,
		WorkflowCalls: l.workflowCalls, WorkflowTokens: l.workflowTokens, Causes: l.causes,
		Verdict: l.verdict, TrajectoryMissing: l.missing, Cell: cell, Pos: pos, Replaces: replaces, Size: l.size,
	}
	return &p.line
}

// packer numbers episode keys (a cell, a seed, a repeat) as 64-bit map
// keys: the three packed into 63 bits when they fit, as they do in runs
// bench writes, else the top bit and a number for the whole key. A
// million uint64 keys go in and out of a map several times faster than
// keys of strings.
type packer struct{ odd map[[3]int]uint64 }

// of returns the key of cell, seed and repeat.
func (k *packer) of(cell, seed, repeat int) uint64 {
	if uint(cell) < 1<<20 && uint(repeat) < 1<<11 && uint(seed) < 1<<32 {
		return uint64(cell)<<43 | uint64(repeat)<<32 | uint64(seed)
	}
	if k.odd == nil {
		k.odd = map[[3]int]uint64{}
	}
	key := [3]int{cell, seed, repeat}
	n, ok := k.odd[key]
	if !ok {
		n = uint64(len(k.odd))
		k.odd[key] = n
	}
	return 1<<63 | n
}

// toolCodes is Line.ToolCodes of the JSON list text list.
func toolCodes(list []byte) []byte {
	codes := []byte{}
	for name := range Strings(list) {
		i := toolIndex(name)
		if i < 0 {
			return nil
		}
		codes = append(codes, byte(i))
	}
	return codes
}

// toolAt and toolByte find a tool's index in trackfacts.AgentTools by one
// byte of its name (toolTable).
var toolAt, toolByte = toolTable(trackfacts.AgentTools)

// toolTable returns the first place at which the bytes of the names of
// tools all differ, and by each byte there 1 + the index of the name that
// has it (0 for none); the place is -1 when there is none.
func toolTable(tools []string) (int, [256]uint8) {
	if len(tools) == 0 || len(tools) > 255 {
		return -1, [256]uint8{}
	}
	shortest := len(slices.MinFunc(tools, func(a, b string) int { return len(a) - len(b) }))
	for at := range shortest {
		var by [256]uint8
		distinct := true
		for i, t := range tools {
			distinct = distinct && by[t[at]] == 0
			by[t[at]] = uint8(i + 1)
		}
		if distinct {
			return at, by
		}
	}
	return -1, [256]uint8{}
}

// toolIndex is name's index in trackfacts.AgentTools, or -1: the one name
// with name's byte at toolAt, compared whole (every line names its tool
// calls: a map's hash of each took longer).
func toolIndex(name []byte) int {
	if toolAt < 0 {
		return slices.Index(trackfacts.AgentTools, string(name))
	}
	if len(name) <= toolAt {
		return -1
	}
	if i := int(toolByte[name[toolAt]]) - 1; i >= 0 && trackfacts.AgentTools[i] == string(name) {
		return i
	}
	return -1
}

// Strings yields each string of list, the JSON text of a list of strings
// ("null" or nothing yields none), as a Line holds it: a slice of the list
// when the string has no escape, else its decoded text.
func Strings(list []byte) iter.Seq[[]byte] {
	return func(yield func([]byte) bool) {
		s := scanner{b: list}
		if len(list) == 0 || s.literal("null") || !s.consume('[') || s.consume(']') {
			return
		}
		for {
			s.space()
			start := s.i
			text, plain := s.text()
			if !plain {
				text = decodeString(&s, start)
				if text == nil {
					return
				}
			}
			if !yield(text) || !s.consume(',') {
				return
			}
		}
	}
}

// decodeString decodes the JSON string at s.b[start:] (one with escapes,
// which scanner.text refuses), leaving s after it; nil when there is none.
func decodeString(s *scanner, start int) []byte {
	dec := json.NewDecoder(bytes.NewReader(s.b[start:]))
	var str string
	if err := dec.Decode(&str); err != nil {
		return nil
	}
	s.i = start + int(dec.InputOffset())
	return []byte(str)
}

// missingEpisodes words the warning for a folder without episodes.jsonl.
func missingEpisodes(path string) string {
	return path + " is missing: no episode finished"
}
