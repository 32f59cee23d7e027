// Package synth writes synthetic run folders of a realistic shape, for the
// benchmarks of reading and reporting large runs: the four course tasks ×
// the workflow, workflow-retry and agent tracks, one model, seeds of which
// one in ten is run twice (twins), agent episodes of 2 to 25 turns whose
// tool calls follow what agents do (read, then edit or write, run the
// tests, repeat), a step digest per model call as bench records it (eight
// hex digits), tokens that grow with the turns, and the rare lost,
// max_turns and token_budget endings, and the causes of every failed
// episode (one, sometimes two, sometimes none found, as package cause
// derives them). The lines are what bench writes
// (record.Episode). The trajectory files, and their digests in the lines,
// are written only with Options.Trajectories (for small runs: a million
// files is not what a benchmark of the report should spend its setup on).
//
// No model produced these numbers: the run.json says so
// ("bench_version": "synthetic").
package synth

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"bench/record"
)

// The shape of a synthetic run.
var (
	Tasks  = []string{"leap_year", "parse_date", "slugify", "word_freq"}
	Tracks = []string{"workflow", "workflow-retry", "agent"}
)

// Model is the model a synthetic run names.
const Model = "qwen3:8b"

// Options say what to write besides the lines.
type Options struct {
	Seed         uint64 // of the generator; the same seed gives the same folder
	Trajectories bool   // write each episode's trajectory file, and its digest
	ID           string // the run's id; "" = "synthetic"
}

// Plan returns the seeds of a run of about n episodes: one seed a group of
// len(Tasks) × len(Tracks) episodes, every tenth seed used twice (its
// twin), so that 10% of the groups are twins.
func Plan(n int) []int {
	group := len(Tasks) * len(Tracks)
	var seeds []int
	for s := 1; len(seeds)*group < n; s++ {
		seeds = append(seeds, s)
		if s%9 == 0 && len(seeds)*group < n {
			seeds = append(seeds, s) // its twin
		}
	}
	return seeds
}

// Write writes a run folder of n episodes into dir (made if missing):
// run.json and episodes.jsonl, the episodes in plan order (seed by seed,
// task by task, track by track), as one server running them in turn
// writes them.
func Write(dir string, n int, opt Options) (record.Run, error) {
	run := Run(n, opt)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return run, err
	}
	raw, err := json.MarshalIndent(run, "", "  ")
	if err != nil {
		return run, err
	}
	if err := os.WriteFile(filepath.Join(dir, record.RunFile), append(raw, '\n'), 0o644); err != nil {
		return run, err
	}
	f, err := os.Create(filepath.Join(dir, record.EpisodesFile))
	if err != nil {
		return run, err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	g := newGen(opt.Seed)
	written := 0
	uses := map[int]int{}
	for _, seed := range run.Seeds {
		repeat := uses[seed]
		uses[seed]++
		for _, task := range Tasks {
			for _, track := range Tracks {
				if written == n {
					break
				}
				ep := g.episode(run.ID, task, track, seed, repeat)
				if opt.Trajectories {
					if ep.TrajectorySHA256, err = writeTrajectory(dir, ep); err != nil {
						f.Close()
						return run, err
					}
				}
				line, err := json.Marshal(ep)
				if err != nil {
					f.Close()
					return run, err
				}
				w.Write(append(line, '\n'))
				written++
			}
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return run, err
	}
	return run, f.Close()
}

// Run is the run.json of a synthetic run of about n episodes.
func Run(n int, opt Options) record.Run {
	id := opt.ID
	if id == "" {
		id = "synthetic"
	}
	r := record.Run{
		Format: record.FormatVersion, BenchVersion: "synthetic", ID: id, UID: fmt.Sprintf("synthetic-%d-%d", n, opt.Seed),
		Backend: "ollama", Host: "http://127.0.0.1:11434", Model: Model, ModelDigest: "sha256:synthetic",
		Models: []record.ModelRef{{Name: Model, Digest: "sha256:synthetic"}}, Seeds: Plan(n), Tracks: Tracks,
		RunSettings: record.RunSettings{Temperature: 0.7, NumCtx: 8192, MaxTokens: 4096, Posture: "off", MaxTurns: 25, Tries: 2, Parallel: 2},
		Started:     time.Date(2026, 11, 29, 22, 0, 0, 0, time.UTC),
	}
	for _, t := range Tasks {
		r.Tasks = append(r.Tasks, record.TaskRef{Name: t, Checksum: "sha256:synthetic", Origin: record.OriginBuiltin})
	}
	return r
}

// gen draws the episodes; the causes from a stream of their own, so that
// adding them left every other field of a seed's run as it was.
type gen struct{ rng, causes *rand.Rand }

// newGen returns a generator seeded with seed.
func newGen(seed uint64) *gen {
	return &gen{rand.New(rand.NewPCG(seed, 0x73796e7468)), rand.New(rand.NewPCG(seed, 0x6361757365))} // "synth", "cause"
}

// testsOf are the tests of each task, in the order they run.
var testsOf = map[string][]string{
	"leap_year":  {"test_ordinary_year", "test_divisible_by_four", "test_century", "test_divisible_by_four_hundred", "test_far_future", "test_days_in_year"},
	"parse_date": {"test_iso", "test_slashes", "test_dots", "test_padding", "test_march", "test_end_of_month", "test_bad_input"},
	"slugify":    {"test_simple", "test_capitals", "test_custom_separator", "test_punctuation_and_spaces", "test_unicode", "test_empty", "test_numbers"},
	"word_freq":  {"test_counts", "test_case", "test_punctuation", "test_top_n", "test_ties", "test_empty"},
}

// passRate is how often each track passes.
var passRate = map[string]float64{"workflow": 0.55, "workflow-retry": 0.7, "agent": 0.8}

// episode draws one episode.
func (g *gen) episode(run, task, track string, seed, repeat int) record.Episode {
	tests := testsOf[task]
	ep := record.Episode{
		Format: record.FormatVersion, Run: run, Task: task, Track: track, Seed: seed, Repeat: repeat, Model: Model,
		Host: "http://127.0.0.1:11434", TestsTotal: len(tests), ExitReason: record.ExitDone, FailedTests: []string{},
		ToolCalls: []string{}, Posture: "general", Sandbox: &record.Sandbox{FS: "landlock", Net: "netns", PID: "pidns"},
	}
	switch track {
	case "agent":
		ep.Turns = 2 + g.rng.IntN(24) // 2 to 25
		ep.ModelCalls = ep.Turns + 1
		ep.ToolCalls = g.tools(ep.Turns)
		if ep.Turns == 25 {
			ep.ExitReason = record.ExitMaxTurns
		}
	case "workflow-retry":
		ep.Turns = 1 + g.rng.IntN(2)
		ep.ModelCalls = ep.Turns
		ep.Posture = ""
	default:
		ep.Turns, ep.ModelCalls, ep.Posture = 1, 1, ""
	}
	for range ep.ModelCalls {
		ep.Steps = append(ep.Steps, fmt.Sprintf("%08x", g.rng.Uint32()))
	}
	ep.PromptTokens = 900 + int(float64(1400*ep.ModelCalls)*(1+0.08*float64(ep.ModelCalls))) + g.rng.IntN(400)
	ep.CompletionTokens = 120*ep.ModelCalls + g.rng.IntN(300)
	ep.EstPromptTokens = ep.PromptTokens - ep.PromptTokens/25 + g.rng.IntN(50)
	ep.EstCompletionTokens = ep.CompletionTokens + g.rng.IntN(20)
	ep.ModelMS = int64(ep.ModelCalls*(800+g.rng.IntN(2000))) + int64(ep.CompletionTokens)
	ep.TestMS = int64(300 + g.rng.IntN(900))
	ep.WallMS = ep.ModelMS + ep.TestMS + int64(g.rng.IntN(200))
	switch x := g.rng.Float64(); {
	case x < 0.01: // lost to the server
		ep.ExitReason, ep.ErrorKind, ep.Error, ep.Retries = record.ExitError, record.ErrorServer, "the server answered 503 Service Unavailable (4 retries)", 4
	case x < 0.015 && track == "agent":
		ep.ExitReason = record.ExitTokenBudget
	}
	if g.rng.Float64() < passRate[track] && ep.ExitReason != record.ExitError {
		ep.Passed, ep.TestsPassed = true, len(tests)
	} else {
		ep.TestsPassed = g.rng.IntN(len(tests))
		ep.FailedTests = append(ep.FailedTests, tests[ep.TestsPassed:]...)
	}
	if g.rng.IntN(50) == 0 {
		ep.CutReplies = 1
	}
	if !ep.Passed && ep.ExitReason != record.ExitError {
		ep.Causes = g.causesOf(&ep)
	}
	return ep
}

// causesOf draws the causes of a failed episode as package cause derives
// them: most often one, now and then a second, now and then none found
// (an empty list); the budget when the agent ran out of turns or tokens.
// Tests, files and evidence are what a real line holds.
func (g *gen) causesOf(ep *record.Episode) []record.Cause {
	file := ep.Task + ".py"
	out := []record.Cause{}
	if ep.ExitReason == record.ExitMaxTurns || ep.ExitReason == record.ExitTokenBudget {
		out = append(out, record.Cause{Name: record.CauseBudget, Evidence: fmt.Sprintf("exit %s after %d turns", ep.ExitReason, ep.Turns)})
	}
	kinds := []record.CauseName{record.CauseWrongFix, record.CauseWrongFix, record.CauseBrokeTests, record.CauseNoChange, record.CauseMalformedReply, record.CauseLostContent}
	if ep.Track == "agent" {
		kinds = append(kinds, record.CauseToolErrors, record.CauseMaskedFailure)
	}
	n := 1
	switch x := g.causes.IntN(20); {
	case x == 0:
		n = 0
	case x < 3:
		n = 2
	}
	for range n {
		c := record.Cause{Name: kinds[g.causes.IntN(len(kinds))]}
		switch c.Name {
		case record.CauseWrongFix, record.CauseBrokeTests, record.CauseMaskedFailure:
			c.Tests = ep.FailedTests[:1+g.causes.IntN(len(ep.FailedTests))]
			c.Evidence = c.Tests[0] + ": AssertionError: False is not true"
		case record.CauseLostContent:
			c.File, c.Lost = file, []string{"def helper(value):"}
			c.Evidence = "NameError: name 'helper' is not defined; the write removed def helper(value):"
		case record.CauseMalformedReply:
			c.File, c.Evidence = file, "the reply held no code block"
		case record.CauseNoChange:
			c.File, c.Evidence = file, "the write left "+file+" as it was"
		default:
			c.Evidence = "the last 3 tool calls failed"
		}
		if !slices.ContainsFunc(out, func(o record.Cause) bool { return o.Name == c.Name }) {
			out = append(out, c)
		}
	}
	return out
}

// tools draws the tool calls of an agent of turns turns: it reads (lists
// first now and then), runs the tests, then edits or writes and runs the
// tests again until it stops, reading again now and then.
func (g *gen) tools(turns int) []string {
	var out []string
	if g.rng.IntN(3) == 0 {
		out = append(out, "list_files")
	}
	out = append(out, "read_file", "run_tests")
	for len(out) < turns {
		switch x := g.rng.IntN(10); {
		case x < 5:
			out = append(out, "edit_file", "run_tests")
		case x < 7:
			out = append(out, "write_file", "run_tests")
		default:
			out = append(out, "read_file")
		}
	}
	return out[:turns]
}

// filler stands for the source file and test output a request carries.
var filler = strings.Repeat("def is_leap(year):\n    return year % 4 == 0 and year % 100 != 0\n", 24)

// writeTrajectory writes the trajectory of ep (a request, a response per
// step, an end) where bench keeps it and returns its hex SHA-256.
func writeTrajectory(dir string, ep record.Episode) (string, error) {
	path := filepath.Join(dir, record.TrajectoryRel(record.Run{}, ep))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", err
	}
	var b []byte
	at := time.Date(2026, 11, 29, 22, 0, 0, 0, time.UTC)
	add := func(ev record.Event) {
		ev.Format, ev.Time = record.FormatVersion, at.Add(time.Duration(ev.Seq)*time.Second)
		line, _ := json.Marshal(ev)
		b = append(append(b, line...), '\n')
	}
	seq := 0
	for i, step := range ep.Steps {
		add(record.Event{Seq: seq, Kind: record.EventRequest, Turn: i + 1, Messages: []record.Message{{Role: "user", Content: "Fix the failing tests of " + ep.Task + ".\n" + filler}}})
		add(record.Event{Seq: seq + 1, Kind: record.EventResponse, Turn: i + 1, Reply: &record.Message{Role: "assistant", Content: "step " + step}})
		seq += 2
	}
	add(record.Event{Seq: seq, Kind: record.EventEnd, Exit: ep.ExitReason})
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}
