package report

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"bench/record"
	"bench/trackfacts"
)

// Aggregate is what every view of a set of run folders is computed from:
// each folder streamed once (record.Folder.Scan), each episode kept as one
// small record of what the views count, its verdict the one record gives
// it. The report in every format, the page, check and compare all read an
// Aggregate, so that they agree on every figure.
type Aggregate struct {
	inputs []*input
	runs   []*runEntry // the distinct runs (by identity), in input order
	cells  []*cell     // by task, track, model and variant, in the order first met
	cellOf map[[4]string]int32
	eps    []epRec
	seqs   seqTable
	// delegated holds, by episode (its place in eps), the delegation of
	// each episode that called run_workflow.
	delegated map[uint32]delegation
	steps     stepTable
	exits     nameTable
	// ids maps the identity of each episode of a run given more than once
	// (the same uid and part) to its record, so that it counts once.
	ids         map[identity]uint32
	duplicates  int  // episodes of a run given more than once, counted once
	conflicting int  // of those, copies whose verdicts differ
	keep        bool // its report keeps it, for EpisodeVerdict (runs read whole, for the page)
}

// input is one run folder given to the aggregate.
type input struct {
	dir      string
	run      record.Run
	uid      string
	runIdx   int              // its run among Aggregate.runs
	config   int              // the first input with the same settings (twins are within one configuration)
	shared   bool             // another input holds the same run (identity): its episodes are deduplicated
	base     int              // the index of its first episode in Aggregate.eps
	n        int              // its episodes (places)
	cellMap  []int32          // the folder's cell numbers (record.Line.Cell) → the aggregate's
	cellRefs []record.CellRef // where each of the folder's cells sits in its plan
	twinSeed map[int]bool
	plan     record.Plan
	warnings []string
}

// runEntry is one distinct run: a uid, the inputs that hold it, and the
// label the views name it by.
type runEntry struct {
	uid    string
	label  string
	inputs []int
}

// epRec is one episode as the views count it, 64 bytes (a million take
// 64 MB): the hybrid's delegation, which few episodes have, is kept apart
// (Aggregate.delegated).
type epRec struct {
	tokens, est int64
	seed        int64
	cell        int32
	repeat      int32
	turns       int32
	retries     int32
	cut         int32
	seq         uint32 // its tool sequence (seqTable)
	steps       uint32 // its steps, for twins (stepTable); 0 when not kept
	input       uint16
	exit        uint16 // its exit reason (Aggregate.exits)
	status      record.Status
	flaw        record.Flaw
	flags       uint8
	causes      record.CauseSet // the names of its causes, and whether its line records them
}

// delegation is what a hybrid episode that called run_workflow delegated:
// its calls and their tokens (reported).
type delegation struct {
	calls  int32
	tokens int64
}

// Flags of an epRec.
const (
	flagMissing uint8 = 1 << iota // its trajectory file is not in the folder
	flagDropped                   // a copy of an episode counted from another folder of its run
	flagInPlan                    // its run's plan holds it
)

// counted reports whether the episode is in n.
func (e *epRec) counted() bool { return e.flags&flagDropped == 0 && e.status.Counted() }

// standing reports whether the episode counts at all (it is no duplicate).
func (e *epRec) standing() bool { return e.flags&flagDropped == 0 }

// pass reports whether the episode counts as a pass.
func (e *epRec) pass() bool { return e.flags&flagDropped == 0 && e.status == record.StatusPassed }

// identity names an episode across folders: its run, cell, seed, repeat.
type identity struct {
	run, cell    int32
	seed, repeat int64
}

// FolderError is an error reading the run folder Dir.
type FolderError struct {
	Dir string
	Err error
}

func (e *FolderError) Error() string { return e.Err.Error() }
func (e *FolderError) Unwrap() error { return e.Err }

// reserve returns eps with room for n more episodes, in an array made for
// them. slices.Grow would clear the new room in one call of the runtime
// that cannot be preempted: with a million episodes, 64 MB of pages
// touched for the first time, during which a garbage collection that
// waits to scan the goroutine's stack signals it again and again (about
// 24,000 signals, a second of system time, on a machine whose page
// faults are slow). A new array is either fresh from the system, and
// needs no clearing, or cleared in preemptible chunks.
func reserve(eps []epRec, n int) []epRec {
	grown := make([]epRec, len(eps), len(eps)+n)
	copy(grown, eps)
	return grown
}

// maxInputs is the most run folders one aggregate takes.
const maxInputs = math.MaxUint16

// Read streams the run folders dirs into one aggregate: first every
// run.json (so that it knows which seeds can have twins, and which folders
// hold the same run), then every episodes.jsonl. An error names the folder
// (a *FolderError).
func Read(dirs []string) (*Aggregate, error) {
	if len(dirs) > maxInputs {
		return nil, fmt.Errorf("%d run folders: at most %d at once", len(dirs), maxInputs)
	}
	folders := make([]record.Folder, len(dirs))
	for i, dir := range dirs {
		f, err := record.OpenFolder(dir)
		if err != nil {
			return nil, &FolderError{dir, err}
		}
		folders[i] = f
	}
	a := newAggregate()
	for _, f := range folders {
		a.addInput(f.Dir, f.Run, f.UID)
	}
	a.prepare()
	for i, f := range folders {
		var read int64
		reserved := false
		warnings, err := f.Scan(func(l *record.Line) error {
			if read += int64(l.Size); !reserved {
				if n := record.Expected(f.Size, l.Pos+1, read); n > 0 {
					a.eps, reserved = reserve(a.eps, n), true
				}
			}
			return a.add(i, l)
		})
		if err != nil {
			return nil, &FolderError{f.Dir, err}
		}
		a.inputs[i].warnings = warnings
	}
	if err := a.refillSteps(func(i int, visit func(*record.Line) error) error {
		_, err := folders[i].Scan(visit)
		return err
	}); err != nil {
		return nil, err
	}
	return a, nil
}

// FromData makes the aggregate of runs already read whole (record.Read),
// as Read would of their folders; a run without a uid (built in memory) is
// known by its id.
func FromData(runs []record.Data) *Aggregate {
	a := newAggregate()
	a.keep = true
	for _, d := range runs {
		a.addInput(d.Dir, d.Run, cmp.Or(d.UID, d.Run.UID, "id:"+d.Run.ID))
	}
	a.prepare()
	for i, d := range runs {
		if err := d.Scan(func(l *record.Line) error { return a.add(i, l) }); err != nil {
			panic(err) // add fails on no line of a Data
		}
		a.inputs[i].warnings = d.Warnings
	}
	if err := a.refillSteps(func(i int, visit func(*record.Line) error) error { return runs[i].Scan(visit) }); err != nil {
		panic(err)
	}
	return a
}

// newAggregate returns an empty aggregate.
func newAggregate() *Aggregate {
	a := &Aggregate{cellOf: map[[4]string]int32{}}
	a.seqs.init()
	a.steps.init(stepBlock)
	return a
}

// addInput adds the folder dir holding run, of identity uid.
func (a *Aggregate) addInput(dir string, run record.Run, uid string) {
	in := &input{dir: dir, run: run, uid: uid, plan: run.Plan(), runIdx: -1}
	for r, e := range a.runs {
		if e.uid == uid {
			in.runIdx = r
		}
	}
	if in.runIdx < 0 {
		in.runIdx = len(a.runs)
		a.runs = append(a.runs, &runEntry{uid: uid})
	}
	a.runs[in.runIdx].inputs = append(a.runs[in.runIdx].inputs, len(a.inputs))
	a.inputs = append(a.inputs, in)
}

// prepare settles, once every input is known, what scanning needs: which
// inputs hold the same run, each input's configuration, the seeds whose
// episodes can have twins, and the runs' labels.
func (a *Aggregate) prepare() {
	keys := make([]string, len(a.inputs))
	for i, in := range a.inputs {
		keys[i] = in.run.SettingsKey()
		in.config = slices.Index(keys, keys[i])
		in.shared = len(a.runs[in.runIdx].inputs) > 1
	}
	if slices.ContainsFunc(a.inputs, func(in *input) bool { return in.shared }) {
		a.ids = map[identity]uint32{}
	}
	a.markTwinSeeds()
	a.labelRuns()
}

// labelRuns names each run for the views: its id, or, when runs of
// different identities share an id (two folders called run), the folder
// it was first given as.
func (a *Aggregate) labelRuns() {
	ids := map[string]int{}
	for _, r := range a.runs {
		ids[a.inputs[r.inputs[0]].run.ID]++
	}
	for _, r := range a.runs {
		in := a.inputs[r.inputs[0]]
		r.label = cmp.Or(in.run.ID, in.dir)
		if ids[in.run.ID] > 1 || in.run.ID == "" {
			r.label = cmp.Or(in.dir, in.run.ID, r.uid)
		}
	}
}

// markTwinSeeds decides, before any episode is read, which episodes keep
// their steps (to find where twins diverge): those of a seed that the
// plans of one configuration use more than once, within one run (seeds
// 1,2,1) or across runs (the same seeds run again with the same settings).
// The shards of one sweep are one plan: a seed each of them lists is not a
// twin of itself. An episode that turns out to have a twin all the same
// (a folder whose episodes its run.json does not plan) is read again.
func (a *Aggregate) markTwinSeeds() {
	type sweep struct {
		config int
		plan   string
	}
	perIndex := map[sweep]map[int]int{} // runs of each part of a sweep
	seeds := map[sweep]map[int]int{}    // uses of each seed in a sweep's plan
	for _, e := range a.runs {
		in := a.inputs[e.inputs[0]]
		part, count := 0, 0
		if sh := in.run.Shard; sh != nil {
			part, count = sh.Index, sh.Count
		}
		sw := sweep{in.config, fmt.Sprintf("%q %q %q %d", taskNames(in.run), in.run.Tracks, in.run.Model, count)}
		if perIndex[sw] == nil {
			perIndex[sw], seeds[sw] = map[int]int{}, map[int]int{}
			for _, s := range in.run.Seeds {
				seeds[sw][s]++
			}
		}
		perIndex[sw][part]++
	}
	uses := map[int]map[int]int{} // config → seed → uses across its sweeps
	for sw, parts := range perIndex {
		times := 0
		for _, n := range parts {
			times = max(times, n)
		}
		if uses[sw.config] == nil {
			uses[sw.config] = map[int]int{}
		}
		for s, n := range seeds[sw] {
			uses[sw.config][s] += n * times
		}
	}
	for _, in := range a.inputs {
		for s, n := range uses[in.config] {
			if n > 1 {
				if in.twinSeed == nil {
					in.twinSeed = map[int]bool{}
				}
				in.twinSeed[s] = true
			}
		}
	}
}

// taskNames are the names of a run's tasks.
func taskNames(r record.Run) []string {
	names := make([]string, len(r.Tasks))
	for i, t := range r.Tasks {
		names[i] = t.Name
	}
	return names
}

// errTooMany stops a scan whose records would not fit the aggregate.
var errTooMany = errors.New("more than 4,294,967,295 episodes: too many to report at once")

// add counts the line l of input i.
func (a *Aggregate) add(i int, l *record.Line) error {
	in := a.inputs[i]
	if in.n == 0 && l.Pos == 0 && !l.Replaces {
		in.base = len(a.eps)
	}
	cell := a.cellFor(in, l)
	e := epRec{
		tokens: int64(l.Tokens), est: int64(l.EstTokens), seed: int64(l.Seed), cell: cell, repeat: int32(clampInt32(l.Repeat)),
		turns: clampInt32(l.Turns), retries: clampInt32(l.Retries), cut: clampInt32(l.CutReplies),
		seq: a.seqs.of(l), input: uint16(i), exit: a.exits.of(l.ExitReason),
		status: l.Verdict.Status, flaw: l.Verdict.Flaw,
		causes: l.Causes,
	}
	if l.TrajectoryMissing {
		e.flags |= flagMissing
	}
	if in.plan.HoldsIn(in.cellRefs[l.Cell], l.Seed, l.Repeat) {
		e.flags |= flagInPlan
	}
	if in.twinSeed[l.Seed] {
		e.steps = a.steps.add(l.Steps)
	}
	g := in.base + l.Pos
	switch {
	case l.Replaces:
		a.eps[g] = e
	default:
		if len(a.eps) >= math.MaxUint32 {
			return errTooMany
		}
		a.eps = append(a.eps, e)
		in.n++
	}
	a.delegate(uint32(g), l)
	if a.ids != nil && in.shared {
		a.dedupe(identity{int32(in.runIdx), cell, int64(l.Seed), int64(l.Repeat)}, uint32(g))
	}
	return nil
}

// delegate keeps (or, for a line that replaces one without, forgets) the
// delegation of episode g, line l.
func (a *Aggregate) delegate(g uint32, l *record.Line) {
	if calls := clampInt32(l.WorkflowCalls); calls > 0 {
		if a.delegated == nil {
			a.delegated = map[uint32]delegation{}
		}
		a.delegated[g] = delegation{calls, int64(l.WorkflowTokens)}
	} else if l.Replaces {
		delete(a.delegated, g)
	}
}

// clampInt32 is x within the range of an int32.
func clampInt32(x int) int32 { return int32(min(max(x, math.MinInt32), math.MaxInt32)) }

// cellFor returns the aggregate's cell of line l of input in: its task,
// track, model and variant (an episode from before episodes named their model
// belongs to its one-model run's). It is looked up once per cell of the
// folder, with where the cell sits in the input's plan.
func (a *Aggregate) cellFor(in *input, l *record.Line) int32 {
	for len(in.cellMap) <= l.Cell {
		in.cellMap, in.cellRefs = append(in.cellMap, -1), append(in.cellRefs, record.CellRef{})
	}
	if c := in.cellMap[l.Cell]; c >= 0 {
		return c
	}
	model := string(l.Model)
	if model == "" && !in.run.SeveralModels() {
		model = in.run.Model
	}
	k := [4]string{string(l.Task), string(l.Track), model, string(l.Variant)}
	c, ok := a.cellOf[k]
	if !ok {
		c = int32(len(a.cells))
		a.cellOf[k] = c
		a.cells = append(a.cells, &cell{task: k[0], track: k[1], model: k[2], variant: k[3]})
	}
	in.cellMap[l.Cell], in.cellRefs[l.Cell] = c, in.plan.Ref(k[0], k[1], k[2], k[3])
	return c
}

// dedupe keeps one record of each episode of a run given more than once:
// the first that counts (a copy's interrupted or lost line gives way to
// a finished one), marking the others dropped. A later line of the same
// folder (replaced) stands in its place as it does in one folder.
func (a *Aggregate) dedupe(id identity, g uint32) {
	h, ok := a.ids[id]
	switch {
	case !ok || h == g:
		a.ids[id] = g
	case a.eps[h].input == a.eps[g].input:
		a.eps[h].flags |= flagDropped // an earlier line of this folder, placed elsewhere: cannot happen, but never count twice
		a.ids[id] = g
	case !a.eps[h].status.Counted() && a.eps[g].status.Counted():
		a.eps[h].flags |= flagDropped
		a.ids[id] = g
		a.duplicates++
	default:
		if a.eps[h].status != a.eps[g].status && a.eps[h].status.Counted() {
			a.conflicting++
		}
		a.eps[g].flags |= flagDropped
		a.duplicates++
	}
}

// refillSteps reads again, with scan, the inputs whose episodes turned out
// to have twins their run.json does not plan, keeping those episodes'
// steps.
func (a *Aggregate) refillSteps(scan func(i int, visit func(*record.Line) error) error) error {
	need := a.twinsWithoutSteps()
	for i, want := range need {
		in := a.inputs[i]
		err := scan(i, func(l *record.Line) error {
			if g := uint32(in.base + l.Pos); want[g] {
				a.eps[g].steps = a.steps.add(l.Steps)
			}
			return nil
		})
		if err != nil {
			return &FolderError{in.dir, err}
		}
	}
	return nil
}

// twinsWithoutSteps finds, per input, the episodes of twin groups whose
// steps were not kept. There is none when every counted episode is one its
// run's plan holds: two planned episodes of one configuration, cell and
// seed use the seed twice in the plans, so markTwinSeeds kept both steps.
func (a *Aggregate) twinsWithoutSteps() map[int]map[uint32]bool {
	unplanned := false
	for g := range a.eps {
		if e := &a.eps[g]; e.counted() && e.flags&flagInPlan == 0 {
			unplanned = true
			break
		}
	}
	if !unplanned {
		return nil
	}
	type key struct {
		config int
		cell   int32
		seed   int64
	}
	size := map[key]int{}
	for g := range a.eps {
		if e := &a.eps[g]; e.counted() {
			size[key{a.inputs[e.input].config, e.cell, e.seed}]++
		}
	}
	var need map[int]map[uint32]bool
	for g := range a.eps {
		e := &a.eps[g]
		if e.counted() && e.steps == 0 && size[key{a.inputs[e.input].config, e.cell, e.seed}] > 1 {
			if need == nil {
				need = map[int]map[uint32]bool{}
			}
			if need[int(e.input)] == nil {
				need[int(e.input)] = map[uint32]bool{}
			}
			need[int(e.input)][uint32(g)] = true
		}
	}
	return need
}

// nameTable numbers names (exit reasons), keeping one copy of each.
type nameTable struct {
	index map[string]uint16
	names []string
}

// of returns the number of the name b; past 65,535 names, the last. The
// first few names are found by comparing them in turn, which for the five
// tools an agent has is quicker than hashing.
func (t *nameTable) of(b []byte) uint16 {
	if len(t.names) <= 8 {
		for i, name := range t.names {
			if name == string(b) {
				return uint16(i)
			}
		}
	} else if n, ok := t.index[string(b)]; ok {
		return n
	}
	if t.index == nil {
		t.index = map[string]uint16{}
	}
	if len(t.names) == math.MaxUint16 {
		return math.MaxUint16 - 1
	}
	n := uint16(len(t.names))
	t.names = append(t.names, string(b))
	t.index[t.names[n]] = n
	return n
}

// seqTable numbers the distinct tool sequences, each kept once as the
// numbers of its tools (a byte each for the first 255 tool names): a
// million agent episodes of mostly distinct sequences take a few bytes per
// call, not a string per name.
type seqTable struct {
	byHash map[uint64]uint32 // record.Line.ToolsHash → the number of a sequence of that hash
	index  map[string]uint32 // encoded sequence → its number, for the others
	codes  []string          // each number's encoded sequence
	tools  nameTable
	buf    []byte
}

// init makes the table, with the empty sequence as number 0 and the
// agent's tools numbered as record.Line.ToolCodes numbers them.
func (t *seqTable) init() {
	t.index, t.byHash = map[string]uint32{"": 0}, map[uint64]uint32{}
	t.codes = []string{""}
	for _, name := range trackfacts.AgentTools {
		t.tools.of([]byte(name))
	}
}

// of returns the number of the tool sequence of l: by its codes and their
// hash (made on the decoding goroutines), or, when it calls a tool the
// agent is not offered, by the names of the JSON list text.
func (t *seqTable) of(l *record.Line) uint32 {
	code := l.ToolCodes
	if code != nil && len(code) == 0 {
		return 0 // no tool call
	}
	if code != nil {
		n, ok := t.byHash[l.ToolsHash]
		switch {
		case ok && t.codes[n] == string(code):
			return n
		case !ok: // the first sequence of its hash: known by the hash alone
			n = t.add(code, false)
			t.byHash[l.ToolsHash] = n
			return n
		}
	} else {
		t.buf = t.buf[:0]
		for name := range record.Strings(l.ToolCalls) {
			t.buf = appendCode(t.buf, t.tools.of(name))
		}
		code = t.buf
	}
	if n, ok := t.index[string(code)]; ok { // a sequence of another tool, or of a hash another has
		return n
	}
	return t.add(code, true)
}

// add numbers the new sequence of code, in the index of encoded
// sequences when indexed (else it is found by its hash).
func (t *seqTable) add(code []byte, indexed bool) uint32 {
	n := uint32(len(t.codes))
	t.codes = append(t.codes, string(code))
	if indexed {
		t.index[t.codes[n]] = n
	}
	return n
}

// list returns the names of sequence n.
func (t *seqTable) list(n uint32) []string { return t.appendList(nil, n) }

// appendList appends the names of sequence n to dst.
func (t *seqTable) appendList(dst []string, n uint32) []string {
	code := t.codes[n]
	for i := 0; i < len(code); {
		c, size := readCode(code[i:])
		dst = append(dst, t.tools.names[c])
		i += size
	}
	return dst
}

// calls is the number of tool calls of sequence n.
func (t *seqTable) calls(n uint32) int {
	k := 0
	for i := 0; i < len(t.codes[n]); k++ {
		_, size := readCode(t.codes[n][i:])
		i += size
	}
	return k
}

// ranks returns each tool number's place in the names' sorted order, or
// nil when that is the number itself (only the agent's tools, which come
// first and sorted).
func (t *seqTable) ranks() []int {
	if len(t.tools.names) <= len(trackfacts.AgentTools) {
		return nil
	}
	order := make([]int, len(t.tools.names))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(x, y int) int { return cmp.Compare(t.tools.names[x], t.tools.names[y]) })
	rank := make([]int, len(order))
	for r, i := range order {
		rank[i] = r
	}
	return rank
}

// compare orders sequences x and y as slices.Compare orders their names,
// by the names' ranks.
func (t *seqTable) compare(x, y uint32, rank []int) int {
	a, b := t.codes[x], t.codes[y]
	if rank == nil {
		return strings.Compare(a, b) // a code of one byte a tool is the tool's rank
	}
	for len(a) > 0 && len(b) > 0 {
		ca, sa := readCode(a)
		cb, sb := readCode(b)
		if c := cmp.Compare(rank[ca], rank[cb]); c != 0 {
			return c
		}
		a, b = a[sa:], b[sb:]
	}
	return cmp.Compare(len(a), len(b))
}

// appendCode appends a tool's number: one byte below 255, else 255 and
// two bytes.
func appendCode(b []byte, n uint16) []byte {
	if n < 255 {
		return append(b, byte(n))
	}
	return append(b, 255, byte(n>>8), byte(n))
}

// readCode reads one number appendCode wrote, and its size.
func readCode(s string) (uint16, int) {
	if s[0] < 255 {
		return uint16(s[0]), 1
	}
	return uint16(s[1])<<8 | uint16(s[2]), 3
}

// stepTable keeps the steps of the episodes that may have twins, each step
// as 64 bits: a step of eight hex digits (what bench records, a digest of
// the reply) is its value exactly, any other a hash of its text. The
// values are kept in blocks that are never grown, each list within one
// block: growing one array would copy all the steps kept so far, in one
// stretch the runtime cannot preempt (see reserve).
type stepTable struct {
	lists  []stepSpan // list k is lists[k], k from 1
	blocks [][]uint64
	size   int // the values a new block holds
}

// stepSpan is where one list of steps is kept.
type stepSpan struct{ block, start, end uint32 }

// stepBlock is the values a block of a stepTable holds (512 kB).
const stepBlock = 1 << 16

// init makes the table with list 0, "not kept", and blocks of size values.
func (t *stepTable) init(size int) { t.lists, t.blocks, t.size = []stepSpan{{}}, nil, size }

// add keeps the steps of the JSON list text raw and returns their number.
func (t *stepTable) add(raw []byte) uint32 {
	if len(t.blocks) == 0 {
		t.blocks = [][]uint64{make([]uint64, 0, t.size)}
	}
	b := len(t.blocks) - 1
	start := len(t.blocks[b])
	for s := range record.Strings(raw) {
		if cur := t.blocks[b]; len(cur) == cap(cur) { // the list moves to a new block, with room to double
			next := make([]uint64, 0, max(t.size, 2*(len(cur)-start)))
			t.blocks[b] = cur[:start]
			t.blocks = append(t.blocks, append(next, cur[start:]...))
			b, start = b+1, 0
		}
		t.blocks[b] = append(t.blocks[b], stepValue(s))
	}
	t.lists = append(t.lists, stepSpan{uint32(b), uint32(start), uint32(len(t.blocks[b]))})
	return uint32(len(t.lists) - 1)
}

// list returns the steps of number k (nil for 0).
func (t *stepTable) list(k uint32) []uint64 {
	if k == 0 {
		return nil
	}
	s := t.lists[k]
	return t.blocks[s.block][s.start:s.end]
}

// stepValue is the 64 bits a step is kept as: 1<<63 | its value for eight
// lowercase hex digits, else an FNV-1a hash of its text below 1<<63.
func stepValue(s []byte) uint64 {
	if v, ok := hex8(s); ok {
		return 1<<63 | v
	}
	h := uint64(14695981039346656037)
	for _, c := range s {
		h = (h ^ uint64(c)) * 1099511628211
	}
	return h &^ (1 << 63)
}

// hex8 reads eight lowercase hex digits.
func hex8(s []byte) (uint64, bool) {
	if len(s) != 8 {
		return 0, false
	}
	var v uint64
	for _, c := range s {
		switch {
		case c >= '0' && c <= '9':
			v = v<<4 | uint64(c-'0')
		case c >= 'a' && c <= 'f':
			v = v<<4 | uint64(c-'a'+10)
		default:
			return 0, false
		}
	}
	return v, true
}

// Warnings are the readers' warnings of every input (torn, malformed and
// repeated lines), in input order.
func (a *Aggregate) Warnings() []string {
	var out []string
	for _, in := range a.inputs {
		out = append(out, in.warnings...)
	}
	return out
}
